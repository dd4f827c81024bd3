package io.kuberaysim.sim;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.api.Tolerations;
import io.kuberaysim.apiserver.registry.DeleteOptions;
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
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kube-controller-manager's taint eviction controller: a Pod bound to a Node with NoExecute taints it does not
 * tolerate is deleted at once; one that tolerates them all is deleted when the shortest {@code tolerationSeconds} of
 * the tolerations it uses has passed since the controller saw the taints (a toleration without seconds tolerates for
 * ever). Before deleting it adds the {@code DisruptionTarget} condition (reason {@code DeletionByTaintManager}) and
 * records {@code TaintManagerEviction}; an eviction whose taints go first is cancelled, also with an event.
 */
final class TaintEviction {
    private static final String COMPONENT = "taint-eviction-controller";

    private final KubeClient client;
    private final Clock clock;
    private final SharedInformer pods;
    private final SharedInformer nodes;
    private final EventRecorder events;
    private final Map<String, Instant> since = new ConcurrentHashMap<>(); // pod uid → when its node's taints were first seen

    TaintEviction(ControllerManager manager) {
        this.client = manager.client().as("kube-controller-manager");
        this.clock = manager.clock();
        this.pods = manager.informer(ResourceTypes.PODS);
        this.nodes = manager.informer(ResourceTypes.NODES);
        this.events = manager.legacyEventRecorder(COMPONENT, "kube-controller-manager");
    }

    void register(ControllerManager manager) {
        manager.controller("taint-eviction")
                // a Pod matters once it is bound (and again if its tolerations change); its status writes do not
                .forType(ResourceTypes.PODS, (o, n) -> !n.isDeleting() && (!Objects.equals(nodeName(o), nodeName(n))
                        || !Objects.equals(o.object().path("spec").get("tolerations"),
                        n.object().path("spec").get("tolerations"))))
                .watches(ResourceTypes.NODES, this::podsOn)
                .complete(this::reconcile);
    }

    private static String nodeName(StoredObject pod) {
        return Json.text(pod.object(), "spec", "nodeName");
    }

    /** The Pods on a Node whose NoExecute taints came, or (with evictions pending) may have gone. */
    private List<Request> podsOn(StoredObject node) {
        boolean tainted = false;
        for (JsonNode t : node.object().path("spec").path("taints")) {
            tainted |= Tolerations.NO_EXECUTE.equals(Json.text(t, "effect"));
        }
        if (!tainted && since.isEmpty()) {
            return List.of();
        }
        List<Request> out = new ArrayList<>();
        for (StoredObject p : pods.list(null, null)) {
            if (node.name().equals(Json.text(p.object(), "spec", "nodeName"))) {
                out.add(new Request(p.namespace(), p.name()));
            }
        }
        return out;
    }

    synchronized Result reconcile(Request request) {
        StoredObject pod = client.get(ResourceTypes.PODS, request.namespace(), request.name());
        if (pod == null || pod.isDeleting()) {
            if (pod != null) {
                since.remove(pod.uid());
            }
            return Result.done();
        }
        String nodeName = Json.text(pod.object(), "spec", "nodeName");
        StoredObject node = nodeName == null ? null : nodes.get(null, nodeName);
        List<JsonNode> noExecute = new ArrayList<>();
        if (node != null) {
            for (JsonNode t : node.object().path("spec").path("taints")) {
                if (Tolerations.NO_EXECUTE.equals(Json.text(t, "effect"))) {
                    noExecute.add(t);
                }
            }
        }
        Instant now = clock.now();
        if (noExecute.isEmpty()) {
            if (since.remove(pod.uid()) != null) {
                events.event(pod, EventRecorder.NORMAL, "TaintManagerEviction", "TaintManagerEviction",
                        "Cancelling deletion of Pod " + pod.namespace() + "/" + pod.name());
            }
            return Result.done();
        }
        Duration wait = tolerated(pod, noExecute);
        if (wait == null) {
            return Result.done(); // tolerated for ever
        }
        Instant due = since.computeIfAbsent(pod.uid(), u -> now).plus(wait);
        if (now.isBefore(due)) {
            return Result.requeueAfter(Duration.between(now, due));
        }
        evict(pod, now);
        since.remove(pod.uid());
        return Result.done();
    }

    /**
     * How long the Pod tolerates the taints: zero when one is not tolerated, the shortest {@code tolerationSeconds}
     * of the tolerations used (negative counts as zero), null when none of them has seconds.
     */
    private static Duration tolerated(StoredObject pod, List<JsonNode> taints) {
        JsonNode tolerations = pod.object().path("spec").path("tolerations");
        Duration shortest = null;
        for (JsonNode taint : taints) {
            JsonNode used = Tolerations.matching(tolerations, taint);
            if (used == null) {
                return Duration.ZERO;
            }
            JsonNode seconds = used.get("tolerationSeconds");
            if (seconds != null && seconds.canConvertToLong()) {
                Duration d = Duration.ofSeconds(Math.max(0, seconds.asLong()));
                shortest = shortest == null || d.compareTo(shortest) < 0 ? d : shortest;
            }
        }
        return shortest;
    }

    private void evict(StoredObject pod, Instant now) {
        events.event(pod, EventRecorder.NORMAL, "TaintManagerEviction", "TaintManagerEviction",
                "Marking for deletion Pod " + pod.namespace() + "/" + pod.name());
        ObjectNode patch = Json.object();
        var conditions = patch.putObject("status").putArray("conditions");
        for (JsonNode c : pod.object().path("status").path("conditions")) {
            if (!"DisruptionTarget".equals(Json.text(c, "type"))) {
                conditions.add(c);
            }
        }
        conditions.addObject().put("type", "DisruptionTarget").put("status", "True").putNull("lastProbeTime")
                .put("lastTransitionTime", Timestamps.seconds(now)).put("reason", "DeletionByTaintManager")
                .put("message", "Taint manager: deleting due to NoExecute taint");
        client.patchStatus(ResourceTypes.PODS, pod.namespace(), pod.name(), patch);
        client.delete(ResourceTypes.PODS, pod.namespace(), pod.name(),
                new DeleteOptions(null, null, pod.uid(), null, false, null));
    }
}
