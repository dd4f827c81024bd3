package io.kuberaysim.api.sim;

import io.kuberaysim.api.schema.Schema;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.util.LinkedHashMap;
import java.util.Map;

/** The structural schemas of the {@code sim.kuberay.io/v1alpha1} kinds (the simulation's own API). */
public final class SimSchemas {
    /** API group of the simulation's kinds. */
    public static final String GROUP = "sim.kuberay.io";
    /** Their version. */
    public static final String VERSION = "v1alpha1";

    private SimSchemas() {
    }

    /** Schemas by kind, in discovery order. */
    public static Map<String, Schema> byKind() {
        Map<String, Schema> out = new LinkedHashMap<>();
        out.put(PodLifecycleRule.KIND, PodLifecycleRule.schema());
        out.put(NodeLifecycleRule.KIND, NodeLifecycleRule.schema());
        out.put(FaultSchedule.KIND, FaultSchedule.schema());
        return out;
    }

    /**
     * OpenAPI v3 {@code components.schemas} entries named as kube-apiserver names CRD definitions (the group's labels
     * reversed: {@code io.kuberay.sim.v1alpha1.FaultSchedule}) and tagged with {@code x-kubernetes-group-version-kind}
     * so {@code kubectl explain} finds them.
     */
    public static ObjectNode openApiComponents(JsonMapper mapper) {
        ObjectNode components = mapper.createObjectNode();
        byKind().forEach((kind, schema) -> {
            ObjectNode s = schema.toOpenApi(mapper);
            ObjectNode gvk = s.putArray("x-kubernetes-group-version-kind").addObject();
            gvk.put("group", GROUP);
            gvk.put("kind", kind);
            gvk.put("version", VERSION);
            components.set("io.kuberay.sim." + VERSION + "." + kind, s);
        });
        return components;
    }
}
