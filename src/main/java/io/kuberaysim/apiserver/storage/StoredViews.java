package io.kuberaysim.apiserver.storage;

import io.kuberaysim.api.Json;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.node.ObjectNode;

/**
 * Typed views of stored trees (a parsed spec kept with {@link StoredObject#view}): the view's {@code ObjectNode}
 * fields (pod templates, free-form options) are the stored, shared subtrees instead of copies of them. A view lives
 * as long as its object (a reconciler keeps one per RayCluster), so copies cost as much heap again as the parts they
 * copy. Such fields are read-only, as the stored tree is; {@link JsonNode#deepCopy()} gives a changeable copy.
 */
public final class StoredViews {
    private static final JsonMapper MAPPER = Json.MAPPER.rebuild()
            .addModule(new SimpleModule("stored-subtrees").addDeserializer(ObjectNode.class, new SharedObjects()))
            .build();

    private StoredViews() {
    }

    /** {@code tree} (part of a stored object) read as a {@code type}. */
    public static <T> T read(JsonNode tree, Class<T> type) {
        return MAPPER.treeToValue(tree, type);
    }

    /** Reads the object as any other tree and answers the stored instance equal to it (held while its object is). */
    private static final class SharedObjects extends ValueDeserializer<ObjectNode> {
        @Override
        public ObjectNode deserialize(JsonParser p, DeserializationContext ctxt) {
            if (!p.isExpectedStartObjectToken()) {
                return (ObjectNode) ctxt.handleUnexpectedToken(ObjectNode.class, p);
            }
            return (ObjectNode) FrozenTrees.freeze(ctxt.readTree(p));
        }
    }
}
