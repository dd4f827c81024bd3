package io.kuberaysim.apiserver.registry;

import io.kuberaysim.api.Json;
import tools.jackson.databind.JsonNode;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The fields a resource can be selected by ({@code ?fieldSelector=}) and how to read each from an object: kube's
 * field label conversion and {@code ToSelectableFields} in one map. A field missing from the map is
 * {@code field label not supported}.
 */
public final class SelectableFields {
    private SelectableFields() {
    }

    /** A string field at a path; absent reads as "" as in kube's fields.Set. */
    public static Function<JsonNode, String> text(String... path) {
        return o -> {
            String s = Json.text(o, path);
            return s == null ? "" : s;
        };
    }

    /** {@code metadata.name} only: what Nodes and Namespaces (cluster-scoped built-ins) take besides their own. */
    public static Map<String, Function<JsonNode, String>> name() {
        return Map.of("metadata.name", text("metadata", "name"));
    }

    /** {@code metadata.name} and {@code metadata.namespace}: every namespaced type. */
    public static Map<String, Function<JsonNode, String>> nameAndNamespace() {
        return Map.of("metadata.name", text("metadata", "name"), "metadata.namespace", text("metadata", "namespace"));
    }

    /** {@code base} with {@code extra} added. */
    public static Map<String, Function<JsonNode, String>> with(Map<String, Function<JsonNode, String>> base,
                                                              Map<String, Function<JsonNode, String>> extra) {
        Map<String, Function<JsonNode, String>> m = new HashMap<>(base);
        m.putAll(extra);
        return Map.copyOf(m);
    }
}
