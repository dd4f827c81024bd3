package io.kuberaysim.apiserver.fieldmanager;

import io.kuberaysim.apiserver.storage.FrozenTrees;
import tools.jackson.databind.JsonNode;

/**
 * One shared instance of each distinct {@code fieldsV1} tree. Objects of the same shape written by the same
 * managers have identical trees (FieldsV1 names fields, not values: every worker Pod of every RayCluster has the same
 * ones), and as Jackson trees of mostly empty objects they were most of a stored object's heap. The stored form is
 * canonical (equal trees are one instance, see {@link FrozenTrees}), so sharing is what freezing gives.
 */
final class FieldsV1Trees {
    private FieldsV1Trees() {
    }

    /**
     * The shared tree equal to {@code tree}, in stored form (so that storing an object keeps it as it is instead of
     * converting a copy of it).
     */
    static JsonNode intern(JsonNode tree) {
        return FrozenTrees.freeze(tree);
    }
}
