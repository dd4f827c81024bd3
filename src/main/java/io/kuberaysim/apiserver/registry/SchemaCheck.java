package io.kuberaysim.apiserver.registry;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.schema.Schema;
import io.kuberaysim.api.schema.StructuralValidator;
import io.kuberaysim.api.schema.ValidationResult;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.errors.StatusCause;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Structural-schema handling of a write, as for custom resources: unknown fields are pruned (and reported
 * according to {@code fieldValidation}), defaults are applied, and type errors become 422 Invalid. Unknown
 * metadata fields are pruned and reported for every kind; fields a typed part does not declare (a built-in kind's,
 * a Ray Pod template's) are reported.
 */
final class SchemaCheck {
    private static final Set<String> OBJECT_META_FIELDS = Set.of("name", "generateName", "namespace", "selfLink",
            "uid", "resourceVersion", "generation", "creationTimestamp", "deletionTimestamp",
            "deletionGracePeriodSeconds", "labels", "annotations", "ownerReferences", "finalizers", "managedFields");
    private static final Set<String> OWNER_REFERENCE_FIELDS = Set.of("apiVersion", "kind", "name", "uid",
            "controller", "blockOwnerDeletion");

    /**
     * @param object  the object written; its metadata's unknown fields are dropped from it
     * @param ownTree whether every node of {@code object} is this write's own and in it once (a decoded body, a
     *                deep copy, a merge patch of a copy): then it is pruned and defaulted in place instead of copied
     * @param old     the stored version written over, null for a create
     */
    ObjectNode apply(ResourceStrategy strategy, ObjectNode object, boolean ownTree, JsonNode old,
                     WriteOptions options, List<String> warnings, String name) {
        List<String> unknownMetadata = pruneUnknownMetadata(object);
        Schema schema = strategy.schema();
        ValidationResult result = schema == null
                ? new ValidationResult(object, List.of(), List.of())
                : ownTree ? StructuralValidator.validateInPlace(object, schema, "")
                : StructuralValidator.validate(object, schema);
        List<String> unknown = new ArrayList<>(unknownMetadata);
        unknown.addAll(result.unknownFields());
        // typed parts (a built-in kind, a Ray kind's Pod templates): reported, not pruned (see README, schemas)
        unknown.addAll(strategy.unknownFields(object, old));
        unknown.sort(null);
        return (ObjectNode) check(strategy.type(), new ValidationResult(result.value(), unknown, result.errors()),
                options, warnings, name);
    }

    /**
     * Fields ObjectMeta does not have are dropped (kube-apiserver's typed decoding cannot keep them) and returned
     * as {@code metadata.bogus} for the {@code fieldValidation} report.
     */
    private static List<String> pruneUnknownMetadata(ObjectNode object) {
        List<String> unknown = new ArrayList<>();
        if (!(object.get("metadata") instanceof ObjectNode meta)) {
            return unknown;
        }
        prune(meta, OBJECT_META_FIELDS, "metadata", unknown);
        if (meta.get("ownerReferences") instanceof ArrayNode refs) {
            for (int i = 0; i < refs.size(); i++) {
                if (refs.get(i) instanceof ObjectNode ref) {
                    prune(ref, OWNER_REFERENCE_FIELDS, "metadata.ownerReferences[" + i + "]", unknown);
                }
            }
        }
        return unknown;
    }

    private static void prune(ObjectNode node, Set<String> known, String path, List<String> unknown) {
        List<String> names = new ArrayList<>();
        node.propertyNames().forEach(names::add);
        for (String n : names) {
            if (!known.contains(n)) {
                unknown.add(path + "." + n);
                node.remove(n);
            }
        }
    }

    /**
     * A write of the status subresource: only {@code status} is new (the rest is the stored object, already
     * valid), so only it is pruned, defaulted and type-checked, against the schema's {@code status} property.
     */
    ObjectNode applyToStatus(ResourceStrategy strategy, ObjectNode object, WriteOptions options,
                             List<String> warnings, String name) {
        Schema schema = strategy.schema();
        Schema statusSchema = schema == null ? null : schema.properties().get("status");
        JsonNode status = object.get("status");
        if (statusSchema == null || status == null) {
            return object;
        }
        // the status is the write's own copy (the rest of the object is stored and shared)
        object.set("status", check(strategy.type(),
                StructuralValidator.validateInPlace(status, statusSchema, "status"), options, warnings, name));
        return object;
    }

    private static JsonNode check(ResourceType type, ValidationResult result, WriteOptions options,
                                  List<String> warnings, String name) {
        List<String> unknown = result.unknownFields();
        if (!unknown.isEmpty()) {
            switch (options.fieldValidation()) {
                case STRICT -> throw ApiException.badRequest(type.kind() + " in version \"" + type.version()
                        + "\" cannot be handled as a " + type.kind() + ": strict decoding error: "
                        + unknown.stream().map(f -> "unknown field \"" + f + "\"").collect(Collectors.joining(", ")));
                case WARN -> unknown.forEach(f -> warnings.add("unknown field \"" + f + "\""));
                case IGNORE -> {
                }
            }
        }
        if (!result.errors().isEmpty()) {
            throw ApiException.invalid(type, name, result.errors().stream()
                    .map(e -> new StatusCause(e.reason(), e.message(), e.field())).toList());
        }
        return result.value();
    }
}
