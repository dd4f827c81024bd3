package io.kuberaysim.api.ray;

import java.util.Map;

import io.kuberaysim.api.schema.Schema;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

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

    /**
     * OpenAPI v3 {@code components.schemas} entries for the three kinds, named like kube-apiserver names
     * CRD definitions ({@code io.ray.v1.RayCluster}) and tagged with {@code x-kubernetes-group-version-kind},
     * which is how {@code kubectl explain} finds the schema of a kind.
     */
    public static ObjectNode openApiComponents(JsonMapper mapper) {
        ObjectNode components = mapper.createObjectNode();
        for (String kind : new String[] {RayCluster.KIND, RayJob.KIND, RayService.KIND}) {
            ObjectNode schema = forKindOrResource(kind).toOpenApi(mapper);
            ObjectNode gvk = schema.putArray("x-kubernetes-group-version-kind").addObject();
            gvk.put("group", RayCluster.GROUP);
            gvk.put("kind", kind);
            gvk.put("version", "v1");
            components.set("io.ray.v1." + kind, schema);
        }
        return components;
    }
}
