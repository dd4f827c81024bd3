package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.DeleteOptions;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.UpdatePredicate;
import io.kuberaysim.controller.runtime.cache.SharedInformer;
import io.kuberaysim.controller.runtime.reconcile.Result;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * A minimal stand-in for the simulated scheduler and kubelet, for these tests only: one node of
 * {@code cpuCapacity} cores; a Pod that fits is bound at once and becomes Running and Ready
 * {@link #STARTUP} later; one that does not stays Pending with PodScheduled=False/Unschedulable; a Pod being
 * deleted is finished at once.
 */
final class TestKubelet {
    static final Duration STARTUP = Duration.ofSeconds(2);

    private final KubeClient client;
    private final SharedInformer pods;
    private final BigDecimal capacity;
    private final Map<String, Instant> boundAt = new HashMap<>();
    private int ip = 10;

    TestKubelet(ControllerManager manager, int cpuCapacity) {
        this.client = manager.client();
        this.pods = manager.informer(ResourceTypes.PODS);
        this.capacity = BigDecimal.valueOf(cpuCapacity);
        manager.controller("test-kubelet").forType(ResourceTypes.PODS, UpdatePredicate.ALWAYS).complete(req -> {
            StoredObject pod = pods.get(req.namespace(), req.name());
            if (pod == null) {
                return Result.done();
            }
            return handle(pod, manager.clock().now());
        });
    }

    private Result handle(StoredObject pod, Instant now) {
        String key = pod.namespace() + "/" + pod.name();
        if (pod.isDeleting()) {
            client.delete(ResourceTypes.PODS, pod.namespace(), pod.name(), DeleteOptions.immediate());
            boundAt.remove(key);
            return Result.done();
        }
        String phase = Json.text(pod.object(), "status", "phase");
        if (!"Pending".equals(phase)) {
            return Result.done();
        }
        if (Json.text(pod.object(), "spec", "nodeName") == null) {
            if (cpu(pod.object()).add(used()).compareTo(capacity) > 0) {
                if (!"False".equals(Json.text(pod.object().path("status").path("conditions").path(0), "status"))) {
                    ObjectNode o = pod.copy();
                    ObjectNode c = ((ObjectNode) o.get("status")).putArray("conditions").addObject();
                    c.put("type", "PodScheduled").put("status", "False").put("reason", "Unschedulable")
                            .put("message", "0/1 nodes are available: 1 Insufficient cpu.");
                    client.updateStatus(ResourceTypes.PODS, o);
                }
                return Result.done();
            }
            ObjectNode o = pod.copy();
            ((ObjectNode) o.get("spec")).put("nodeName", "node-1");
            client.update(ResourceTypes.PODS, o);
            boundAt.put(key, now);
            return Result.requeueAfter(STARTUP);
        }
        Instant due = boundAt.getOrDefault(key, now).plus(STARTUP);
        if (now.isBefore(due)) {
            return Result.requeueAfter(Duration.between(now, due));
        }
        ObjectNode o = pod.copy();
        ObjectNode status = (ObjectNode) o.get("status");
        status.put("phase", "Running");
        status.put("podIP", "10.244.0." + ip++);
        var conds = status.putArray("conditions");
        for (String t : new String[] {"PodScheduled", "Initialized", "ContainersReady", "Ready"}) {
            conds.addObject().put("type", t).put("status", "True");
        }
        var cs = status.putArray("containerStatuses");
        for (JsonNode c : o.path("spec").path("containers")) {
            ObjectNode s = cs.addObject();
            s.put("name", Json.text(c, "name"));
            s.put("ready", true);
            s.putObject("state").putObject("running");
        }
        client.updateStatus(ResourceTypes.PODS, o);
        return Result.done();
    }

    private BigDecimal used() {
        BigDecimal sum = BigDecimal.ZERO;
        for (StoredObject p : pods.list(null, Map.of())) {
            if (Json.text(p.object(), "spec", "nodeName") != null && !p.isDeleting()) {
                sum = sum.add(cpu(p.object()));
            }
        }
        return sum;
    }

    private static BigDecimal cpu(JsonNode pod) {
        BigDecimal sum = BigDecimal.ZERO;
        for (JsonNode c : pod.path("spec").path("containers")) {
            String q = Json.text(c, "resources", "requests", "cpu");
            if (q != null) {
                sum = sum.add(ResourceQuantities.amount(q));
            }
        }
        return sum;
    }
}
