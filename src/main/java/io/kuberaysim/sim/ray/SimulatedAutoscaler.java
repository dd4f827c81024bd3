package io.kuberaysim.sim.ray;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.api.ray.RayClusterSpec;
import io.kuberaysim.api.ray.WorkerGroupSpec;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.registry.PatchType;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.ray.RayLabels;
import io.kuberaysim.controller.ray.cluster.RayClusterViews;
import io.kuberaysim.controller.runtime.Controller;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.EventRecorder;
import io.kuberaysim.controller.runtime.UpdatePredicate;
import io.kuberaysim.controller.runtime.cache.SharedInformer;
import io.kuberaysim.controller.runtime.reconcile.Reconciler;
import io.kuberaysim.controller.runtime.reconcile.Request;
import io.kuberaysim.controller.runtime.reconcile.Result;
import io.kuberaysim.logging.LogValues;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Stands in for the Ray autoscaler sidecar of clusters with {@code enableInTreeAutoscaling}. Ray's resource
 * demand is replaced by the annotation {@value RayLabels#AUTOSCALER_DEMAND} ({@code {"group": workers}}); the
 * wanted number is clamped to [minReplicas, maxReplicas] and written like the real autoscaler does
 * ({@code ray/autoscaler/_private/kuberay/node_provider.py}): a JSON patch of {@code replicas}, and on scale-down
 * also {@code scaleStrategy.workersToDelete} naming the Pods to remove (the highest indices). Once those Pods are
 * gone it clears {@code workersToDelete}. Like the sidecar it only acts while the head Pod is running.
 */
public final class SimulatedAutoscaler implements Reconciler {
    /** Controller name and event component. */
    public static final String NAME = "raycluster-autoscaler";
    /** How often the sidecar looks again while something is pending (Ray's AUTOSCALER_UPDATE_INTERVAL_S). */
    public static final Duration POLL = Duration.ofSeconds(5);

    private static final Logger log = LoggerFactory.getLogger(SimulatedAutoscaler.class);

    private final KubeClient client;
    private final SharedInformer clusters;
    private final SharedInformer pods;
    private final EventRecorder events;

    public SimulatedAutoscaler(ControllerManager manager) {
        this.client = manager.client();
        this.clusters = manager.informer(ResourceTypes.RAYCLUSTERS);
        this.pods = manager.informer(ResourceTypes.PODS);
        this.events = manager.eventRecorder(NAME);
    }

    /** Registers the autoscaler: For RayCluster (spec, label, annotation changes), Owns Pod. */
    public static Controller register(ControllerManager manager) {
        return manager.controller(NAME)
                .forType(ResourceTypes.RAYCLUSTERS, UpdatePredicate.GENERATION_LABELS_OR_ANNOTATIONS_CHANGED)
                .owns(ResourceTypes.PODS)
                .complete(new SimulatedAutoscaler(manager));
    }

    @Override
    public Result reconcile(Request request) {
        StoredObject cluster = clusters.get(request.namespace(), request.name());
        if (cluster == null || cluster.isDeleting()) {
            return Result.done();
        }
        if (!cluster.object().path("spec").path("enableInTreeAutoscaling").asBoolean(false)) {
            return Result.done(); // not ours: whether the rest of the spec reads is the operator's business
        }
        RayClusterSpec spec = RayClusterViews.spec(cluster);
        if (spec == null || !Boolean.TRUE.equals(spec.enableInTreeAutoscaling()) || spec.suspended()) {
            return Result.done();
        }
        StoredObject head = pods.get(cluster.namespace(), RayLabels.headPodName(cluster.name()));
        if (head == null || !"Running".equals(Json.text(head.object(), "status", "phase"))) {
            return Result.requeueAfter(POLL);
        }
        Map<String, Integer> demand = demand(cluster);
        ArrayNode patch = Json.MAPPER.createArrayNode();
        boolean pending = false;
        List<WorkerGroupSpec> groups = spec.workerGroups();
        for (int i = 0; i < groups.size(); i++) {
            pending |= planGroup(cluster, groups.get(i), "/spec/workerGroupSpecs/" + i, demand, patch);
        }
        if (!patch.isEmpty()) {
            try {
                client.patch(ResourceTypes.RAYCLUSTERS, cluster.namespace(), cluster.name(), PatchType.JSON, patch);
            } catch (ApiException e) {
                log.info("Autoscaler patch of {}/{} failed: {}", cluster.namespace(), cluster.name(),
                        LogValues.escape(e.getMessage()));
                return Result.requeueAfter(POLL);
            }
        }
        return pending ? Result.requeueAfter(POLL) : Result.done();
    }

    /**
     * Adds the JSON patch operations that bring group {@code g} (at {@code base}) to its demand; true while Pods the
     * operator has still to remove keep the group from settling.
     */
    private boolean planGroup(StoredObject cluster, WorkerGroupSpec g, String base, Map<String, Integer> demand,
            ArrayNode patch) {
        List<String> toDelete = g.scaleStrategy() == null || g.scaleStrategy().workersToDelete() == null
                ? List.of() : g.scaleStrategy().workersToDelete();
        List<StoredObject> groupPods = pods.list(cluster.namespace(), Map.of(RayLabels.CLUSTER, cluster.name(),
                RayLabels.GROUP, g.groupName(), RayLabels.NODE_TYPE, RayLabels.NODE_TYPE_WORKER));
        Set<String> existing = groupPods.stream().map(StoredObject::name).collect(Collectors.toSet());
        if (!toDelete.isEmpty()) {
            if (toDelete.stream().anyMatch(existing::contains)) {
                return true; // wait for the operator to remove them
            }
            patch.addObject().put("op", "test").put("path", base + "/groupName").put("value", g.groupName());
            patch.addObject().put("op", "replace").put("path", base + "/scaleStrategy/workersToDelete")
                    .set("value", Json.MAPPER.createArrayNode());
        }
        Integer wanted = demand.get(g.groupName());
        if (wanted == null) {
            return false;
        }
        int target = Math.max(g.minReplicasOrDefault(), Math.min(g.maxReplicasOrDefault(), wanted));
        int current = g.replicasOrZero();
        if (target == current) {
            return false;
        }
        patch.addObject().put("op", "test").put("path", base + "/groupName").put("value", g.groupName());
        patch.addObject().put("op", g.replicas() == null ? "add" : "replace").put("path", base + "/replicas")
                .put("value", target);
        boolean pending = false;
        if (target < current) {
            List<String> victims = victims(cluster, g, groupPods, (long) target * g.numOfHostsOrDefault());
            if (!victims.isEmpty()) {
                ArrayNode names = Json.MAPPER.createArrayNode();
                victims.forEach(names::add);
                if (g.scaleStrategy() == null) {
                    patch.addObject().put("op", "add").put("path", base + "/scaleStrategy")
                            .putObject("value").set("workersToDelete", names);
                } else {
                    patch.addObject().put("op", "add").put("path", base + "/scaleStrategy/workersToDelete")
                            .set("value", names);
                }
                pending = true;
            }
        }
        log.info("Autoscaler: RayCluster {}/{} group {} replicas {} -> {}", cluster.namespace(), cluster.name(),
                LogValues.escape(g.groupName()), current, target);
        return pending;
    }

    /** The live Pods beyond {@code keep}, highest worker index first. */
    private static List<String> victims(StoredObject cluster, WorkerGroupSpec g, List<StoredObject> groupPods,
            long keep) {
        List<StoredObject> live = groupPods.stream().filter(p -> !p.isDeleting()).toList();
        return live.stream()
                .sorted(Comparator.comparing((StoredObject p) -> {
                    Integer idx = RayLabels.workerIndex(cluster.name(), g.groupName(), p.name());
                    return idx == null ? Integer.MAX_VALUE : idx;
                }).reversed())
                .limit(Math.max(0, live.size() - keep))
                .map(StoredObject::name)
                .toList();
    }

    private Map<String, Integer> demand(StoredObject cluster) {
        String text = cluster.annotations().get(RayLabels.AUTOSCALER_DEMAND);
        if (text == null || text.isBlank()) {
            return Map.of();
        }
        try {
            JsonNode n = Json.MAPPER.readTree(text);
            if (!n.isObject()) {
                throw new IllegalArgumentException("not a JSON object");
            }
            Map<String, Integer> m = new java.util.LinkedHashMap<>();
            for (var e : n.properties()) {
                if (!e.getValue().canConvertToInt() || e.getValue().asInt() < 0) {
                    throw new IllegalArgumentException("worker count of " + e.getKey() + " is not a non-negative integer");
                }
                m.put(e.getKey(), e.getValue().asInt());
            }
            return m;
        } catch (JacksonException | IllegalArgumentException e) {
            events.event(cluster, EventRecorder.WARNING, "InvalidAutoscalerDemand", "Autoscale",
                    "Annotation " + RayLabels.AUTOSCALER_DEMAND + " must be a JSON map of worker group to worker "
                            + "count, e.g. {\"small-wg\": 3}: " + e.getMessage());
            return Map.of();
        }
    }
}
