package io.kuberaysim.api.schema;

import java.util.AbstractMap;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An immutable node of a structural schema, the subset of OpenAPI v3 that CustomResourceDefinitions use.
 * The same tree drives validation, pruning and defaulting ({@link StructuralValidator}) and the OpenAPI
 * document served for {@code kubectl explain} ({@link #toOpenApi(JsonMapper)}).
 *
 * @param type                  the JSON type; {@code null} only for int-or-string nodes, which have none
 * @param format                OpenAPI format such as {@code int32} or {@code date-time}, or {@code null}
 * @param description           documentation, or {@code null}
 * @param properties            named properties of an object, in declaration order
 * @param required              names of required properties
 * @param items                 schema of array elements, or {@code null}
 * @param additionalProperties  schema of map values, or {@code null}
 * @param defaultValue          CRD default, or {@code null}
 * @param enumValues            allowed string values, empty when unrestricted
 * @param preserveUnknownFields keep the value exactly as given, with no validation below it
 * @param intOrString           accept an integer or a string
 * @param minimum               inclusive lower bound, or {@code null}
 */
public record Schema(
        Type type,
        String format,
        String description,
        Map<String, Schema> properties,
        List<String> required,
        Schema items,
        Schema additionalProperties,
        JsonNode defaultValue,
        List<String> enumValues,
        boolean preserveUnknownFields,
        boolean intOrString,
        Long minimum) {

    /** JSON types as named by OpenAPI and by the apiserver's error messages. */
    public enum Type {
        OBJECT("object"), ARRAY("array"), STRING("string"), INTEGER("integer"), NUMBER("number"), BOOLEAN("boolean");

        private final String jsonName;

        Type(String jsonName) {
            this.jsonName = jsonName;
        }

        /** The OpenAPI name, e.g. {@code integer}. */
        public String jsonName() {
            return jsonName;
        }
    }

    /** Copies the collections so a schema can be shared freely between threads and callers. */
    public Schema {
        properties = PropertyMap.of(properties);
        required = required == null ? List.of() : List.copyOf(required);
        enumValues = enumValues == null ? List.of() : List.copyOf(enumValues);
        defaultValue = defaultValue == null ? null : defaultValue.deepCopy();
        if (type == null && !intOrString) {
            throw new IllegalArgumentException("only int-or-string schemas may omit the type");
        }
    }

    /**
     * The properties that have a default, in declaration order: every object of a write looks for its missing
     * ones, and scanning all declared properties for them cost more than the rest of the check (a Pod template's
     * schema declares dozens, none with a default).
     */
    public List<Map.Entry<String, Schema>> defaultedProperties() {
        return properties instanceof PropertyMap p ? p.defaulted : List.of();
    }

    /** Read-only properties in declaration order, the defaulted ones also listed apart. */
    private static final class PropertyMap extends AbstractMap<String, Schema> {
        private final Map<String, Schema> byName;
        private final List<Map.Entry<String, Schema>> defaulted;

        private PropertyMap(Map<String, Schema> properties) {
            this.byName = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
            this.defaulted = byName.entrySet().stream().filter(e -> e.getValue().defaultValue() != null)
                    .map(e -> Map.entry(e.getKey(), e.getValue())).toList();
        }

        static Map<String, Schema> of(Map<String, Schema> properties) {
            if (properties == null || properties.isEmpty()) {
                return Map.of();
            }
            return properties instanceof PropertyMap p ? p : new PropertyMap(properties);
        }

        @Override
        public Set<Entry<String, Schema>> entrySet() {
            return byName.entrySet();
        }

        @Override
        public Schema get(Object key) {
            return byName.get(key);
        }

        @Override
        public boolean containsKey(Object key) {
            return byName.containsKey(key);
        }

        @Override
        public int size() {
            return byName.size();
        }
    }

    /** A schema of the given scalar type with no further constraints. */
    public static Schema of(Type type) {
        return new Schema(type, null, null, null, null, null, null, null, null, false, false, null);
    }

    /** An object with the given properties (in order) and required names. */
    public static Schema object(Map<String, Schema> properties, List<String> required) {
        return new Schema(Type.OBJECT, null, null, properties, required, null, null, null, null, false, false, null);
    }

    /** An array whose elements match {@code items}. */
    public static Schema array(Schema items) {
        return new Schema(Type.ARRAY, null, null, null, null, Objects.requireNonNull(items), null, null, null,
                false, false, null);
    }

    /** A map from string keys to values matching {@code values}. */
    public static Schema map(Schema values) {
        return new Schema(Type.OBJECT, null, null, null, null, null, Objects.requireNonNull(values), null, null,
                false, false, null);
    }

    /** An object kept exactly as given. */
    public static Schema preservedObject() {
        return new Schema(Type.OBJECT, null, null, null, null, null, null, null, null, true, false, null);
    }

    /** An integer-or-string value (quantities, ports). */
    public static Schema intOrStringValue() {
        return new Schema(null, null, null, null, null, null, null, null, null, false, true, null);
    }

    /** This schema with another format. */
    public Schema withFormat(String newFormat) {
        return new Schema(type, newFormat, description, properties, required, items, additionalProperties,
                defaultValue, enumValues, preserveUnknownFields, intOrString, minimum);
    }

    /** This schema with another description. */
    public Schema withDescription(String newDescription) {
        return new Schema(type, format, newDescription, properties, required, items, additionalProperties,
                defaultValue, enumValues, preserveUnknownFields, intOrString, minimum);
    }

    /** This schema with another default. */
    public Schema withDefault(JsonNode newDefault) {
        return new Schema(type, format, description, properties, required, items, additionalProperties,
                newDefault, enumValues, preserveUnknownFields, intOrString, minimum);
    }

    /** This schema restricted to the given values. */
    public Schema withEnum(List<String> values) {
        return new Schema(type, format, description, properties, required, items, additionalProperties,
                defaultValue, values, preserveUnknownFields, intOrString, minimum);
    }

    /** This schema with another minimum. */
    public Schema withMinimum(Long newMinimum) {
        return new Schema(type, format, description, properties, required, items, additionalProperties,
                defaultValue, enumValues, preserveUnknownFields, intOrString, newMinimum);
    }

    /** This schema with preservation of unknown fields switched on. */
    public Schema preservingUnknownFields() {
        return new Schema(type, format, description, properties, required, items, additionalProperties,
                defaultValue, enumValues, true, intOrString, minimum);
    }

    /**
     * Follows a dotted property path ({@code spec.workerGroupSpecs}); array and map levels are stepped
     * through transparently, which is how {@code kubectl explain} addresses fields.
     *
     * @return the schema at that path, or {@code null} if there is none
     */
    public Schema at(String dottedPath) {
        Schema current = this;
        for (String part : dottedPath.split("\\.")) {
            if (part.isEmpty()) {
                continue;
            }
            while (current != null && current.type == Type.ARRAY) {
                current = current.items;
            }
            if (current == null) {
                return null;
            }
            Schema next = current.properties.get(part);
            if (next == null && current.additionalProperties != null) {
                next = current.additionalProperties;
            }
            current = next;
        }
        return current;
    }

    /** Renders this node as OpenAPI v3 JSON, including the Kubernetes {@code x-kubernetes-*} extensions. */
    public ObjectNode toOpenApi(JsonMapper mapper) {
        ObjectNode node = mapper.createObjectNode();
        if (description != null) {
            node.put("description", description);
        }
        if (type != null) {
            node.put("type", type.jsonName());
        }
        if (format != null) {
            node.put("format", format);
        }
        if (defaultValue != null) {
            node.set("default", defaultValue.deepCopy());
        }
        if (!enumValues.isEmpty()) {
            ArrayNode values = node.putArray("enum");
            enumValues.forEach(values::add);
        }
        if (minimum != null) {
            node.put("minimum", minimum.longValue());
        }
        if (!properties.isEmpty()) {
            ObjectNode props = node.putObject("properties");
            properties.forEach((name, schema) -> props.set(name, schema.toOpenApi(mapper)));
        }
        if (!required.isEmpty()) {
            ArrayNode names = node.putArray("required");
            required.forEach(names::add);
        }
        if (items != null) {
            node.set("items", items.toOpenApi(mapper));
        }
        if (additionalProperties != null) {
            node.set("additionalProperties", additionalProperties.toOpenApi(mapper));
        }
        if (preserveUnknownFields) {
            node.put("x-kubernetes-preserve-unknown-fields", true);
        }
        if (intOrString) {
            node.put("x-kubernetes-int-or-string", true);
        }
        return node;
    }
}
