package io.kuberaysim.testing;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import io.kuberaysim.sim.SimulatedCluster;
import io.kuberaysim.sim.SimulationSettings;

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
 */
public final class SimulationHarness implements AutoCloseable {
    private final TestCluster cluster = new TestCluster();
    private final ControllerManager manager = new ControllerManager(cluster.registry, cluster.clock, 1);
    private final SimulatedCluster simulated;

    /**
     * A started control plane without the simulated cluster (no nodes, scheduler, kubelet or Job controller):
     * tests that fake pod status themselves need this, since a kubelet would fight their writes.
     */
    public SimulationHarness() {
        this(null);
    }

    /** A started control plane with a simulated cluster built from {@code settings}; null = no simulated cluster. */
    public SimulationHarness(SimulationSettings settings) {
        simulated = settings == null ? null : new SimulatedCluster(manager, settings);
        if (simulated != null) {
            simulated.start();
        }
        manager.start();
        settle();
    }

    /** A started control plane with the default simulated cluster: 4 nodes, scheduler, kubelet, Job controller. */
    public static SimulationHarness withSimulatedCluster() {
        return new SimulationHarness(SimulationSettings.defaults());
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
