package io.kuberaysim.config;

import io.kuberaysim.controller.ray.KubeRayOperator;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import io.kuberaysim.sim.SimulationSettings;
import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;
import java.time.Instant;

/**
 * Settings under {@code kuberay-sim.*}. Every default is the one of the plain-Java type the setting feeds
 * ({@link VirtualClock#DEFAULT_START}, {@link KubeRayOperator.Options#DEFAULTS},
 * {@link SimulationSettings#defaults()}), so it is stated once.
 *
 * @param clock                {@code wall} (real time) or {@code virtual} (discrete-event, moved by
 *                             /sim/v1/clock/advance)
 * @param virtualStart         the instant a virtual clock starts at
 * @param virtualSpeed         when above 0, virtual time follows the wall clock at this speed (e.g. 10 = ten times
 *                             faster)
 * @param seed                 seed of generated names and uids, so virtual-clock runs are reproducible
 * @param watchHistory         how many past changes are kept for watches resuming from a resourceVersion
 * @param controllers          whether the KubeRay operator and the simulated cluster run (off: a bare API server)
 * @param eventTtl             how long an Event lives after its last write, on the clock (kube-apiserver's
 *                             {@code --event-ttl}); 0 keeps Events for ever
 * @param reconcileConcurrency parallel reconciles per controller on a wall clock
 * @param raycluster           {@code kuberay-sim.raycluster.*}
 * @param nodes                {@code kuberay-sim.nodes.*}: the simulated node pool
 * @param kubelet              {@code kuberay-sim.kubelet.*}: the simulated kubelet's timings
 * @param storage              {@code memory} (in this process, the default) or {@code etcd}
 *                             ({@code kuberay-sim.etcd.*}; the wall clock only)
 * @param etcd                 {@code kuberay-sim.etcd.*}: where and how objects are kept with {@code storage=etcd}
 * @param leaderElection       {@code kuberay-sim.leader-election.*}: which replica runs the controllers
 */
@ConfigurationProperties("kuberay-sim")
public record SimProperties(String clock, Instant virtualStart, Double virtualSpeed, Long seed, Integer watchHistory,
                            Boolean controllers, Duration eventTtl, Integer reconcileConcurrency,
                            RayClusterProperties raycluster,
                            NodeProperties nodes, KubeletProperties kubelet, String storage, EtcdProperties etcd,
                            LeaderElectionProperties leaderElection) {
    public SimProperties {
        clock = clock == null ? "wall" : clock;
        virtualStart = virtualStart == null ? VirtualClock.DEFAULT_START : virtualStart;
        virtualSpeed = virtualSpeed == null ? 0.0 : virtualSpeed;
        seed = seed == null ? KubeRayOperator.Options.DEFAULTS.seed() : seed;
        watchHistory = watchHistory == null ? 10_000 : watchHistory;
        controllers = controllers == null || controllers;
        eventTtl = eventTtl == null ? Duration.ofHours(1) : eventTtl;
        if (eventTtl.isNegative()) {
            throw new IllegalArgumentException("kuberay-sim.event-ttl must not be negative: " + eventTtl);
        }
        reconcileConcurrency = reconcileConcurrency == null ? 1 : reconcileConcurrency;
        raycluster = raycluster == null ? new RayClusterProperties(null) : raycluster;
        nodes = nodes == null ? new NodeProperties(null, null, null, null, null, null) : nodes;
        kubelet = kubelet == null ? new KubeletProperties(null, null) : kubelet;
        storage = storage == null ? "memory" : storage;
        etcd = etcd == null ? new EtcdProperties(null, null, null, null) : etcd;
        leaderElection = leaderElection == null ? new LeaderElectionProperties(null, null, null, null, null)
                : leaderElection;
    }

    /** Every setting at its default, on the given clock ({@code wall} or {@code virtual}) with the given seed. */
    public static SimProperties defaults(String clock, Long seed) {
        return new SimProperties(clock, null, null, seed, null, null, null, null, null, null, null, null, null, null);
    }

    public boolean virtual() {
        return "virtual".equals(clock);
    }

    /** Whether objects are kept in etcd ({@code kuberay-sim.storage=etcd}). */
    public boolean etcdStorage() {
        return "etcd".equals(storage);
    }

    /** The operator's knobs. */
    public KubeRayOperator.Options operator() {
        return new KubeRayOperator.Options(Duration.ofSeconds(raycluster.requeueSeconds()), seed);
    }

    /** The simulated cluster's knobs. */
    public SimulationSettings simulation() {
        return new SimulationSettings(nodes.count(), nodes.cpu(), nodes.memory(), nodes.pods(), nodes.gpuCount(),
                nodes.gpusPerNode(), seconds(kubelet.startupSeconds()), seconds(kubelet.terminationSeconds()));
    }

    private static Duration seconds(double s) {
        return Duration.ofMillis(Math.round(s * 1000));
    }

    private static double seconds(Duration d) {
        return d.toMillis() / 1000.0;
    }

    /**
     * {@code kuberay-sim.raycluster.*}.
     *
     * @param requeueSeconds RayCluster resync period when nothing changed (KubeRay's
     *                       {@code RAYCLUSTER_DEFAULT_REQUEUE_SECONDS_ENV})
     */
    public record RayClusterProperties(Long requeueSeconds) {
        public RayClusterProperties {
            requeueSeconds = requeueSeconds == null
                    ? KubeRayOperator.Options.DEFAULTS.rayClusterRequeue().toSeconds() : requeueSeconds;
        }
    }

    /**
     * {@code kuberay-sim.nodes.*}; see {@link SimulationSettings}.
     *
     * @param count       CPU nodes
     * @param cpu         CPU capacity of each node
     * @param memory      memory capacity of each node
     * @param pods        pod capacity of each node
     * @param gpuCount    additional GPU nodes
     * @param gpusPerNode {@code nvidia.com/gpu} capacity of each GPU node
     */
    public record NodeProperties(Integer count, String cpu, String memory, Integer pods, Integer gpuCount,
                                 Integer gpusPerNode) {
        public NodeProperties {
            SimulationSettings d = SimulationSettings.defaults();
            count = count == null ? d.nodeCount() : count;
            cpu = cpu == null ? d.nodeCpu() : cpu;
            memory = memory == null ? d.nodeMemory() : memory;
            pods = pods == null ? d.nodePods() : pods;
            gpuCount = gpuCount == null ? d.gpuNodeCount() : gpuCount;
            gpusPerNode = gpusPerNode == null ? d.gpusPerNode() : gpusPerNode;
        }
    }

    /**
     * {@code kuberay-sim.kubelet.*}.
     *
     * @param startupSeconds     seconds from binding to Running
     * @param terminationSeconds seconds from a graceful delete to removal
     */
    public record KubeletProperties(Double startupSeconds, Double terminationSeconds) {
        public KubeletProperties {
            SimulationSettings d = SimulationSettings.defaults();
            startupSeconds = startupSeconds == null ? seconds(d.startup()) : startupSeconds;
            terminationSeconds = terminationSeconds == null ? seconds(d.termination()) : terminationSeconds;
        }
    }

    /**
     * {@code kuberay-sim.etcd.*}.
     *
     * @param endpoints          etcd client URLs (comma-separated in a property)
     * @param prefix             the key prefix; objects live at {@code <prefix>/<group>/<resource>/<ns>/<name>}
     * @param compactionInterval how often etcd's history is compacted to the revision seen one interval before
     *                           (kube-apiserver's {@code --etcd-compaction-interval}); 0 never compacts
     * @param requestTimeout     how long a request waits for etcd before it fails with 504
     */
    public record EtcdProperties(java.util.List<String> endpoints, String prefix, Duration compactionInterval,
                                 Duration requestTimeout) {
        public EtcdProperties {
            endpoints = endpoints == null || endpoints.isEmpty() ? java.util.List.of("http://127.0.0.1:2379")
                    : java.util.List.copyOf(endpoints);
            prefix = prefix == null ? "/registry" : prefix;
            compactionInterval = compactionInterval == null ? Duration.ofMinutes(5) : compactionInterval;
            requestTimeout = requestTimeout == null ? Duration.ofSeconds(10) : requestTimeout;
        }
    }

    /**
     * {@code kuberay-sim.leader-election.*}: with etcd storage several replicas share one store and only the holder
     * of the {@code kube-system/kuberay-sim-controllers} Lease runs the operator and the simulated cluster, as
     * kube-controller-manager's {@code --leader-elect}.
     *
     * @param enabled       elect a leader (default: with {@code storage=etcd}); off runs the controllers at once
     * @param leaseDuration how long a Lease holds without renewal before another replica may take it
     * @param renewDeadline how long the leader keeps trying to renew before it stops its controllers
     * @param retryPeriod   how often replicas try to acquire or renew
     * @param identity      this replica's {@code holderIdentity} (default: {@code kuberay-sim_<random uuid>})
     */
    public record LeaderElectionProperties(Boolean enabled, Duration leaseDuration, Duration renewDeadline,
                                           Duration retryPeriod, String identity) {
        public LeaderElectionProperties {
            leaseDuration = leaseDuration == null ? Duration.ofSeconds(15) : leaseDuration;
            renewDeadline = renewDeadline == null ? Duration.ofSeconds(10) : renewDeadline;
            retryPeriod = retryPeriod == null ? Duration.ofSeconds(2) : retryPeriod;
            identity = identity == null || identity.isBlank() ? "kuberay-sim_" + java.util.UUID.randomUUID() : identity;
        }

        /** Whether replicas elect a leader: as set, otherwise only on a shared (etcd) store. */
        public boolean enabledFor(SimProperties props) {
            return enabled == null ? props.etcdStorage() : enabled;
        }
    }
}
