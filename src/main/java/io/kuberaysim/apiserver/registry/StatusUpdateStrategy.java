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
        return schemaCheck.applyToStatus(resource, statusOnly(current, body), options, warnings, current.name());
    }

    @Override
    public ObjectNode fromPatched(ResourceStrategy resource, StoredObject current, ObjectNode patched,
                                  boolean ownTree, WriteOptions options, List<String> warnings) {
        return schemaCheck.applyToStatus(resource, statusOnly(current, patched), options, warnings, current.name());
    }

    /** The stored object with only {@code status} (and the resourceVersion precondition) taken from the request. */
    private static ObjectNode statusOnly(StoredObject current, ObjectNode requested) {
        // Only metadata (resourceVersion, managedFields) and status change: the other top-level fields, spec
        // above all, are shared with the stored version instead of copied, as stored trees are never mutated.
        JsonNode st = requested.get("status");
        JsonNode newStatus = st == null || st.isNull() ? null : st.deepCopy();
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
     * A copy of the stored metadata to change, sharing {@code managedFields} (the write replaces it whole, never
     * changes it in place), which would otherwise be most of what is copied.
     */
    private static ObjectNode metadataCopy(JsonNode meta) {
        ObjectNode copy = Json.object();
        meta.properties().forEach(e -> copy.set(e.getKey(),
                e.getKey().equals("managedFields") ? e.getValue() : e.getValue().deepCopy()));
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
