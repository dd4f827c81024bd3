package io.kuberaysim.controller.ray.service;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.reconcile.Request;
import io.kuberaysim.controller.runtime.reconcile.Result;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.time.Instant;

/**
 * A stand-in for the RayCluster controller and the kubelet, just enough for RayService tests: a head Pod
 * {@code <cluster>-head} and each group's workers, Running and Ready {@link #READY_AFTER} after creation, and the
 * cluster's {@code state: ready} with HeadPodReady once they all run.
 */
final class FakeRayClusters {
    static final Duration READY_AFTER = Duration.ofSeconds(2);

    private FakeRayClusters() {
    }

    static void register(ControllerManager m) {
        KubeClient client = m.client();
        m.controller("fake-raycluster").forType(ResourceTypes.RAYCLUSTERS).owns(ResourceTypes.PODS)
                .complete(req -> reconcile(client, m.clock().now(), req));
    }

    private static Result reconcile(KubeClient client, Instant now, Request req) {
        StoredObject rc = client.get(ResourceTypes.RAYCLUSTERS, req.namespace(), req.name());
        if (rc == null || rc.isDeleting()) {
            return Result.done();
        }
        boolean allReady = true;
        boolean headReady = false;
        Duration wait = null;
        JsonNode spec = rc.object().get("spec");
        int expected = 1;
        allReady &= ensure(client, now, rc, rc.name() + "-head", "head", "headgroup", Json.at(spec, "headGroupSpec", "template"));
        StoredObject head = client.get(ResourceTypes.PODS, rc.namespace(), rc.name() + "-head");
        JsonNode groups = spec.get("workerGroupSpecs");
        if (groups != null) {
            for (JsonNode g : groups) {
                int replicas = g.path("replicas").asInt(0);
                for (int i = 0; i < replicas; i++) {
                    expected++;
                    allReady &= ensure(client, now, rc, rc.name() + "-" + Json.text(g, "groupName") + "-worker-" + i,
                            "worker", Json.text(g, "groupName"), Json.at(g, "template"));
                }
            }
        }
        headReady = head != null && "Running".equals(Json.text(head.object(), "status", "phase"));
        if (!allReady) {
            wait = READY_AFTER;
        }
        ObjectNode status = rc.object().has("status") ? ((ObjectNode) rc.object().get("status")).deepCopy() : Json.object();
        if (allReady) {
            status.put("state", "ready");
        }
        ObjectNode cond = Json.object();
        cond.put("type", "HeadPodReady");
        cond.put("status", headReady ? "True" : "False");
        cond.put("reason", headReady ? "HeadPodRunningAndReady" : "ContainersNotReady");
        cond.put("message", "");
        cond.put("lastTransitionTime", now.toString());
        JsonNode old = Json.at(status, "conditions");
        if (old == null || !Json.text(old.get(0), "status").equals(cond.get("status").asString())) {
            status.putArray("conditions").add(cond);
        }
        status.put("desiredWorkerReplicas", expected - 1);
        if (!status.equals(rc.object().get("status"))) {
            ObjectNode copy = rc.copy();
            copy.set("status", status);
            client.updateStatus(ResourceTypes.RAYCLUSTERS, copy);
        }
        return wait == null ? Result.done() : Result.requeueAfter(wait);
    }

    /** Creates the Pod when missing; marks it Running and Ready once old enough. True when it is ready. */
    private static boolean ensure(KubeClient client, Instant now, StoredObject rc, String name, String type, String group,
                                  JsonNode template) {
        StoredObject pod = client.get(ResourceTypes.PODS, rc.namespace(), name);
        if (pod == null) {
            ObjectNode p = Json.object();
            p.put("apiVersion", "v1");
            p.put("kind", "Pod");
            ObjectNode meta = p.putObject("metadata");
            meta.put("name", name);
            ObjectNode labels = meta.putObject("labels");
            JsonNode tl = Json.at(template, "metadata", "labels");
            if (tl != null) {
                tl.properties().forEach(e -> labels.set(e.getKey(), e.getValue()));
            }
            labels.put("ray.io/cluster", rc.name());
            labels.put("ray.io/node-type", type);
            labels.put("ray.io/group", group);
            labels.put("ray.io/identifier", rc.name() + "-" + type);
            labels.put("app.kubernetes.io/name", "kuberay");
            labels.put("app.kubernetes.io/created-by", "kuberay-operator");
            ObjectNode ref = meta.putArray("ownerReferences").addObject();
            ref.put("apiVersion", "ray.io/v1").put("kind", "RayCluster").put("name", rc.name()).put("uid", rc.uid())
                    .put("controller", true).put("blockOwnerDeletion", true);
            p.set("spec", Json.at(template, "spec").deepCopy());
            client.create(ResourceTypes.PODS, rc.namespace(), p);
            return false;
        }
        if ("Running".equals(Json.text(pod.object(), "status", "phase"))) {
            return true;
        }
        Instant created = Instant.parse(Json.text(pod.object(), "metadata", "creationTimestamp"));
        if (Duration.between(created, now).compareTo(READY_AFTER) < 0) {
            return false;
        }
        ObjectNode copy = pod.copy();
        ObjectNode st = copy.putObject("status");
        st.put("phase", "Running");
        st.putArray("conditions").addObject().put("type", "Ready").put("status", "True");
        client.updateStatus(ResourceTypes.PODS, copy);
        return true;
    }

}
