package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ray.RayClusterSpec;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.ray.RayLabels;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * GCS fault tolerance as KubeRay writes it into the Pods ({@code configureGCSFaultTolerance}, Redis backend): on
 * with {@code spec.gcsFaultToleranceOptions} or the legacy {@code ray.io/ft-enabled: "true"} annotation; the head
 * gets the Redis address, credentials (referred to as {@code $REDIS_PASSWORD}/{@code $REDIS_USERNAME} in
 * {@code ray start}) and the external storage namespace, workers wait 600 s for a restarted GCS. The embedded
 * RocksDB backend (a PersistentVolumeClaim) is not simulated.
 */
final class GcsFaultTolerance {
    static final String STORAGE_NAMESPACE = "ray.io/external-storage-namespace";
    private static final String RECONNECT_TIMEOUT_ENV = "RAY_gcs_rpc_server_reconnect_timeout_s";
    private static final String WORKER_RECONNECT_TIMEOUT = "600";

    private GcsFaultTolerance() {
    }

    /** {@code IsGCSFaultToleranceEnabled}. */
    static boolean enabled(RayClusterSpec spec, Map<String, String> clusterAnnotations) {
        String v = clusterAnnotations.get(RayLabels.FT_ENABLED);
        return (v != null && v.equalsIgnoreCase("true")) || spec.gcsFaultToleranceOptions() != null;
    }

    /** {@code IsGCSFaultToleranceEmbedded}: the RocksDB backend. */
    static boolean embedded(RayClusterSpec spec) {
        return "rocksdb".equals(Json.text(spec.gcsFaultToleranceOptions(), "backend"));
    }

    /** The head's rayStartParams with the Redis credentials KubeRay adds as variable references. */
    static Map<String, String> headStartParams(StoredObject cluster, RayClusterSpec spec) {
        Map<String, String> params = new LinkedHashMap<>();
        if (spec.headGroupSpec().rayStartParams() != null) {
            params.putAll(spec.headGroupSpec().rayStartParams());
        }
        JsonNode options = spec.gcsFaultToleranceOptions();
        if (enabled(spec, cluster.annotations()) && !embedded(spec) && options != null) {
            if (options.hasNonNull("redisUsername")) {
                params.put("redis-username", "$REDIS_USERNAME");
            }
            if (options.hasNonNull("redisPassword")) {
                params.put("redis-password", "$REDIS_PASSWORD");
            }
        }
        return params;
    }

    /** The head Pod's {@code ray.io/ft-enabled} annotation and, with FT on, its Redis settings. */
    static void configureHead(ObjectNode pod, ObjectNode ray, StoredObject cluster, RayClusterSpec spec) {
        boolean on = enabled(spec, cluster.annotations());
        ObjectNode annotations = Json.child((ObjectNode) pod.get("metadata"), "annotations");
        annotations.put(RayLabels.FT_ENABLED, Boolean.toString(on));
        if (!on || embedded(spec)) {
            return;
        }
        JsonNode options = spec.gcsFaultToleranceOptions();
        String storage = cluster.uid();
        String annotated = cluster.annotations().get(STORAGE_NAMESPACE);
        if (annotated != null) {
            storage = annotated;
        }
        String configured = options == null ? null : Json.text(options, "externalStorageNamespace");
        if (configured != null && !configured.isEmpty()) {
            storage = configured;
        }
        annotations.put(STORAGE_NAMESPACE, storage);
        ArrayNode env = ray.get("env") instanceof ArrayNode a ? a : ray.putArray("env");
        if (!RayPodFactory.hasNamed(env, "RAY_external_storage_namespace")) {
            env.addObject().put("name", "RAY_external_storage_namespace").put("value", storage);
        }
        if (options != null) {
            env.addObject().put("name", "RAY_REDIS_ADDRESS").put("value", Json.text(options, "redisAddress"));
            addValue(env, "REDIS_USERNAME", options.get("redisUsername"));
            addValue(env, "REDIS_PASSWORD", options.get("redisPassword"));
        } else if (!RayPodFactory.hasNamed(env, "REDIS_PASSWORD")) {
            // a password written into rayStartParams (legacy annotation) is what the Redis cleanup Job would use
            Map<String, String> params = spec.headGroupSpec().rayStartParams();
            String password = params == null ? null : params.get("redis-password");
            if (password != null) {
                env.addObject().put("name", "REDIS_PASSWORD").put("value", password);
            }
        }
    }

    /** With FT on, a worker's raylet waits up to 600 s for a restarted GCS (Ray's default is 60 s). */
    static void configureWorker(ObjectNode ray, StoredObject cluster, RayClusterSpec spec) {
        if (!enabled(spec, cluster.annotations())) {
            return;
        }
        ArrayNode env = ray.get("env") instanceof ArrayNode a ? a : ray.putArray("env");
        if (!RayPodFactory.hasNamed(env, RECONNECT_TIMEOUT_ENV)) {
            env.addObject().put("name", RECONNECT_TIMEOUT_ENV).put("value", WORKER_RECONNECT_TIMEOUT);
        }
    }

    /** An EnvVar from a {@code RedisCredential} ({@code value} or {@code valueFrom}). */
    private static void addValue(ArrayNode env, String name, JsonNode credential) {
        if (credential == null || credential.isNull()) {
            return;
        }
        ObjectNode e = env.addObject().put("name", name);
        if (credential.hasNonNull("value")) {
            e.set("value", credential.get("value").deepCopy());
        }
        if (credential.hasNonNull("valueFrom")) {
            e.set("valueFrom", credential.get("valueFrom").deepCopy());
        }
    }
}
