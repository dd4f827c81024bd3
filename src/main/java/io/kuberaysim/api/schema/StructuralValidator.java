package io.kuberaysim.api.schema;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * What kube-apiserver does to a custom resource body against its structural schema, in one pass:
 * drops {@code null} values of declared fields, prunes undeclared fields, applies defaults where the
 * enclosing object is present, then validates types, required fields, enums and minimums.
 * Values under {@code x-kubernetes-preserve-unknown-fields} without declared properties are kept verbatim.
 *
 * <p>Messages follow apiextensions-apiserver, e.g.
 * {@code Invalid value: "string": spec.replicas in body must be of type integer: "string"} (the "value"
 * shown is the JSON type of the offending value, as the real server prints it).
 */
public final class StructuralValidator {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private StructuralValidator() {
    }

    /** Validates, prunes and defaults {@code body} against {@code schema} without modifying {@code body}. */
    public static ValidationResult validate(JsonNode body, Schema schema) {
        return validate(body, schema, "");
    }

    /**
     * Like {@link #validate(JsonNode, Schema)} for a part of a resource, e.g. only {@code status} for the
     * status subresource: {@code basePath} (such as {@code "status"}) prefixes every reported path.
     */
    public static ValidationResult validate(JsonNode body, Schema schema, String basePath) {
        Walk walk = new Walk();
        JsonNode value = walk.process(body, schema, basePath == null ? "" : basePath);
        // Sorted, as the apiserver sorts its unknown-field warnings, so output does not depend on key order.
        walk.unknown.sort(null);
        return new ValidationResult(value, walk.unknown, walk.errors);
    }

    /** Mutable state of one validation run. */
    private static final class Walk {
        final List<String> unknown = new ArrayList<>();
        final List<FieldError> errors = new ArrayList<>();

        JsonNode process(JsonNode value, Schema schema, String path) {
            if (!typeMatches(value, schema)) {
                String actual = jsonType(value);
                String expected = schema.intOrString() ? "integer,string" : schema.type().jsonName();
                errors.add(FieldError.invalid(path, FieldError.quote(actual),
                        displayPath(path) + " in body must be of type " + expected + ": " + FieldError.quote(actual)));
                // The apiserver checks the enum independently of the type, so both errors appear.
                if (!schema.enumValues().isEmpty() && value.isValueNode() && !value.isNull()) {
                    errors.add(FieldError.notSupported(path, value, schema.enumValues()));
                }
                return value.deepCopy();
            }
            if (value.isObject()) {
                return processObject((ObjectNode) value, schema, path);
            }
            if (value.isArray()) {
                ArrayNode out = NODES.arrayNode();
                for (int i = 0; i < value.size(); i++) {
                    out.add(process(value.get(i), schema.items(), path + "[" + i + "]"));
                }
                return out;
            }
            checkScalar(value, schema, path);
            return value.deepCopy();
        }

        private JsonNode processObject(ObjectNode value, Schema schema, String path) {
            if (schema.preserveUnknownFields() && schema.properties().isEmpty()
                    && schema.additionalProperties() == null) {
                return value.deepCopy();
            }
            ObjectNode out = NODES.objectNode();
            for (Map.Entry<String, JsonNode> field : value.properties()) {
                String name = field.getKey();
                JsonNode child = field.getValue();
                Schema declared = schema.properties().get(name);
                if (declared == null) {
                    declared = schema.additionalProperties();
                }
                if (declared != null) {
                    // CRD structural defaulting drops nulls of non-nullable fields before defaulting.
                    if (!child.isNull()) {
                        out.set(name, process(child, declared, join(path, name)));
                    }
                } else if (schema.preserveUnknownFields()) {
                    out.set(name, child.deepCopy());
                } else {
                    unknown.add(join(path, name));
                }
            }
            for (Map.Entry<String, Schema> property : schema.properties().entrySet()) {
                Schema propertySchema = property.getValue();
                if (!out.has(property.getKey()) && propertySchema.defaultValue() != null) {
                    // Defaults are themselves defaulted below, as the apiserver recurses after inserting them.
                    out.set(property.getKey(),
                            process(propertySchema.defaultValue(), propertySchema, join(path, property.getKey())));
                }
            }
            for (String name : schema.required()) {
                if (!out.has(name)) {
                    errors.add(FieldError.required(join(path, name)));
                }
            }
            return out;
        }

        private void checkScalar(JsonNode value, Schema schema, String path) {
            if (!schema.enumValues().isEmpty()
                    && !(value.isString() && schema.enumValues().contains(value.asString()))) {
                errors.add(FieldError.notSupported(path, value, schema.enumValues()));
            }
            if (schema.minimum() != null && value.isNumber()
                    && value.decimalValue().compareTo(BigDecimal.valueOf(schema.minimum())) < 0) {
                errors.add(FieldError.invalid(path, FieldError.render(value),
                        displayPath(path) + " in body should be greater than or equal to " + schema.minimum()));
            }
            checkFormatRange(value, schema, path);
        }

        /**
         * An int32 or int64 field holds only what its Go type can: a KubeRay {@code replicas} of 2147483648 or 1e30
         * would make every reader of the object fail to decode it, so it is refused like a value below a minimum.
         */
        private void checkFormatRange(JsonNode value, Schema schema, String path) {
            if (schema.type() != Schema.Type.INTEGER || !value.isNumber()) {
                return;
            }
            long min;
            long max;
            if ("int32".equals(schema.format())) {
                min = Integer.MIN_VALUE;
                max = Integer.MAX_VALUE;
            } else if ("int64".equals(schema.format())) {
                min = Long.MIN_VALUE;
                max = Long.MAX_VALUE;
            } else {
                return;
            }
            BigDecimal v = value.decimalValue();
            if (v.compareTo(BigDecimal.valueOf(max)) > 0) {
                errors.add(FieldError.invalid(path, FieldError.render(value),
                        displayPath(path) + " in body should be less than or equal to " + max));
            } else if (v.compareTo(BigDecimal.valueOf(min)) < 0) {
                errors.add(FieldError.invalid(path, FieldError.render(value),
                        displayPath(path) + " in body should be greater than or equal to " + min));
            }
        }

        private static boolean typeMatches(JsonNode value, Schema schema) {
            if (schema.intOrString()) {
                return value.isString() || isInteger(value);
            }
            return switch (schema.type()) {
                case OBJECT -> value.isObject();
                case ARRAY -> value.isArray();
                case STRING -> value.isString();
                case BOOLEAN -> value.isBoolean();
                case NUMBER -> value.isNumber();
                case INTEGER -> isInteger(value);
            };
        }

        // The apiserver accepts 2.0 for an integer field, as JSON has a single number type.
        private static boolean isInteger(JsonNode value) {
            if (value.isIntegralNumber()) {
                return true;
            }
            if (!value.isNumber()) {
                return false;
            }
            double d = value.doubleValue();
            return !Double.isInfinite(d) && d == Math.rint(d);
        }

        private static String jsonType(JsonNode value) {
            if (value.isObject()) {
                return "object";
            }
            if (value.isArray()) {
                return "array";
            }
            if (value.isString()) {
                return "string";
            }
            if (value.isBoolean()) {
                return "boolean";
            }
            if (value.isIntegralNumber()) {
                return "integer";
            }
            if (value.isNumber()) {
                return "number";
            }
            return "null";
        }

        private static String join(String path, String name) {
            return path.isEmpty() ? name : path + "." + name;
        }

        private static String displayPath(String path) {
            return path.isEmpty() ? "body" : path;
        }
    }
}
