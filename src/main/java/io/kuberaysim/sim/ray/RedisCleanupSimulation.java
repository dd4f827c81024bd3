package io.kuberaysim.sim.ray;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.PatchType;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.ray.RayLabels;
import io.kuberaysim.controller.runtime.Controller;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.reconcile.Reconciler;
import io.kuberaysim.controller.runtime.reconcile.Request;
import io.kuberaysim.controller.runtime.reconcile.Result;
import io.kuberaysim.sim.SimulationSettings;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * What the container of KubeRay's Redis cleanup Job does: {@code cleanup_redis_storage} deletes the cluster's storage
 * namespace and exits 0 after a second of running. There is no Redis here, so the cleanup always succeeds. As for the
 * submitter, the exit goes through the simulated kubelet: the Pod gets {@code sim.kuberay.io/run-seconds: "1"} and
 * {@code exit-code: "0"} once it runs (annotations a user set on the head template are left as they are).
 */
final class RedisCleanupSimulation implements Reconciler {
    private static final String NODE_TYPE = "redis-cleanup";

    private final KubeClient client;

    private RedisCleanupSimulation(KubeClient client) {
        this.client = client;
    }

    static Controller register(ControllerManager manager) {
        return manager.controller("ray-redis-cleanup-sim")
                .watches(ResourceTypes.PODS, pod -> NODE_TYPE.equals(pod.labels().get(RayLabels.NODE_TYPE))
                        ? List.of(new Request(pod.namespace(), pod.name())) : List.of())
                .complete(new RedisCleanupSimulation(manager.client()));
    }

    @Override
    public Result reconcile(Request request) {
        StoredObject pod = client.get(ResourceTypes.PODS, request.namespace(), request.name());
        if (pod == null || pod.isDeleting() || !NODE_TYPE.equals(pod.labels().get(RayLabels.NODE_TYPE))
                || !"Running".equals(Json.text(pod.object(), "status", "phase"))
                || pod.metadata().path("annotations").has(SimulationSettings.RUN_SECONDS)) {
            return Result.done();
        }
        ObjectNode patch = Json.object();
        patch.putObject("metadata").putObject("annotations").put(SimulationSettings.RUN_SECONDS, "1")
                .put(SimulationSettings.EXIT_CODE, "0");
        client.patch(ResourceTypes.PODS, pod.namespace(), pod.name(), PatchType.MERGE, patch);
        return Result.done();
    }
}
