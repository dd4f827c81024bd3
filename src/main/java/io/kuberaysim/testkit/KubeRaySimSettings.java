package io.kuberaysim.testkit;

import io.kuberaysim.config.SimProperties;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A test kit simulator's settings, from {@link KubeRaySimTest} or {@link KubeRaySimExtension#builder()}.
 *
 * @param clock                 {@code virtual} or {@code wall}
 * @param nodes                 CPU nodes
 * @param nodeCpu               CPU of each node
 * @param nodeMemory            memory of each node
 * @param gpuNodes              extra GPU nodes
 * @param gpusPerNode           GPUs of each GPU node
 * @param podStartupSeconds     binding to Running
 * @param podTerminationSeconds graceful delete to removal
 * @param seed                  seed of generated names
 * @param perClass              one simulator per class instead of per method
 * @param server                also serve HTTP on a loopback port
 */
public record KubeRaySimSettings(String clock, int nodes, String nodeCpu, String nodeMemory, int gpuNodes,
                                 int gpusPerNode, double podStartupSeconds, double podTerminationSeconds, long seed,
                                 boolean perClass, boolean server) {
    public KubeRaySimSettings {
        clock = clock.toLowerCase(Locale.ROOT);
        if (!clock.equals("virtual") && !clock.equals("wall")) {
            throw new IllegalArgumentException("clock must be virtual or wall, got " + clock);
        }
    }

    static KubeRaySimSettings of(KubeRaySimTest a) {
        return new KubeRaySimSettings(a.clock(), a.nodes(), a.nodeCpu(), a.nodeMemory(), a.gpuNodes(),
                a.gpusPerNode(), a.podStartupSeconds(), a.podTerminationSeconds(), a.seed(), a.perClass(),
                a.server());
    }

    /** The annotation's defaults. */
    public static KubeRaySimSettings defaults() {
        return new KubeRaySimSettings("virtual", 4, "16", "64Gi", 0, 8, 2, 1, 42, false, false);
    }

    /** The application's settings for an in-process simulator. */
    SimProperties toProperties() {
        return new SimProperties(clock, null, null, seed, null, true, null, null, null,
                new SimProperties.NodeProperties(nodes, nodeCpu, nodeMemory, null, gpuNodes, gpusPerNode),
                new SimProperties.KubeletProperties(podStartupSeconds, podTerminationSeconds), null, null, null);
    }

    /** The same settings as command-line properties of the application. */
    List<String> toArguments() {
        List<String> args = new ArrayList<>();
        args.add("--kuberay-sim.clock=" + clock);
        args.add("--kuberay-sim.seed=" + seed);
        args.add("--kuberay-sim.nodes.count=" + nodes);
        args.add("--kuberay-sim.nodes.cpu=" + nodeCpu);
        args.add("--kuberay-sim.nodes.memory=" + nodeMemory);
        args.add("--kuberay-sim.nodes.gpu-count=" + gpuNodes);
        args.add("--kuberay-sim.nodes.gpus-per-node=" + gpusPerNode);
        args.add("--kuberay-sim.kubelet.startup-seconds=" + podStartupSeconds);
        args.add("--kuberay-sim.kubelet.termination-seconds=" + podTerminationSeconds);
        return args;
    }
}
