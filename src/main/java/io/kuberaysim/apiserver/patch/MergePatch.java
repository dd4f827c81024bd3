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
     * Applies {@code patch} to {@code target} and returns a new tree; neither input is modified. Only the objects on
     * the patch's paths are new: every part of {@code target} the patch does not reach is shared with the result
     * (a stored, read-only target stays read-only there; copy a target first to change the result freely).
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
        ObjectNode result = JsonNodeFactory.instance.objectNode();
        if (target != null && target.isObject()) {
            for (Map.Entry<String, JsonNode> e : target.properties()) {
                result.set(e.getKey(), e.getValue());
            }
        }
        for (Map.Entry<String, JsonNode> e : patch.properties()) {
            if (e.getValue().isNull()) {
                result.remove(e.getKey());
            } else {
                result.set(e.getKey(), merge(result.get(e.getKey()), e.getValue()));
            }
        }
        return result;
    }
}
