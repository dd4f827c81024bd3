package io.kuberaysim.apiserver.fieldmanager;

import io.kuberaysim.apiserver.storage.FrozenTrees;
import tools.jackson.databind.JsonNode;

import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * One shared instance of each distinct {@code fieldsV1} tree. Objects of the same shape written by the same
 * managers have identical trees (FieldsV1 names fields, not values: every worker Pod of every RayCluster has the same
 * ones), and as Jackson trees of mostly empty objects they were most of a stored object's heap. Stored trees are
 * never changed in place, so sharing them is safe; a tree no stored object uses any more is let go.
 */
final class FieldsV1Trees {
    private static final Map<JsonNode, WeakReference<JsonNode>> CANONICAL = new WeakHashMap<>();

    private FieldsV1Trees() {
    }

    /**
     * The shared tree equal to {@code tree}, in stored form (so that storing an object keeps it as it is instead of
     * converting a copy of it).
     */
    static JsonNode intern(JsonNode tree) {
        synchronized (CANONICAL) {
            WeakReference<JsonNode> ref = CANONICAL.get(tree);
            JsonNode canonical = ref == null ? null : ref.get();
            if (canonical == null) {
                canonical = FrozenTrees.freeze(tree);
                CANONICAL.put(canonical, new WeakReference<>(canonical));
            }
            return canonical;
        }
    }
}
