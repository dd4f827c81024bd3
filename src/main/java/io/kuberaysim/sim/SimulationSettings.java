package io.kuberaysim.sim;

import java.time.Duration;

/**
 * Knobs of the simulated cluster (bound from {@code kuberay-sim.*} by the Spring configuration).
 *
 * @param nodeCount          CPU nodes {@code sim-node-0..n-1}
 * @param nodeCpu            CPU capacity of each node (a Kubernetes quantity)
 * @param nodeMemory         memory capacity of each node
 * @param nodePods           pod capacity of each node
 * @param gpuNodeCount       additional GPU nodes {@code sim-gpu-node-0..n-1} (0 = none)
 * @param gpusPerNode        {@code nvidia.com/gpu} capacity of each GPU node
 * @param startup            delay from binding to Running (per pod: annotation {@code sim.kuberay.io/startup-seconds})
 * @param termination        delay from a graceful delete to removal (capped by the pod's grace period)
 */
public record SimulationSettings(int nodeCount, String nodeCpu, String nodeMemory, int nodePods, int gpuNodeCount,
                                 int gpusPerNode, Duration startup, Duration termination) {

    /** Annotation prefix of every per-pod knob. */
    public static final String PREFIX = "sim.kuberay.io/";
    /** Seconds from binding to Running. */
    public static final String STARTUP_SECONDS = PREFIX + "startup-seconds";
    /** Seconds a container runs before it exits; unset = forever. */
    public static final String RUN_SECONDS = PREFIX + "run-seconds";
    /** Exit code of a container that exits (default 0). */
    public static final String EXIT_CODE = PREFIX + "exit-code";
    /** "false" = the pod never becomes Ready. */
    public static final String READY = PREFIX + "ready";

    /** 4 nodes × 16 CPU × 64Gi × 110 pods, no GPU nodes, 2 s startup, 1 s termination. */
    public static SimulationSettings defaults() {
        return new SimulationSettings(4, "16", "64Gi", 110, 0, 8, Duration.ofSeconds(2), Duration.ofSeconds(1));
    }
}
