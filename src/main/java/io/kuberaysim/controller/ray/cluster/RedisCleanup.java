package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.api.ray.RayClusterSpec;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.registry.DeleteOptions;
import io.kuberaysim.apiserver.registry.PatchType;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.ray.RayLabels;
import io.kuberaysim.controller.runtime.EventRecorder;
import io.kuberaysim.controller.runtime.OwnerReferences;
import io.kuberaysim.controller.runtime.reconcile.Result;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The Redis cleanup of a RayCluster with GCS fault tolerance on the Redis backend, as KubeRay's reconcile begins:
 * the cluster first gets the {@code ray.io/gcs-ft-redis-cleanup-finalizer}; once it is deleted, its Pods go, then a
 * {@code <cluster>-redis-cleanup} Job (the head Pod's Ray container running {@code cleanup_redis_storage}) deletes its
 * storage namespace, and the finalizer is removed when that Job completes or fails. A cluster that moved to the
 * embedded backend loses a stale finalizer on deletion.
 */
final class RedisCleanup {
    static final String FINALIZER = "ray.io/gcs-ft-redis-cleanup-finalizer";
    static final String NODE_TYPE = "redis-cleanup";
    private static final Duration REQUEUE = RayClusterReconciler.SHORT_REQUEUE;
    /** KubeRay waits this long between checks while the head Pod terminates. */
    private static final Duration HEAD_TERMINATION_POLL = Duration.ofSeconds(10);
    private static final String SCRIPT = "echo \"To get more information about manually deleting the storage namespace "
            + "in Redis and removing the RayCluster's finalizer, please check "
            + "https://docs.ray.io/en/master/cluster/kubernetes/user-guides/kuberay-gcs-ft.html for more details.\" && "
            + "python -c \"from ray._private.gcs_utils import cleanup_redis_storage; from urllib.parse import urlparse; "
            + "import os; import sys; redis_address = os.getenv('RAY_REDIS_ADDRESS', '').split(',')[0]; "
            + "redis_address = redis_address if '://' in redis_address else 'redis://' + redis_address; "
            + "parsed = urlparse(redis_address); sys.exit(1) if not cleanup_redis_storage(host=parsed.hostname, "
            + "port=parsed.port, %spassword=os.getenv('REDIS_PASSWORD', parsed.password or ''), "
            + "use_ssl=parsed.scheme=='rediss', storage_namespace=os.getenv('RAY_external_storage_namespace')) "
            + "else None\"";

    private final KubeClient client;
    private final EventRecorder events;

    RedisCleanup(KubeClient client, EventRecorder events) {
        this.client = client;
        this.events = events;
    }

    /** What the finalizer asks of this pass: a result ends the pass here, empty lets the reconcile go on. */
    Optional<Result> reconcile(StoredObject cluster, RayClusterSpec spec) {
        boolean finalized = cluster.finalizers().contains(FINALIZER);
        if (cluster.isDeleting() && GcsFaultTolerance.embedded(spec) && finalized) {
            setFinalizer(cluster, false);
            return Optional.of(Result.done());
        }
        if (!GcsFaultTolerance.enabled(spec, cluster.annotations()) || GcsFaultTolerance.embedded(spec)) {
            return Optional.empty();
        }
        if (!cluster.isDeleting()) {
            if (finalized) {
                return Optional.empty();
            }
            // only once the finalizer is on does the cluster get its Services and Pods
            setFinalizer(cluster, true);
            return Optional.of(Result.requeueAfter(REQUEUE));
        }
        if (!finalized) {
            return Optional.empty();
        }
        List<StoredObject> heads = deleteAll(cluster, RayLabels.NODE_TYPE_HEAD);
        deleteAll(cluster, RayLabels.NODE_TYPE_WORKER);
        if (!heads.isEmpty()) {
            // the GCS may still write to its storage namespace until the head Pod is gone
            return Optional.of(Result.requeueAfter(HEAD_TERMINATION_POLL));
        }
        List<StoredObject> jobs = client.list(ResourceTypes.JOBS, cluster.namespace(),
                RayLabels.CLUSTER + "=" + cluster.name() + "," + RayLabels.NODE_TYPE + "=" + NODE_TYPE);
        if (!jobs.isEmpty()) {
            if (finished(jobs.get(0))) {
                setFinalizer(cluster, false);
                return Optional.of(Result.done());
            }
            return Optional.of(Result.requeueAfter(REQUEUE));
        }
        ObjectNode job = job(cluster, spec);
        String key = cluster.namespace() + "/" + Json.text(job, "metadata", "name");
        try {
            client.create(ResourceTypes.JOBS, cluster.namespace(), job);
            events.event(cluster, EventRecorder.NORMAL, "CreatedRedisCleanupJob", "Create",
                    "Created Redis cleanup Job " + key);
        } catch (ApiException e) {
            if (e.code() != 409) {
                events.event(cluster, EventRecorder.WARNING, "FailedToCreateRedisCleanupJob", "Create",
                        "Failed to create Redis cleanup Job " + key + ", " + e.getMessage());
            }
        }
        return Optional.of(Result.requeueAfter(REQUEUE));
    }

    /** {@code deleteAllPods}: the Pods of one node type, deleted when any is not terminating yet; all of them. */
    private List<StoredObject> deleteAll(StoredObject cluster, String nodeType) {
        List<StoredObject> pods = client.list(ResourceTypes.PODS, cluster.namespace(),
                RayLabels.CLUSTER + "=" + cluster.name() + "," + RayLabels.NODE_TYPE + "=" + nodeType);
        if (pods.stream().anyMatch(p -> !p.isDeleting())) {
            for (StoredObject p : pods) {
                client.delete(ResourceTypes.PODS, p.namespace(), p.name(), DeleteOptions.DEFAULT);
            }
        }
        return pods;
    }

    private static boolean finished(StoredObject job) {
        for (JsonNode c : job.object().path("status").path("conditions")) {
            String type = Json.text(c, "type");
            if (("Complete".equals(type) || "Failed".equals(type)) && "True".equals(Json.text(c, "status"))) {
                return true;
            }
        }
        return false;
    }

    /** Adds or removes the finalizer with an update conditioned on the version read, as controller-runtime's Update. */
    private void setFinalizer(StoredObject cluster, boolean present) {
        ArrayNode finalizers = Json.MAPPER.createArrayNode();
        cluster.finalizers().stream().filter(f -> !f.equals(FINALIZER)).forEach(finalizers::add);
        if (present) {
            finalizers.add(FINALIZER);
        }
        ObjectNode patch = Json.object();
        ObjectNode meta = patch.putObject("metadata");
        meta.put("resourceVersion", Long.toString(cluster.resourceVersion()));
        meta.set("finalizers", finalizers);
        try {
            client.patch(ResourceTypes.RAYCLUSTERS, cluster.namespace(), cluster.name(), PatchType.MERGE, patch);
        } catch (ApiException e) {
            throw new ReconcileFailure(null, "failed to " + (present ? "add" : "remove") + " the finalizer " + FINALIZER
                    + " to the RayCluster: " + e.getMessage());
        }
    }

    /** {@code buildRedisCleanupJob}: the head Pod's Ray container, running the cleanup script once. */
    static ObjectNode job(StoredObject cluster, RayClusterSpec spec) {
        ObjectNode pod = RayPodFactory.headPod(cluster, spec);
        ObjectNode meta = (ObjectNode) pod.get("metadata");
        ((ObjectNode) meta.get("labels")).put(RayLabels.NODE_TYPE, NODE_TYPE);
        ObjectNode podSpec = (ObjectNode) pod.get("spec");
        ObjectNode ray = (ObjectNode) podSpec.path("containers").get(RayPodFactory.RAY_CONTAINER_INDEX);
        podSpec.putArray("containers").add(ray);
        ray.putArray("command").add("/bin/bash").add("-c").add("--");
        boolean username = ray.path("env").findValues("name").stream()
                .anyMatch(n -> "REDIS_USERNAME".equals(n.asString()));
        ray.putArray("args").add(SCRIPT.formatted(username
                ? "username=os.getenv('REDIS_USERNAME', parsed.username), " : ""));
        ray.remove("livenessProbe");
        ray.remove("readinessProbe");
        ArrayNode env = ray.get("env") instanceof ArrayNode a ? a : ray.putArray("env");
        env.addObject().put("name", "RAY_redis_db_connect_retries").put("value", "120");
        env.addObject().put("name", "RAY_redis_db_connect_wait_milliseconds").put("value", "500");
        ObjectNode resources = ray.putObject("resources");
        resources.putObject("limits").put("cpu", "200m").put("memory", "256Mi");
        resources.putObject("requests").put("cpu", "200m").put("memory", "256Mi");
        podSpec.put("restartPolicy", "Never");

        ObjectNode job = Json.object();
        job.put("apiVersion", "batch/v1").put("kind", "Job");
        ObjectNode jobMeta = job.putObject("metadata");
        jobMeta.put("name", RayLabels.checkLabel(cluster.name() + "-redis-cleanup"))
                .put("namespace", cluster.namespace());
        jobMeta.set("labels", meta.get("labels").deepCopy());
        if (meta.get("annotations") != null) {
            jobMeta.set("annotations", meta.get("annotations").deepCopy());
        }
        jobMeta.putArray("ownerReferences").add(OwnerReferences.controllerReference(cluster));
        ObjectNode jobSpec = job.putObject("spec");
        jobSpec.put("backoffLimit", 0);
        ObjectNode template = jobSpec.putObject("template");
        template.set("metadata", meta);
        template.set("spec", podSpec);
        jobSpec.put("activeDeadlineSeconds", 300); // best effort for five minutes
        return job;
    }
}
