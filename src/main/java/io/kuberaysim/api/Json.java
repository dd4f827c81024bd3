package io.kuberaysim.api;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** The one JSON and YAML mapper the core uses, so every object is encoded the same way everywhere. */
public final class Json {
    public static final JsonMapper MAPPER = JsonMapper.builder().build();
    public static final YAMLMapper YAML = YAMLMapper.builder().build();

    private Json() {
    }

    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    /** Text at {@code path} (dot separated field names), or null when absent or not textual. */
    public static String text(JsonNode node, String... path) {
        JsonNode n = at(node, path);
        return n != null && n.isString() ? n.asString() : null;
    }

    public static JsonNode at(JsonNode node, String... path) {
        JsonNode n = node;
        for (String p : path) {
            if (n == null || !n.isObject()) {
                return null;
            }
            n = n.get(p);
        }
        return n == null || n.isNull() || n.isMissingNode() ? null : n;
    }

    /** The object at {@code field} of {@code parent}, created when absent (or replaced when not an object). */
    public static ObjectNode child(ObjectNode parent, String field) {
        JsonNode n = parent.get(field);
        if (n instanceof ObjectNode o) {
            return o;
        }
        return parent.putObject(field);
    }
}
