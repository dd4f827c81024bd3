package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ray.RayClusterSpec;
import io.kuberaysim.api.ray.RayClusterStatus;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import tools.jackson.databind.JsonNode;

import java.util.LinkedHashMap;
import java.util.Map;

/** Typed views of a stored RayCluster. */
final class KubeReads {
    private KubeReads() {
    }

    /** Keys of the typed views cached on each stored version (a reconcile reads them many times per version). */
    private static final Object SPEC = new Object();
    private static final Object STATUS = new Object();

    static RayClusterSpec spec(StoredObject cluster) {
        return cluster.view(SPEC, KubeReads::readSpec);
    }

    static RayClusterStatus status(StoredObject cluster) {
        return cluster.view(STATUS, KubeReads::readStatus);
    }

    private static RayClusterSpec readSpec(StoredObject cluster) {
        JsonNode spec = cluster.object().get("spec");
        return spec == null ? null : KubeClient.read(spec, RayClusterSpec.class);
    }

    private static RayClusterStatus readStatus(StoredObject cluster) {
        JsonNode status = cluster.object().get("status");
        return status == null || status.isEmpty() ? null : KubeClient.read(status, RayClusterStatus.class);
    }

    static Map<String, String> annotations(StoredObject obj) {
        Map<String, String> m = new LinkedHashMap<>();
        JsonNode a = Json.at(obj.object(), "metadata", "annotations");
        if (a != null && a.isObject()) {
            a.properties().forEach(e -> m.put(e.getKey(), e.getValue().asString()));
        }
        return m;
    }
}
