package io.kuberaysim.apiserver.fieldmanager;

import io.kuberaysim.api.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One {@code metadata.managedFields} entry: a manager, its operation ({@code Apply} or {@code Update}), the API version
 * and subresource it wrote through, when, and the fields it owns ({@code fieldsV1}: their encoding as read from a
 * stored object, written back as it is while {@code fields} stay the same; null when they are new or changed) and,
 * for an entry read from a stored object and written back unchanged, that entry's own tree ({@code stored}; null
 * otherwise), which is then stored again as it is.
 */
record ManagedFieldsEntry(String manager, String operation, String apiVersion, String time, String subresource,
                          FieldSet fields, JsonNode fieldsV1, JsonNode stored) {
    static final String APPLY = "Apply";
    static final String UPDATE = "Update";

    ManagedFieldsEntry(String manager, String operation, String apiVersion, String time, String subresource,
                       FieldSet fields) {
        this(manager, operation, apiVersion, time, subresource, fields, null, null);
    }

    boolean sameManager(String otherManager, String otherOperation, String otherSubresource) {
        return manager.equals(otherManager) && operation.equals(otherOperation)
                && java.util.Objects.equals(subresource, otherSubresource);
    }

    ManagedFieldsEntry withFields(FieldSet newFields) {
        return new ManagedFieldsEntry(manager, operation, apiVersion, time, subresource, newFields);
    }

    /** The same entry, owning the same fields, written at {@code newTime}. */
    ManagedFieldsEntry at(String newTime) {
        return new ManagedFieldsEntry(manager, operation, apiVersion, newTime, subresource, fields, fieldsV1, null);
    }

    static ManagedFieldsEntry read(JsonNode e) {
        String sub = Json.text(e, "subresource");
        return new ManagedFieldsEntry(Json.text(e, "manager") == null ? "" : Json.text(e, "manager"),
                Json.text(e, "operation") == null ? UPDATE : Json.text(e, "operation"), Json.text(e, "apiVersion"),
                Json.text(e, "time"), sub == null || sub.isEmpty() ? null : sub, FieldSet.fromFieldsV1(e.get("fieldsV1")),
                e.get("fieldsV1"), e);
    }

    JsonNode toJson() {
        if (stored != null) {
            return stored;
        }
        ObjectNode e = Json.object();
        e.put("manager", manager).put("operation", operation);
        if (apiVersion != null) {
            e.put("apiVersion", apiVersion);
        }
        if (time != null) {
            e.put("time", time);
        }
        e.put("fieldsType", "FieldsV1");
        // shared with every equal tree when stored: the store keeps one instance of equal subtrees
        e.set("fieldsV1", fieldsV1 != null ? fieldsV1 : fields.toFieldsV1());
        if (subresource != null) {
            e.put("subresource", subresource);
        }
        return e;
    }

    /** How kube-apiserver names the manager in a conflict: {@code "bob" using ray.io/v1 at 2025-01-01T00:00:00Z}. */
    String describe() {
        String s = "\"" + manager + "\"";
        if (subresource != null) {
            s += " with subresource \"" + subresource + "\"";
        }
        if (operation.equals(UPDATE)) {
            s += " using " + apiVersion + (time == null ? "" : " at " + time);
        }
        return s;
    }
}
