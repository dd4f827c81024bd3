package io.kuberaysim.apiserver.registry;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.storage.StoredObject;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * Writes to the {@code /status} subresource: only {@code status} is taken from the request (and the
 * resourceVersion precondition) and checked against the status schema and the resource's status rules; everything
 * else stays as stored, so spec, labels and generation never change here.
 */
final class StatusUpdateStrategy implements UpdateStrategy {
    private final SchemaCheck schemaCheck;

    StatusUpdateStrategy(SchemaCheck schemaCheck) {
        this.schemaCheck = schemaCheck;
    }

    @Override
    public ObjectNode fromBody(ResourceStrategy resource, StoredObject current, ObjectNode body,
                               WriteOptions options, List<String> warnings) {
        return schemaCheck.applyToStatus(resource, statusOnly(current, body, true), options, warnings,
                current.name());
    }

    /**
     * The body's status is taken as it is: pruned and defaulted in place, which a retry finds already done (the
     * same result); the body's metadata is only read.
     */
    @Override
    public ObjectNode fromOwnBody(ResourceStrategy resource, StoredObject current, ObjectNode body,
                                  WriteOptions options, List<String> warnings) {
        return schemaCheck.applyToStatus(resource, statusOnly(current, body, false), options, warnings,
                current.name());
    }

    @Override
    public ObjectNode fromPatched(ResourceStrategy resource, StoredObject current, ObjectNode patched,
                                  boolean ownTree, WriteOptions options, List<String> warnings) {
        return schemaCheck.applyToStatus(resource, statusOnly(current, patched, true), options, warnings,
                current.name());
    }

    /**
     * The stored object with only {@code status} (and the resourceVersion precondition) taken from the request;
     * {@code copyStatus}: the request's status is copied (it is not the write's own to change).
     */
    private static ObjectNode statusOnly(StoredObject current, ObjectNode requested, boolean copyStatus) {
        // Only metadata (resourceVersion, managedFields) and status change: the other top-level fields, spec
        // above all, are shared with the stored version instead of copied, as stored trees are never mutated.
        JsonNode st = requested.get("status");
        JsonNode newStatus = st == null || st.isNull() ? null : copyStatus ? st.deepCopy() : st;
        ObjectNode next = Json.object();
        current.object().properties().forEach(e -> {
            switch (e.getKey()) {
                case "metadata" -> next.set("metadata", metadataCopy(e.getValue()));
                case "status" -> {
                    if (newStatus != null) {
                        next.set("status", newStatus);
                    }
                }
                default -> next.set(e.getKey(), e.getValue());
            }
        });
        if (newStatus != null && !next.has("status")) {
            next.set("status", newStatus);
        }
        String rv = Json.text(requested, "metadata", "resourceVersion");
        Json.child(next, "metadata").put("resourceVersion", rv == null ? "" : rv);
        return next;
    }

    /**
     * The stored metadata as an object of the write's own, sharing every value with the stored one: a status write
     * only sets or removes metadata fields (resourceVersion, managedFields, the server-owned ones), never changes a
     * value in place, and the stored values are read-only (a change in place would fail, not alter what readers
     * share).
     */
    private static ObjectNode metadataCopy(JsonNode meta) {
        ObjectNode copy = Json.object();
        meta.properties().forEach(e -> copy.set(e.getKey(), e.getValue()));
        return copy;
    }

    @Override
    public List<StatusCause> prepareAndValidate(ResourceStrategy resource, StoredObject current, ObjectNode next,
                                                List<String> warnings) {
        return resource.validateStatusUpdate(next, current.object());
    }

    @Override
    public boolean applyCreates() {
        return false;
    }
}
