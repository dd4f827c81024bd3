package io.kuberaysim.controller.ray.job;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.runtime.Controller;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.reconcile.Request;
import io.kuberaysim.controller.runtime.reconcile.Result;
import io.kuberaysim.sim.ray.RayDashboard;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Stand-ins for the RayCluster controller and the kubelet/Job controller, so the RayJob state machine can be tested
 * on its own: a RayCluster gets its head Service and {@code state: ready} 2 s after creation; a submitter Job
 * completes as soon as its Ray job has ended.
 */
final class FakeRayBackend {
    static final Duration CLUSTER_READY_AFTER = Duration.ofSeconds(2);

    private FakeRayBackend() {
    }

    static void register(ControllerManager manager, RayDashboard dashboard) {
        KubeClient client = manager.client();
        manager.controller("fake-raycluster").forType(ResourceTypes.RAYCLUSTERS).complete(req -> {
            StoredObject rc = client.get(ResourceTypes.RAYCLUSTERS, req.namespace(), req.name());
            if (rc == null || rc.isDeleting() || "ready".equals(Json.text(rc.object(), "status", "state"))) {
                return Result.done();
            }
            Instant created = Instant.parse(Json.text(rc.object(), "metadata", "creationTimestamp"));
            Duration wait = Duration.between(manager.clock().now(), created.plus(CLUSTER_READY_AFTER));
            if (!wait.isNegative() && !wait.isZero()) {
                return Result.requeueAfter(wait);
            }
            String svc = rc.name() + "-head-svc";
            if (client.get(ResourceTypes.SERVICES, rc.namespace(), svc) == null) {
                ObjectNode s = Json.object();
                s.put("apiVersion", "v1").put("kind", "Service");
                ObjectNode meta = s.putObject("metadata");
                meta.put("name", svc).put("namespace", rc.namespace());
                meta.putArray("ownerReferences").add(RayJobReconciler.controllerRef(rc));
                ObjectNode spec = s.putObject("spec");
                spec.put("clusterIP", "None");
                spec.putObject("selector").put("ray.io/cluster", rc.name()).put("ray.io/node-type", "head");
                spec.putArray("ports").addObject().put("name", "dashboard").put("port", 8265);
                client.create(ResourceTypes.SERVICES, rc.namespace(), s);
            }
            ObjectNode copy = rc.copy();
            copy.putObject("status").put("state", "ready").put("desiredWorkerReplicas", 1);
            client.updateStatus(ResourceTypes.RAYCLUSTERS, copy);
            return Result.done();
        });
        Controller jobs = manager.controller("fake-submitter").forType(ResourceTypes.JOBS).complete(req -> {
            StoredObject job = client.get(ResourceTypes.JOBS, req.namespace(), req.name());
            if (job == null || Json.at(job.object(), "status", "conditions") != null) {
                return Result.done();
            }
            var podSpec = Json.at(job.object(), "spec", "template", "spec");
            String address = SubmitterJobFactory.env(podSpec, SubmitterJobFactory.ENV_DASHBOARD_ADDRESS);
            String id = SubmitterJobFactory.env(podSpec, SubmitterJobFactory.ENV_SUBMISSION_ID);
            RayDashboard.ClusterKey key = RayDashboard.parseAddress(address).orElseThrow();
            var details = dashboard.status(key, id);
            if (details.isEmpty()) {
                StoredObject rj = client.get(ResourceTypes.RAYJOBS, req.namespace(), req.name());
                var rayJob = KubeClient.read(rj.object(), io.kuberaysim.api.ray.RayJob.class);
                dashboard.submit(key, id, rayJob.spec().entrypoint(), RayJobReconciler.submissionMetadata(rayJob),
                        null);
                return Result.done();
            }
            if (details.get().status().terminal()) {
                ObjectNode copy = job.copy();
                ObjectNode st = copy.putObject("status");
                st.putArray("conditions").addObject().put("type", "Complete").put("status", "True")
                        .put("lastTransitionTime", manager.clock().now().toString());
                st.put("succeeded", 1);
                client.updateStatus(ResourceTypes.JOBS, copy);
            }
            return Result.done();
        });
        dashboard.addListener((cluster, job) -> {
            for (StoredObject j : manager.informer(ResourceTypes.JOBS).list(cluster.namespace(), Map.of())) {
                jobs.enqueue(new Request(j.namespace(), j.name()));
            }
        });
    }

    static List<String> names(List<StoredObject> objects) {
        return objects.stream().map(StoredObject::name).toList();
    }
}
