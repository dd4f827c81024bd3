package io.kuberaysim.observability.metrics;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.ray.dashboard.JobState;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.cache.SharedInformer;
import io.kuberaysim.sim.Resources;
import io.kuberaysim.sim.ray.RayDashboard;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import tools.jackson.databind.JsonNode;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The simulated cluster, computed from the informer caches at every scrape: node capacity and allocatable with
 * kube-state-metrics' names and labels ({@code kube_node_status_capacity}, {@code kube_node_status_allocatable}),
 * what the Pods bound to each node request ({@code kuberay_sim_node_allocated}), Pods waiting for a node with
 * kube-scheduler's {@code scheduler_pending_pods{queue}}, and the Ray jobs of the RayJobs that exist by the job
 * status they report ({@code kuberay_sim_ray_jobs}; a job stays counted when its cluster is deleted after it ends).
 * A Pod's requests and a Node's capacity are parsed once per version of the part they come from (the store shares
 * unchanged subtrees between versions), not at every scrape.
 */
public final class SimulationMetrics implements MultiCollector {
    static final String CAPACITY = "kube_node_status_capacity";
    static final String ALLOCATABLE = "kube_node_status_allocatable";
    static final String ALLOCATED = "kuberay_sim_node_allocated";
    static final String PENDING = "scheduler_pending_pods";
    static final String RAY_JOBS = "kuberay_sim_ray_jobs";

    private final SharedInformer nodes;
    private final SharedInformer pods;
    private final SharedInformer rayJobs;
    private final RayDashboard dashboard;
    /** Parsed amounts by the JSON subtree they were parsed from (a Pod's spec, a Node's capacity/allocatable). */
    private final Map<JsonNode, Map<String, BigDecimal>> parsed = new IdentityHashMap<>();

    /** @param dashboard the simulated Ray dashboards, or null when RayJobs are not simulated */
    public SimulationMetrics(ControllerManager manager, RayDashboard dashboard) {
        this.nodes = manager.informer(ResourceTypes.NODES);
        this.pods = manager.informer(ResourceTypes.PODS);
        this.rayJobs = manager.informer(ResourceTypes.RAYJOBS);
        this.dashboard = dashboard;
    }

    @Override
    public synchronized MetricSnapshots collect() {
        Map<JsonNode, Map<String, BigDecimal>> seen = new IdentityHashMap<>();
        GaugeFamily capacity = new GaugeFamily(CAPACITY, "The capacity for different resources of a node.");
        GaugeFamily allocatable = new GaugeFamily(ALLOCATABLE,
                "The allocatable for different resources of a node that are available for scheduling.");
        GaugeFamily allocated = new GaugeFamily(ALLOCATED,
                "What the Pods bound to a node and not terminated request (requests, else limits), per resource.");
        Map<String, Map<String, BigDecimal>> requested = new TreeMap<>();
        int active = 0;
        int unschedulable = 0;
        for (StoredObject pod : pods.list(null, null)) {
            String node = Json.text(pod.object(), "spec", "nodeName");
            String phase = Json.text(pod.object(), "status", "phase");
            boolean terminated = "Succeeded".equals(phase) || "Failed".equals(phase);
            if (node != null && !node.isEmpty()) {
                if (!terminated) {
                    Map<String, BigDecimal> sum = requested.computeIfAbsent(node, n -> new TreeMap<>());
                    amounts(pod.object().get("spec"), seen, () -> Resources.ofPod(pod.object()))
                            .forEach((r, v) -> sum.merge(r, v, BigDecimal::add));
                }
            } else if (!terminated && !pod.isDeleting()) {
                if (unschedulable(pod)) {
                    unschedulable++;
                } else {
                    active++;
                }
            }
        }
        for (StoredObject node : nodes.list(null, null)) {
            JsonNode cap = Json.at(node.object(), "status", "capacity");
            JsonNode alloc = Json.at(node.object(), "status", "allocatable");
            addAll(capacity, node.name(), amounts(cap, seen, () -> Resources.of(cap)));
            addAll(allocatable, node.name(), amounts(alloc, seen, () -> Resources.of(alloc)));
            addAll(allocated, node.name(), requested.getOrDefault(node.name(), Map.of()));
        }
        GaugeFamily pending = new GaugeFamily(PENDING, "Number of pending pods, by the queue type. 'active' means "
                + "number of pods in activeQ; 'backoff' means number of pods in backoffQ; 'unschedulable' means "
                + "number of pods in unschedulablePods that the scheduler attempted to schedule and failed; 'gated' is "
                + "the number of unschedulable pods that the scheduler never attempted to schedule because they are "
                + "gated.")
                .add(active, "queue", "active").add(0, "queue", "backoff")
                .add(unschedulable, "queue", "unschedulable").add(0, "queue", "gated");
        List<MetricSnapshot> families = new ArrayList<>(List.of(
                capacity.build(), allocatable.build(), allocated.build(), pending.build()));
        if (dashboard != null) {
            GaugeFamily jobs = new GaugeFamily(RAY_JOBS,
                    "Ray jobs of the RayJobs that exist, by the job status they report (status.jobStatus).");
            Map<String, Integer> byState = new TreeMap<>();
            for (JobState state : JobState.values()) {
                byState.put(state.name(), 0);
            }
            for (StoredObject job : rayJobs.list(null, null)) {
                String state = Json.text(job.object(), "status", "jobStatus");
                if (state != null && byState.containsKey(state)) {
                    byState.merge(state, 1, Integer::sum);
                }
            }
            byState.forEach((state, n) -> jobs.add(n, "state", state));
            families.add(jobs.build());
        }
        parsed.clear();
        parsed.putAll(seen); // only what still exists stays cached
        return new MetricSnapshots(families);
    }

    /** The amounts parsed from {@code source}, parsed again only when it is a new version of that part. */
    private Map<String, BigDecimal> amounts(JsonNode source, Map<JsonNode, Map<String, BigDecimal>> seen,
                                            java.util.function.Supplier<Resources> parse) {
        if (source == null) {
            return parse.get().asMap();
        }
        Map<String, BigDecimal> known = seen.get(source);
        if (known == null) {
            known = parsed.get(source);
            if (known == null) {
                known = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(parse.get().asMap()));
            }
            seen.put(source, known);
        }
        return known;
    }

    /** Scheduled and failed: {@code PodScheduled=False} with reason {@code Unschedulable}. */
    private static boolean unschedulable(StoredObject pod) {
        for (JsonNode c : pod.object().path("status").path("conditions")) {
            if ("PodScheduled".equals(c.path("type").asString(""))) {
                return "False".equals(c.path("status").asString(""))
                        && "Unschedulable".equals(c.path("reason").asString(""));
            }
        }
        return false;
    }

    /** One data point per resource, labelled as kube-state-metrics labels node resources. */
    private static void addAll(GaugeFamily family, String node, Map<String, BigDecimal> amounts) {
        for (Map.Entry<String, BigDecimal> e : amounts.entrySet()) {
            family.add(e.getValue().doubleValue(), "node", node, "resource", resourceLabel(e.getKey()),
                    "unit", unit(e.getKey()));
        }
    }

    /** kube-state-metrics' form of a resource name: {@code nvidia.com/gpu} → {@code nvidia_com_gpu}. */
    private static String resourceLabel(String resource) {
        return resource.replaceAll("[^a-zA-Z0-9_]", "_");
    }

    private static String unit(String resource) {
        String r = resource.toLowerCase(Locale.ROOT);
        if (r.equals("cpu")) {
            return "core";
        }
        if (r.equals("memory") || r.equals("ephemeral-storage") || r.startsWith("hugepages-")) {
            return "byte";
        }
        return "integer";
    }

    @Override
    public List<String> getPrometheusNames() {
        return dashboard == null ? List.of(CAPACITY, ALLOCATABLE, ALLOCATED, PENDING)
                : List.of(CAPACITY, ALLOCATABLE, ALLOCATED, PENDING, RAY_JOBS);
    }
}
