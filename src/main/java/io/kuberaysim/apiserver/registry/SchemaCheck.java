package io.kuberaysim.apiserver.registry;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.schema.Schema;
import io.kuberaysim.api.schema.StructuralValidator;
import io.kuberaysim.api.schema.ValidationResult;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.errors.StatusCause;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Structural-schema handling of a write, as for custom resources: unknown fields are pruned (and reported
 * according to {@code fieldValidation}), defaults are applied, and type errors become 422 Invalid.
 */
final class SchemaCheck {

    ObjectNode apply(ResourceStrategy strategy, ObjectNode object, WriteOptions options, List<String> warnings,
                     String name) {
        Schema schema = strategy.schema();
        if (schema == null) {
            return object;
        }
        return (ObjectNode) check(strategy.type(), StructuralValidator.validate(object, schema), options, warnings,
                name);
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
        object.set("status", check(strategy.type(), StructuralValidator.validate(status, statusSchema, "status"),
                options, warnings, name));
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
