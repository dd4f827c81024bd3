package io.kuberaysim.testing;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.ray.KubeRayOperator;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import io.kuberaysim.sim.SimulatedCluster;
import io.kuberaysim.sim.SimulationSettings;
import io.kuberaysim.sim.ray.RayDashboard;
import io.kuberaysim.sim.ray.ServeApplications;

import java.time.Duration;

/**
 * A whole simulated control plane for plain JUnit tests (no Spring): registry, garbage collector,
 * namespace lifecycle, a started {@link ControllerManager} and (with {@link #withSimulatedCluster()}) the
 * simulated cluster (nodes, scheduler, kubelet, Job controller), all on one {@link VirtualClock}. Pods start 2 s
 * (virtual) after they are scheduled; see {@link SimulationSettings} for the per-pod annotations.
 *
 * <pre>{@code
 * try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
 *     h.manager().controller("raycluster").forType(RAYCLUSTERS).owns(PODS).complete(myReconciler);
 *     h.create(RAYCLUSTERS, "default", yaml);
 *     h.settle();                          // everything due now has run
 *     h.advance(Duration.ofSeconds(5));    // timers (requeueAfter, kubelet delays) fire
 * }
 * }</pre>
 * Controllers may be registered before or after the manager started (it starts in the constructor).
 * {@link #withOperator()} adds the KubeRay operator (RayCluster, RayJob, RayService controllers with the simulated
 * autoscaler, dashboards, submitter and Serve API), installed by {@link SimulatedCluster#withOperator} as the
 * application installs them.
 */
public final class SimulationHarness implements AutoCloseable {
    private final TestCluster cluster = new TestCluster();
    private final ControllerManager manager = cluster.manager;
    /** {@code kuberay-sim.seed}'s default: the names an operator harness generates match the application's. */
    public static final long SEED = KubeRayOperator.Options.DEFAULTS.seed();

    private final SimulatedCluster simulated;
    private final RayDashboard dashboard;
    private final ServeApplications serve;

    /**
     * A started control plane without the simulated cluster (no nodes, scheduler, kubelet or Job controller):
     * tests that fake pod status themselves need this, since a kubelet would fight their writes.
     */
    public SimulationHarness() {
        this(null);
    }

    /** A started control plane with a simulated cluster built from {@code settings}; null = no simulated cluster. */
    public SimulationHarness(SimulationSettings settings) {
        this(settings, false);
    }

    private SimulationHarness(SimulationSettings settings, boolean operator) {
        if (operator) {
            // the application's composition (config/ControllerConfiguration), before start
            simulated = SimulatedCluster.withOperator(manager, settings, KubeRayOperator.Options.DEFAULTS);
            dashboard = simulated.rayDashboard().jobs();
            serve = simulated.rayDashboard().serve();
        } else {
            simulated = settings == null ? null : new SimulatedCluster(manager, settings);
            if (simulated != null) {
                simulated.start();
            }
            dashboard = null;
            serve = null;
        }
        manager.start();
        settle();
    }

    /** A started control plane with the default simulated cluster: 4 nodes, scheduler, kubelet, Job controller. */
    public static SimulationHarness withSimulatedCluster() {
        return new SimulationHarness(SimulationSettings.defaults());
    }

    /**
     * The default simulated cluster plus the whole KubeRay operator, as the application runs it: RayCluster
     * controller and simulated autoscaler, RayJob controller with the simulated dashboards and submitter, RayService
     * controller with the simulated Serve API.
     */
    public static SimulationHarness withOperator() {
        return withOperator(SimulationSettings.defaults());
    }

    /** {@link #withOperator()} on a simulated cluster built from {@code settings}. */
    public static SimulationHarness withOperator(SimulationSettings settings) {
        return new SimulationHarness(settings, true);
    }

    /** Same as {@link #SimulationHarness()}. */
    public static SimulationHarness bare() {
        return new SimulationHarness(null);
    }

    public KubeClient client() {
        return manager.client();
    }

    public ControllerManager manager() {
        return manager;
    }

    /** The simulated Ray dashboards of {@link #withOperator()}; null otherwise. */
    public RayDashboard dashboard() {
        return dashboard;
    }

    /** The simulated Ray Serve API of {@link #withOperator()}; null otherwise. */
    public ServeApplications serve() {
        return serve;
    }

    public VirtualClock clock() {
        return cluster.clock;
    }

    public GenericRegistry registry() {
        return cluster.registry;
    }

    /** Runs everything due now (informer events, reconciles, GC) to quiescence; time does not move. */
    public void settle() {
        cluster.clock.awaitIdle();
    }

    /** Moves virtual time, firing every timer due meanwhile, each to quiescence. */
    public void advance(Duration d) {
        cluster.clock.advance(d);
    }

    /** Creates an object from YAML through the client and settles. */
    public StoredObject create(ResourceType type, String namespace, String yaml) {
        StoredObject o = client().create(type, namespace, TestCluster.yaml(yaml));
        settle();
        return o;
    }

    @Override
    public void close() {
        manager.close();
        cluster.close();
    }
}
