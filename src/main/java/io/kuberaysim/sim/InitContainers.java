package io.kuberaysim.sim;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.runtime.cache.SharedInformer;
import io.kuberaysim.controller.runtime.clock.Timestamps;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A Pod's init containers as the kubelet runs them: one after the other once the sandbox is up, each done when it
 * exits 0. No process runs, so an init container is done at once, except KubeRay's {@code wait-gcs-ready}: it
 * polls the GCS of its cluster, so here it is done once the cluster's head Pod is Running and Ready.
 */
final class InitContainers {
    static final String WAIT_GCS_READY = "wait-gcs-ready";
    private static final String CLUSTER_LABEL = "ray.io/cluster";
    private static final String NODE_TYPE_LABEL = "ray.io/node-type";

    private final SharedInformer pods;

    InitContainers(SharedInformer pods) {
        this.pods = pods;
    }

    static List<JsonNode> of(StoredObject pod) {
        List<JsonNode> out = new ArrayList<>();
        pod.object().path("spec").path("initContainers").forEach(out::add);
        return out;
    }

    /** How many init containers, in order, are done (or may finish now). */
    int done(StoredObject pod) {
        int n = 0;
        for (JsonNode c : of(pod)) {
            if (!canFinish(pod, c)) {
                break;
            }
            n++;
        }
        return n;
    }

    private boolean canFinish(StoredObject pod, JsonNode container) {
        String cluster = pod.labels().get(CLUSTER_LABEL);
        if (!WAIT_GCS_READY.equals(Json.text(container, "name")) || cluster == null) {
            return true;
        }
        for (StoredObject p : pods.list(pod.namespace(), java.util.Map.of(CLUSTER_LABEL, cluster))) {
            if (cluster.equals(p.labels().get(CLUSTER_LABEL)) && "head".equals(p.labels().get(NODE_TYPE_LABEL))
                    && !p.isDeleting() && "Running".equals(Json.text(p.object(), "status", "phase"))
                    && ready(p)) {
                return true;
            }
        }
        return false;
    }

    private static boolean ready(StoredObject pod) {
        for (JsonNode c : pod.object().path("status").path("conditions")) {
            if ("Ready".equals(Json.text(c, "type"))) {
                return "True".equals(Json.text(c, "status"));
            }
        }
        return false;
    }

    /** The worker Pods of a head Pod's cluster: their {@code wait-gcs-ready} may finish when the head changes. */
    List<StoredObject> waitingOn(StoredObject head) {
        String cluster = head.labels().get(CLUSTER_LABEL);
        if (cluster == null || !"head".equals(head.labels().get(NODE_TYPE_LABEL))) {
            return List.of();
        }
        List<StoredObject> out = new ArrayList<>();
        for (StoredObject p : pods.list(head.namespace(), java.util.Map.of(CLUSTER_LABEL, cluster))) {
            if (cluster.equals(p.labels().get(CLUSTER_LABEL)) && !of(p).isEmpty()) {
                out.add(p);
            }
        }
        return out;
    }

    /**
     * {@code status.initContainerStatuses}: the first {@code done} terminated (Completed), the next running since
     * {@code startedAt} (when {@code started}), the rest waiting (PodInitializing).
     */
    static ArrayNode statuses(StoredObject pod, int done, boolean started, Instant startedAt, Instant finishedAt) {
        ArrayNode out = Json.MAPPER.createArrayNode();
        int i = 0;
        for (JsonNode c : of(pod)) {
            ObjectNode s = out.addObject();
            String name = Json.text(c, "name");
            String image = Json.text(c, "image");
            boolean ran = i < done || (i == done && started);
            // the kubelet always reports imageID (empty until pulled), and a containerID once the container exists
            s.put("name", name).put("image", image).put("imageID", ran ? ContainerIdentities.imageId(image) : "");
            String containerId = ran ? ContainerIdentities.containerId(pod.uid(), name, 0) : null;
            if (containerId != null) {
                s.put("containerID", containerId);
            }
            ObjectNode state = s.putObject("state");
            if (i < done) {
                state.putObject("terminated").put("exitCode", 0).put("reason", "Completed")
                        .put("startedAt", ts(startedAt)).put("finishedAt", ts(finishedAt))
                        .put("containerID", containerId);
                s.put("ready", true).put("restartCount", 0).put("started", false);
            } else if (ran) {
                state.putObject("running").put("startedAt", ts(startedAt));
                s.put("ready", false).put("restartCount", 0).put("started", true);
            } else {
                state.putObject("waiting").put("reason", "PodInitializing");
                s.put("ready", false).put("restartCount", 0).put("started", false);
            }
            s.putObject("lastState");
            i++;
        }
        return out;
    }

    /** {@code [a b]}: the names of the init containers from {@code from} on, as the kubelet lists them. */
    static String remaining(StoredObject pod, int from) {
        List<String> names = new ArrayList<>();
        List<JsonNode> all = of(pod);
        for (int i = from; i < all.size(); i++) {
            names.add(Json.text(all.get(i), "name"));
        }
        return "[" + String.join(" ", names) + "]";
    }

    private static String ts(Instant t) {
        return Timestamps.seconds(t);
    }
}
