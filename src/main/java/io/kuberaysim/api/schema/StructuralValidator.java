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
 * {@link #validate} leaves its input alone and answers a new tree; {@link #validateInPlace} prunes and defaults a
 * tree its caller owns, without building a second one (a write's body is dropped once checked, so the copy was
 * waste: ~40 % of the check's time on an HTTP create, with the defaults scan below).
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
        return run(body, schema, basePath, false);
    }

    /**
     * The same check, pruning and defaulting {@code body} itself, which is then the result's value: every node in
     * it must be the caller's own, changeable and in it once (a freshly decoded or deep-copied tree), except for
     * read-only containers (of another class than Jackson's own): those must be parts a write keeps of the stored
     * object, at the place they have there, and are kept as they are without a walk, since they passed this check
     * against the same schema when they were stored. For a tree without such parts the value, unknown fields and
     * errors are those {@link #validate} gives for the same input.
     */
    public static ValidationResult validateInPlace(JsonNode body, Schema schema, String basePath) {
        return run(body, schema, basePath, true);
    }

    private static ValidationResult run(JsonNode body, Schema schema, String basePath, boolean inPlace) {
        Walk walk = new Walk(inPlace);
        JsonNode value = walk.process(body, schema, FieldPath.root(basePath == null ? "" : basePath));
        // Sorted, as the apiserver sorts its unknown-field warnings, so output does not depend on key order.
        walk.unknown.sort(null);
        return new ValidationResult(value, walk.unknown, walk.errors);
    }

    /**
     * Where a value is, rendered only when an error or an unknown field names it: a write's body has a few hundred
     * fields and nearly always neither.
     */
    private static final class FieldPath {
        private final FieldPath parent;
        private final String name;
        private final int index;

        private FieldPath(FieldPath parent, String name, int index) {
            this.parent = parent;
            this.name = name;
            this.index = index;
        }

        static FieldPath root(String base) {
            return new FieldPath(null, base, -1);
        }

        FieldPath field(String fieldName) {
            return new FieldPath(this, fieldName, -1);
        }

        FieldPath item(int i) {
            return new FieldPath(this, null, i);
        }

        @Override
        public String toString() {
            StringBuilder out = new StringBuilder();
            append(out);
            return out.toString();
        }

        private void append(StringBuilder out) {
            if (parent == null) {
                out.append(name);
                return;
            }
            parent.append(out);
            if (name == null) {
                out.append('[').append(index).append(']');
            } else {
                if (!out.isEmpty()) {
                    out.append('.');
                }
                out.append(name);
            }
        }

        /** {@code body} for the whole object, as the apiserver's messages say. */
        String display() {
            String p = toString();
            return p.isEmpty() ? "body" : p;
        }
    }

    /** Mutable state of one validation run. */
    private static final class Walk {
        final List<String> unknown = new ArrayList<>();
        final List<FieldError> errors = new ArrayList<>();
        /** Whether the input is changed in place (containers of Jackson's own classes only) rather than copied. */
        private final boolean inPlace;

        Walk(boolean inPlace) {
            this.inPlace = inPlace;
        }

        JsonNode process(JsonNode value, Schema schema, FieldPath path) {
            if (inPlace && readOnly(value)) {
                return value; // a stored part, checked when it was stored
            }
            if (!typeMatches(value, schema)) {
                String actual = jsonType(value);
                String expected = schema.intOrString() ? "integer,string" : schema.type().jsonName();
                String field = path.toString();
                errors.add(FieldError.invalid(field, FieldError.quote(actual),
                        path.display() + " in body must be of type " + expected + ": " + FieldError.quote(actual)));
                // The apiserver checks the enum independently of the type, so both errors appear.
                if (!schema.enumValues().isEmpty() && value.isValueNode() && !value.isNull()) {
                    errors.add(FieldError.notSupported(field, value, schema.enumValues()));
                }
                return inPlace ? value : value.deepCopy();
            }
            if (value.isObject()) {
                return processObject((ObjectNode) value, schema, path);
            }
            if (value.isArray()) {
                return processArray((ArrayNode) value, schema, path);
            }
            checkScalar(value, schema, path);
            return value.deepCopy();
        }

        /** A container of another class than Jackson's own, changeable ones (the store's read-only trees). */
        private static boolean readOnly(JsonNode node) {
            return node.isContainer() && node.getClass() != ObjectNode.class && node.getClass() != ArrayNode.class;
        }

        // In place, every container walked is changeable (read-only ones are not walked) and every process() call
        // answers the node it was given: nothing is replaced, only fields dropped and defaults added.

        private JsonNode processArray(ArrayNode value, Schema schema, FieldPath path) {
            if (inPlace) {
                for (int i = 0; i < value.size(); i++) {
                    process(value.get(i), schema.items(), path.item(i));
                }
                return value;
            }
            ArrayNode out = NODES.arrayNode();
            for (int i = 0; i < value.size(); i++) {
                out.add(process(value.get(i), schema.items(), path.item(i)));
            }
            return out;
        }

        private JsonNode processObject(ObjectNode value, Schema schema, FieldPath path) {
            if (schema.preserveUnknownFields() && schema.properties().isEmpty()
                    && schema.additionalProperties() == null) {
                return inPlace ? value : value.deepCopy();
            }
            ObjectNode out = inPlace ? value : NODES.objectNode();
            List<String> dropped = null;
            for (Map.Entry<String, JsonNode> field : value.properties()) {
                String name = field.getKey();
                JsonNode child = field.getValue();
                Schema declared = schema.properties().get(name);
                if (declared == null) {
                    declared = schema.additionalProperties();
                }
                JsonNode kept;
                if (declared != null) {
                    // CRD structural defaulting drops nulls of non-nullable fields before defaulting.
                    kept = child.isNull() ? null : process(child, declared, path.field(name));
                } else if (schema.preserveUnknownFields()) {
                    kept = inPlace ? child : child.deepCopy();
                } else {
                    unknown.add(path.field(name).toString());
                    kept = null;
                }
                if (!inPlace && kept != null) {
                    out.set(name, kept);
                } else if (inPlace && kept == null) {
                    dropped = dropped == null ? new ArrayList<>() : dropped;
                    dropped.add(name);
                }
            }
            if (dropped != null) {
                dropped.forEach(out::remove); // after the walk over the fields, not during it
            }
            for (Map.Entry<String, Schema> property : schema.defaultedProperties()) {
                Schema propertySchema = property.getValue();
                if (!out.has(property.getKey())) {
                    // Defaults are themselves defaulted below, as the apiserver recurses after inserting them; the
                    // schema's own default is never changed, so the in-place walk gets a copy of it.
                    JsonNode defaultValue = inPlace ? propertySchema.defaultValue().deepCopy()
                            : propertySchema.defaultValue();
                    out.set(property.getKey(), process(defaultValue, propertySchema, path.field(property.getKey())));
                }
            }
            for (String name : schema.required()) {
                if (!out.has(name)) {
                    errors.add(FieldError.required(path.field(name).toString()));
                }
            }
            return out;
        }

        private void checkScalar(JsonNode value, Schema schema, FieldPath path) {
            if (!schema.enumValues().isEmpty()
                    && !(value.isString() && schema.enumValues().contains(value.asString()))) {
                errors.add(FieldError.notSupported(path.toString(), value, schema.enumValues()));
            }
            if (schema.minimum() != null && value.isNumber()
                    && value.decimalValue().compareTo(BigDecimal.valueOf(schema.minimum())) < 0) {
                errors.add(FieldError.invalid(path.toString(), FieldError.render(value),
                        path.display() + " in body should be greater than or equal to " + schema.minimum()));
            }
            checkFormatRange(value, schema, path);
        }
        /**
         * An int32 or int64 field holds only what its Go type can: a KubeRay {@code replicas} of 2147483648 or 1e30
         * would make every reader of the object fail to decode it, so it is refused like a value below a minimum.
         */
        private void checkFormatRange(JsonNode value, Schema schema, FieldPath path) {
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
                errors.add(FieldError.invalid(path.toString(), FieldError.render(value),
                        path.display() + " in body should be less than or equal to " + max));
            } else if (v.compareTo(BigDecimal.valueOf(min)) < 0) {
                errors.add(FieldError.invalid(path.toString(), FieldError.render(value),
                        path.display() + " in body should be greater than or equal to " + min));
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
    }
}
