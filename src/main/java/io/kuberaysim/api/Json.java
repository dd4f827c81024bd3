package io.kuberaysim.api;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

import tools.jackson.core.JsonGenerator;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.util.JsonRecyclerPools;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** The one JSON and YAML mapper the core uses, so every object is encoded the same way everywhere. */
public final class Json {
    /**
     * Kubernetes times (metav1.Time) are RFC 3339 with second precision, e.g. {@code 2026-11-29T22:44:47Z}. Each
     * thread keeps its own parser and generator buffers (Jackson 3's default shares them through one concurrent
     * deque, which every request thread's parse and encode went through twice: a point of contention under load).
     * Every thread here is a platform thread of a fixed pool or the control loop.
     */
    public static final JsonMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .recyclerPool(JsonRecyclerPools.threadLocalPool()).build())
            .addModule(new SimpleModule("kubernetes-time").addSerializer(Instant.class, new ValueSerializer<>() {
                @Override
                public void serialize(Instant value, JsonGenerator gen, SerializationContext ctxt) {
                    gen.writeString(value.truncatedTo(ChronoUnit.SECONDS).toString());
                }
            }))
            .build();
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
