package io.kuberaysim.scenario;

import io.kuberaysim.config.SimProperties;
import io.kuberaysim.controller.ray.KubeRayOperator;
import io.kuberaysim.sim.SimulationSettings;

/**
 * A scenario's {@code settings}: the simulated cluster it runs on (the {@code kuberay-sim.nodes.*} and
 * {@code kuberay-sim.kubelet.*} knobs), the seed of generated names, and the namespace of objects that name none.
 */
public record ScenarioSettings(SimulationSettings simulation, long seed, String namespace) {

    /** The application's defaults: 4 nodes of 16 CPU and 64Gi, pods start in 2 s, seed 42, namespace default. */
    public static ScenarioSettings defaults() {
        return new ScenarioSettings(SimulationSettings.defaults(), KubeRayOperator.Options.DEFAULTS.seed(), "default");
    }

    /** The application's settings for an in-process run on the virtual clock. */
    public SimProperties toProperties() {
        SimulationSettings s = simulation;
        return new SimProperties("virtual", null, null, seed, null, true, null, null, null,
                new SimProperties.NodeProperties(s.nodeCount(), s.nodeCpu(), s.nodeMemory(), s.nodePods(),
                        s.gpuNodeCount(), s.gpusPerNode()),
                new SimProperties.KubeletProperties(s.startup().toMillis() / 1000.0,
                        s.termination().toMillis() / 1000.0), null, null, null);
    }
}
