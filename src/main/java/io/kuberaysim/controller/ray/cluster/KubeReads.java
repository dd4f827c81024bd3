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

    static RayClusterSpec spec(StoredObject cluster) {
        JsonNode spec = cluster.object().get("spec");
        return spec == null ? null : KubeClient.read(spec, RayClusterSpec.class);
    }

    static RayClusterStatus status(StoredObject cluster) {
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
