package io.kuberaysim.sim;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.ray.KubeRayOperator;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.sim.chaos.ChaosSimulation;
import io.kuberaysim.sim.ray.RayletSimulation;
import io.kuberaysim.sim.ray.SimulatedAutoscaler;
import io.kuberaysim.sim.ray.SimulatedRayDashboard;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.Objects;

/**
 * The cluster around the operator: a pool of Nodes registered through the API, the scheduler, the
 * kubelets and the Job controller, all running as controllers of one {@link ControllerManager}.
 * Deleting or cordoning a Node, deleting a Pod or marking it Failed through {@code /status} are the fault
 * injections a user can do with plain API calls; the sim.kuberay.io lifecycle rules and fault schedules
 * ({@link ChaosSimulation}) script them, drawing from a chaos stream seeded with the simulation's seed.
 *
 * <p>{@link #withOperator} is the one composition of the application and the test harness: the KubeRay operator
 * installed on the manager, and around it the Ray side of the simulation (autoscaler sidecars, the heads'
 * dashboards, submitter containers) and the cluster itself.
 */
public final class SimulatedCluster {
    private final ControllerManager manager;
    private final SimulationSettings settings;
    private final SimulatedRayDashboard rayDashboard;
    private final long seed;
    private KubeRayOperator operator;
    private boolean registered;

    /** A cluster whose chaos stream is seeded with {@code kuberay-sim.seed}'s default. */
    public SimulatedCluster(ControllerManager manager, SimulationSettings settings) {
        this(manager, settings, KubeRayOperator.Options.DEFAULTS.seed());
    }

    /** @param seed seed of the chaos stream (lifecycle rules and fault schedules) */
    public SimulatedCluster(ControllerManager manager, SimulationSettings settings, long seed) {
        this.manager = Objects.requireNonNull(manager, "manager");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.rayDashboard = new SimulatedRayDashboard(manager);
        this.seed = seed;
    }

    /**
     * A started simulated cluster with the KubeRay operator running in it: the operator's controllers, the
     * simulated autoscaler, the Ray dashboards the operator reaches (with the submitter simulation), then the nodes,
     * scheduler, kubelet and Job controller. The manager may be started before or after.
     */
    public static SimulatedCluster withOperator(ControllerManager manager, SimulationSettings settings,
                                                KubeRayOperator.Options options) {
        SimulatedCluster cluster = new SimulatedCluster(manager, settings, options.seed());
        cluster.installOperator(options);
        return cluster;
    }

    /**
     * What {@link #withOperator} does after construction: the operator, the simulated autoscaler and dashboards,
     * then {@link #start}. The server calls it once it answers HTTP, before its manager starts (a start costs less).
     */
    public synchronized void installOperator(KubeRayOperator.Options options) {
        if (operator != null) {
            return;
        }
        operator = KubeRayOperator.install(manager, rayDashboard, options);
        SimulatedAutoscaler.register(manager);
        rayDashboard.install(operator.rayJob());
        start();
    }

    /** The Ray dashboards of the cluster's Ray heads. */
    public SimulatedRayDashboard rayDashboard() {
        return rayDashboard;
    }

    /** The operator of {@link #withOperator} or {@link #installOperator}; null otherwise. */
    public KubeRayOperator operator() {
        return operator;
    }

    public SimulationSettings settings() {
        return settings;
    }

    /** Registers the nodes (when missing) and the scheduler, kubelet and Job controllers. Idempotent. */
    public synchronized void start() {
        if (registered) {
            return;
        }
        registered = true;
        KubeClient client = manager.client().as("kubelet");
        for (int i = 0; i < settings.nodeCount(); i++) {
            registerNode(client, "sim-node-" + i, i, false);
        }
        for (int i = 0; i < settings.gpuNodeCount(); i++) {
            registerNode(client, "sim-gpu-node-" + i, settings.nodeCount() + i, true);
        }
        new Scheduler(manager).register(manager);
        ChaosSimulation chaos = ChaosSimulation.install(manager, settings, seed, rayDashboard);
        new Kubelet(manager, settings, chaos.podRules(), chaos.crashes()).register(manager);
        RayletSimulation.register(manager, chaos.crashes());
        new NodeLeases(manager).register(manager);
        new NodeLifecycleController(manager).register(manager);
        new TaintEviction(manager).register(manager);
        new JobController(manager).register(manager);
    }

    private void registerNode(KubeClient client, String name, int index, boolean gpu) {
        if (client.get(ResourceTypes.NODES, null, name) != null) {
            return;
        }
        client.create(ResourceTypes.NODES, null, node(name, index, gpu));
        ObjectNode withStatus = client.get(ResourceTypes.NODES, null, name).copy();
        withStatus.set("status", nodeStatus(name, index, gpu));
        client.updateStatus(ResourceTypes.NODES, withStatus);
    }

    private ObjectNode node(String name, int index, boolean gpu) {
        ObjectNode n = Json.object();
        n.put("apiVersion", "v1");
        n.put("kind", "Node");
        ObjectNode meta = n.putObject("metadata");
        meta.put("name", name);
        ObjectNode labels = meta.putObject("labels");
        labels.put("beta.kubernetes.io/arch", "amd64").put("beta.kubernetes.io/os", "linux")
                .put("kubernetes.io/arch", "amd64").put("kubernetes.io/hostname", name)
                .put("kubernetes.io/os", "linux")
                .put("node.kubernetes.io/instance-type", gpu ? "sim-gpu" : "sim-standard");
        if (gpu) {
            labels.put("nvidia.com/gpu.present", "true");
        }
        meta.putObject("annotations").put("node.alpha.kubernetes.io/ttl", "0");
        ObjectNode spec = n.putObject("spec");
        spec.put("podCIDR", "10.244." + index + ".0/24");
        spec.putArray("podCIDRs").add("10.244." + index + ".0/24");
        spec.put("providerID", "kuberay-sim://" + name);
        return n;
    }

    private ObjectNode nodeStatus(String name, int index, boolean gpu) {
        String now = manager.clock().now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
        ObjectNode status = Json.object();
        ObjectNode capacity = status.putObject("capacity");
        capacity.put("cpu", settings.nodeCpu()).put("memory", settings.nodeMemory())
                .put("pods", Integer.toString(settings.nodePods())).put("ephemeral-storage", "100Gi")
                .put("hugepages-2Mi", "0");
        if (gpu) {
            capacity.put("nvidia.com/gpu", Integer.toString(settings.gpusPerNode()));
        }
        status.set("allocatable", capacity.deepCopy());
        ArrayNode conds = status.putArray("conditions");
        String[][] c = {
            {"MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"},
            {"DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"},
            {"PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"},
            {"Ready", "True", "KubeletReady", "kubelet is posting ready status"}};
        for (String[] row : c) {
            conds.addObject().put("type", row[0]).put("status", row[1]).put("lastHeartbeatTime", now)
                    .put("lastTransitionTime", now).put("reason", row[2]).put("message", row[3]);
        }
        ArrayNode addresses = status.putArray("addresses");
        addresses.addObject().put("type", "InternalIP").put("address", "172.18.0." + (index + 2));
        addresses.addObject().put("type", "Hostname").put("address", name);
        status.putObject("daemonEndpoints").putObject("kubeletEndpoint").put("Port", 10250);
        ObjectNode info = status.putObject("nodeInfo");
        info.put("machineID", String.format("%032x", index + 1)).put("systemUUID", String.format("%032x", index + 1))
                .put("bootID", String.format("%032x", index + 1001)).put("kernelVersion", "6.8.0-sim")
                .put("osImage", "Debian GNU/Linux 12 (bookworm)").put("containerRuntimeVersion", "containerd://1.7.24")
                .put("kubeletVersion", "v1.32.0").put("kubeProxyVersion", "v1.32.0")
                .put("operatingSystem", "linux").put("architecture", "amd64");
        return status;
    }
}
