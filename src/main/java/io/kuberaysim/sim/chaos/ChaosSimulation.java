package io.kuberaysim.sim.chaos;

import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.sim.SimulationSettings;
import io.kuberaysim.sim.ray.SimulatedRayDashboard;

/**
 * The simulation's sim.kuberay.io API at work: PodLifecycleRules (read by the kubelet), NodeLifecycleRules and
 * NodeNotReady faults ({@link NodeLifecycle}), FaultSchedules ({@link FaultScheduler}, {@link FaultInjector}) and the
 * gate before the operator's writes ({@link ApiWriteFaults}), all drawing from one {@link ChaosRandom} seeded with the
 * simulation's seed. With no rule and no schedule nothing here writes anything, so runs are as without it.
 */
public final class ChaosSimulation {
    /** Source component of the Events recording injected faults (the timeline prints them as {@code fault: ...}). */
    public static final String EVENT_SOURCE = "kuberay-sim-chaos";

    private final PodLifecycleRules podRules;
    private final ContainerCrashes crashes = new ContainerCrashes();

    private ChaosSimulation(PodLifecycleRules podRules) {
        this.podRules = podRules;
    }

    /** Registers the node lifecycle and fault schedule controllers and gates the operator's writes. */
    public static ChaosSimulation install(ControllerManager manager, SimulationSettings settings, long seed,
                                          SimulatedRayDashboard dashboard) {
        ChaosRandom random = new ChaosRandom(seed);
        ChaosSimulation chaos = new ChaosSimulation(new PodLifecycleRules(manager, random));
        NodeLifecycle nodes = new NodeLifecycle(manager, random, settings);
        nodes.register(manager);
        ApiWriteFaults apiFaults = new ApiWriteFaults(manager.clock(), random);
        manager.gateOperatorWrites(apiFaults);
        FaultInjector injector = new FaultInjector(manager, chaos.crashes, nodes, dashboard, apiFaults);
        new FaultScheduler(manager, random, injector).register(manager);
        return chaos;
    }

    /** What the PodLifecycleRules say about a Pod (for the kubelet). */
    public PodLifecycleRules podRules() {
        return podRules;
    }

    /** Crashes asked for by faults (for the kubelet). */
    public ContainerCrashes crashes() {
        return crashes;
    }
}
