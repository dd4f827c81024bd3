package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.api.ray.RayClusterSpec;
import io.kuberaysim.api.ray.RayClusterStatus;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.apiserver.storage.StoredViews;
import io.kuberaysim.client.KubeClient;
import tools.jackson.databind.JsonNode;


/** Typed views of a stored RayCluster, parsed once per stored version. */
public final class RayClusterViews {
    private RayClusterViews() {
    }

    /** Keys of the typed views cached on each stored version (a reconcile reads them many times per version). */
    private static final Object SPEC = new Object();
    private static final Object STATUS = new Object();

    /** {@code spec}, or null when absent. */
    public static RayClusterSpec spec(StoredObject cluster) {
        return cluster.view(SPEC, RayClusterViews::readSpec);
    }

    /** {@code status}, or null when absent or empty. */
    public static RayClusterStatus status(StoredObject cluster) {
        return cluster.view(STATUS, RayClusterViews::readStatus);
    }

    private static RayClusterSpec readSpec(StoredObject cluster) {
        JsonNode spec = cluster.object().get("spec");
        return spec == null ? null : StoredViews.read(spec, RayClusterSpec.class);
    }

    private static RayClusterStatus readStatus(StoredObject cluster) {
        JsonNode status = cluster.object().get("status");
        return status == null || status.isEmpty() ? null : KubeClient.read(status, RayClusterStatus.class);
    }
}
