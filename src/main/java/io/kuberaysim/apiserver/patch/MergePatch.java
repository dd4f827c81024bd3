package io.kuberaysim.apiserver.patch;

import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON Merge Patch (RFC 7386, {@code application/merge-patch+json}): objects merge recursively, {@code null}
 * deletes a member, anything else (scalars, arrays) replaces. Used by {@code kubectl apply} on custom resources,
 * {@code kubectl patch --type merge}, {@code label} and {@code annotate}.
 */
public final class MergePatch {

    private MergePatch() {
    }

    /**
     * Applies {@code patch} to {@code target} and returns a new tree; neither input is modified.
     *
     * @param target the current object; {@code null}, missing or non-object targets are treated as {@code {}}
     * @param patch  the merge patch; must be a JSON object because the target is always a Kubernetes object
     * @throws PatchException if the patch is not a JSON object
     */
    public static JsonNode apply(JsonNode target, JsonNode patch) {
        if (patch == null || !patch.isObject()) {
            throw new PatchException("merge patch must be a JSON object, got "
                    + (patch == null ? "nothing" : patch.getNodeType().toString().toLowerCase()));
        }
        return merge(target, patch);
    }

    private static JsonNode merge(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch.deepCopy();
        }
        ObjectNode result = target != null && target.isObject()
                ? ((ObjectNode) target).deepCopy()
                : JsonNodeFactory.instance.objectNode();
        for (Map.Entry<String, JsonNode> e : patch.properties()) {
            if (e.getValue().isNull()) {
                result.remove(e.getKey());
            } else {
                // Recursing on the (already copied) child is fine: merge never mutates its target argument.
                result.set(e.getKey(), merge(result.get(e.getKey()), e.getValue()));
            }
        }
        return result;
    }
}
