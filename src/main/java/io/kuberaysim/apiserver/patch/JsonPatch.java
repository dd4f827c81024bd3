package io.kuberaysim.apiserver.patch;

import io.fabric8.zjsonpatch.CompatibilityFlags;
import io.fabric8.zjsonpatch.JsonPatchException;

import java.util.EnumSet;
import java.util.Set;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * JSON Patch (RFC 6902, {@code application/json-patch+json}) on top of zjsonpatch, applied to a copy of the
 * target. Used by {@code kubectl patch --type json}, client-node's {@code CustomObjectsApi.patch*} and fabric8's
 * {@code edit()}.
 */
public final class JsonPatch {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private static final Set<String> OPS = Set.of("add", "remove", "replace", "move", "copy", "test");

    /**
     * Removing a missing member is an error in the patch library the API server uses, so it is one here too;
     * replacing a missing member is an error by default.
     */
    private static final EnumSet<CompatibilityFlags> FLAGS = EnumSet.of(CompatibilityFlags.FORBID_REMOVE_MISSING_OBJECT);

    private JsonPatch() {
    }

    /**
     * Applies the operations in order and returns the new tree; {@code target} is not modified.
     *
     * @throws PatchException if the patch is not an array of well-formed operations, or an operation fails; the
     *                        message names the operation index, op and path
     */
    public static JsonNode apply(JsonNode target, JsonNode patch) {
        if (patch == null || !patch.isArray()) {
            throw new PatchException("json patch must be a JSON array of operations, got "
                    + (patch == null ? "nothing" : patch.getNodeType().toString().toLowerCase()));
        }
        for (int i = 0; i < patch.size(); i++) {
            validateOperation(i, patch.get(i));
        }
        // One operation at a time so a failure can name the operation (and its full path) that failed.
        JsonNode current = target;
        for (int i = 0; i < patch.size(); i++) {
            JsonNode op = patch.get(i);
            try {
                current = io.fabric8.zjsonpatch.JsonPatch.apply(NODES.arrayNode().add(op), current, FLAGS);
            } catch (JsonPatchException e) {
                throw failed(i, op, e);
            } catch (RuntimeException e) {
                throw failed(i, op, e);
            }
        }
        return current == target ? target.deepCopy() : current;
    }

    private static PatchException failed(int index, JsonNode op, RuntimeException e) {
        return new PatchException("json patch operation " + index + " (" + op.get("op").stringValue() + " at path "
                + quote(op.get("path").stringValue()) + ") does not apply: " + e.getMessage(), e);
    }

    /** Structural checks up front so a malformed operation gets a precise message rather than a library error. */
    private static void validateOperation(int index, JsonNode op) {
        String prefix = "json patch operation " + index + ": ";
        if (op == null || !op.isObject()) {
            throw new PatchException(prefix + "must be a JSON object");
        }
        JsonNode name = op.get("op");
        if (name == null || !name.isString()) {
            throw new PatchException(prefix + "missing \"op\"");
        }
        if (!OPS.contains(name.stringValue())) {
            throw new PatchException(prefix + "unexpected op " + quote(name.stringValue()));
        }
        JsonNode path = op.get("path");
        if (path == null || !path.isString()) {
            throw new PatchException(prefix + name.stringValue() + " is missing \"path\"");
        }
        String p = path.stringValue();
        if (!p.isEmpty() && !p.startsWith("/")) {
            throw new PatchException(prefix + "invalid path " + quote(p) + ": a JSON pointer must start with '/'");
        }
        switch (name.stringValue()) {
            case "add", "replace", "test" -> {
                if (!op.has("value")) {
                    throw new PatchException(prefix + name.stringValue() + " at path " + quote(p)
                            + " is missing \"value\"");
                }
            }
            case "move", "copy" -> {
                JsonNode from = op.get("from");
                if (from == null || !from.isString()) {
                    throw new PatchException(prefix + name.stringValue() + " at path " + quote(p)
                            + " is missing \"from\"");
                }
            }
            default -> {
            }
        }
    }

    private static String quote(String s) {
        return "\"" + s + "\"";
    }
}
