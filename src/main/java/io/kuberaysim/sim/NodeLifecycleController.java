package io.kuberaysim.sim;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.api.Tolerations;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.EventRecorder;
import io.kuberaysim.controller.runtime.cache.SharedInformer;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.clock.Timestamps;
import io.kuberaysim.controller.runtime.reconcile.Request;
import io.kuberaysim.controller.runtime.reconcile.Result;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

/**
 * kube-controller-manager's node lifecycle controller, for what the simulated Nodes need: a Node whose {@code Ready}
 * condition is False gets the {@code node.kubernetes.io/not-ready} taints, one whose condition is Unknown (its kubelet
 * stopped posting) the {@code node.kubernetes.io/unreachable} ones, each with effect NoSchedule and NoExecute (the
 * latter stamped with {@code timeAdded}); they go when the Node is Ready again. When it taints a Node unreachable, the
 * Pods on it get {@code Ready=False} and a {@code NodeNotReady} Warning, as its MarkPodsNotReady does. The taint
 * eviction controller ({@link TaintEviction}) then deletes the Pods whose tolerations run out. A Node without a
 * {@code Ready} condition is left alone (kube waits out a startup grace period, then treats it as Unknown).
 */
final class NodeLifecycleController {
    private final KubeClient client;
    private final Clock clock;
    private final SharedInformer pods;
    private final EventRecorder events;

    NodeLifecycleController(ControllerManager manager) {
        this.client = manager.client().as("kube-controller-manager");
        this.clock = manager.clock();
        this.pods = manager.informer(ResourceTypes.PODS);
        this.events = manager.legacyEventRecorder("node-controller", "kube-controller-manager");
    }

    void register(ControllerManager manager) {
        manager.controller("node-lifecycle").forType(ResourceTypes.NODES).complete(this::reconcile);
    }

    Result reconcile(Request request) {
        StoredObject node = client.get(ResourceTypes.NODES, null, request.name());
        if (node == null || node.isDeleting()) {
            return Result.done();
        }
        JsonNode ready = Scheduler.condition(node, "Ready");
        if (ready == null) {
            return Result.done();
        }
        String status = Json.text(ready, "status");
        String key = "True".equals(status) ? null : "False".equals(status) ? Tolerations.NOT_READY
                : Tolerations.UNREACHABLE;
        JsonNode taints = node.object().path("spec").path("taints");
        ArrayNode next = Json.MAPPER.createArrayNode();
        boolean changed = false;
        boolean hasNoSchedule = false;
        boolean hasNoExecute = false;
        for (JsonNode t : taints) {
            String k = Json.text(t, "key");
            boolean ours = Tolerations.NOT_READY.equals(k) || Tolerations.UNREACHABLE.equals(k);
            if (ours && !k.equals(key)) {
                changed = true; // the other condition's taint, or the Node is Ready again
                continue;
            }
            if (ours) {
                hasNoSchedule |= Tolerations.NO_SCHEDULE.equals(Json.text(t, "effect"));
                hasNoExecute |= Tolerations.NO_EXECUTE.equals(Json.text(t, "effect"));
            }
            next.add(t);
        }
        if (key != null && !hasNoSchedule) {
            next.addObject().put("key", key).put("effect", Tolerations.NO_SCHEDULE);
            changed = true;
        }
        boolean newlyUnreachable = false;
        if (key != null && !hasNoExecute) {
            next.addObject().put("key", key).put("effect", Tolerations.NO_EXECUTE)
                    .put("timeAdded", Timestamps.seconds(clock.now()));
            changed = true;
            newlyUnreachable = key.equals(Tolerations.UNREACHABLE);
        }
        if (!changed) {
            return Result.done();
        }
        ObjectNode updated = node.copy();
        ObjectNode spec = Json.child(updated, "spec");
        if (next.isEmpty()) {
            spec.remove("taints");
        } else {
            spec.set("taints", next);
        }
        client.update(ResourceTypes.NODES, updated);
        if (newlyUnreachable) {
            markPodsNotReady(node.name());
        }
        return Result.done();
    }

    /** Ready=False on the Pods bound to the Node, as nobody will report them while its kubelet is silent. */
    private void markPodsNotReady(String nodeName) {
        List<StoredObject> on = new ArrayList<>();
        for (StoredObject p : pods.list(null, null)) {
            if (nodeName.equals(Json.text(p.object(), "spec", "nodeName"))) {
                on.add(p);
            }
        }
        String now = Timestamps.seconds(clock.now());
        for (StoredObject listed : on) {
            StoredObject p = client.get(ResourceTypes.PODS, listed.namespace(), listed.name());
            JsonNode ready = p == null ? null : Scheduler.condition(p, "Ready");
            if (ready == null || !"True".equals(Json.text(ready, "status"))) {
                continue;
            }
            ObjectNode patch = Json.object();
            ArrayNode conditions = patch.putObject("status").putArray("conditions");
            for (JsonNode c : p.object().path("status").path("conditions")) {
                if (c instanceof ObjectNode o && "Ready".equals(Json.text(c, "type"))) {
                    conditions.add(o.deepCopy().put("status", "False").put("lastTransitionTime", now));
                } else {
                    conditions.add(c);
                }
            }
            client.patchStatus(ResourceTypes.PODS, p.namespace(), p.name(), patch);
            events.event(p, EventRecorder.WARNING, "NodeNotReady", "NodeNotReady", "Node is not ready");
        }
    }
}
