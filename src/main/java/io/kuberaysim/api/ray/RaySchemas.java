package io.kuberaysim.api.ray;

import java.util.Map;

import io.kuberaysim.api.schema.Schema;

/** The structural schemas of the three {@code ray.io/v1} kinds, by kind and by plural resource name. */
public final class RaySchemas {

    private RaySchemas() {
    }

    /** Schema of a whole RayCluster. */
    public static Schema rayCluster() {
        return RayCluster.schema();
    }

    /** Schema of a whole RayJob. */
    public static Schema rayJob() {
        return RayJob.schema();
    }

    /** Schema of a whole RayService. */
    public static Schema rayService() {
        return RayService.schema();
    }

    /** Schemas by kind: {@code RayCluster}, {@code RayJob}, {@code RayService}. */
    public static Map<String, Schema> byKind() {
        return Map.of(RayCluster.KIND, rayCluster(), RayJob.KIND, rayJob(), RayService.KIND, rayService());
    }

    /**
     * Schema for a kind or plural resource name, case-insensitively.
     *
     * @return the schema, or {@code null} for anything that is not a Ray kind
     */
    public static Schema forKindOrResource(String name) {
        return switch (name.toLowerCase(java.util.Locale.ROOT)) {
            case "raycluster", "rayclusters" -> rayCluster();
            case "rayjob", "rayjobs" -> rayJob();
            case "rayservice", "rayservices" -> rayService();
            default -> null;
        };
    }
}
