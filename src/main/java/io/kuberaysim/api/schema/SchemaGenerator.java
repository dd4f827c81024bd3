package io.kuberaysim.api.schema;

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.kubernetes.api.model.Quantity;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Derives a structural {@link Schema} from Java records by reflection, so that one type definition feeds
 * deserialisation, validation, defaulting and the published OpenAPI.
 *
 * <p>Mapping: record → object (property name = {@code @JsonProperty} value or component name);
 * {@code Map<String, X>} → object with additionalProperties; {@code List<X>} → array; {@code String},
 * {@code int}/{@code long} (integer int32/int64), {@code boolean}, {@code float}/{@code double} (number);
 * enums → string with enum values; {@code Instant}/{@code OffsetDateTime} → string date-time;
 * {@code JsonNode}/{@code ObjectNode} → object preserving unknown fields; fabric8 {@code Quantity} →
 * int-or-string. Results are cached per class.
 */
public final class SchemaGenerator {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    private static final Map<Class<?>, Schema> CACHE = new ConcurrentHashMap<>();
    // Guards against self-referencing records, which a structural schema cannot express.
    private static final ThreadLocal<Set<Class<?>>> IN_PROGRESS = ThreadLocal.withInitial(HashSet::new);

    private SchemaGenerator() {
    }

    /**
     * The schema of a record type (or any supported type).
     *
     * @throws IllegalArgumentException for a type the mapping does not cover, or a recursive record
     */
    public static Schema generate(Class<?> type) {
        Schema cached = CACHE.get(type);
        if (cached != null) {
            return cached;
        }
        Schema schema = schemaOf(type, type);
        CACHE.putIfAbsent(type, schema);
        return schema;
    }

    private static Schema recordSchema(Class<?> recordType) {
        Set<Class<?>> inProgress = IN_PROGRESS.get();
        if (!inProgress.add(recordType)) {
            throw new IllegalArgumentException("recursive record type " + recordType.getName());
        }
        try {
            Map<String, Schema> properties = new LinkedHashMap<>();
            List<String> required = new ArrayList<>();
            for (RecordComponent component : recordType.getRecordComponents()) {
                String name = jsonName(component);
                properties.put(name, componentSchema(component));
                if (annotation(component, Required.class) != null) {
                    required.add(name);
                }
            }
            Schema schema = Schema.object(properties, required);
            Description description = recordType.getAnnotation(Description.class);
            return description == null ? schema : schema.withDescription(description.value());
        } finally {
            inProgress.remove(recordType);
        }
    }

    private static Schema componentSchema(RecordComponent component) {
        Schema schema;
        if (annotation(component, IntOrString.class) != null) {
            schema = Schema.intOrStringValue();
        } else {
            schema = schemaOf(component.getGenericType(), component.getType());
            if (annotation(component, PreserveUnknownFields.class) != null) {
                schema = schema.preservingUnknownFields();
            }
        }
        Description description = annotation(component, Description.class);
        if (description != null) {
            schema = schema.withDescription(description.value());
        }
        Default defaultValue = annotation(component, Default.class);
        if (defaultValue != null) {
            schema = schema.withDefault(parseDefault(component, defaultValue.value()));
        }
        Minimum minimum = annotation(component, Minimum.class);
        if (minimum != null) {
            schema = schema.withMinimum(minimum.value());
        }
        return schema;
    }

    private static JsonNode parseDefault(RecordComponent component, String literal) {
        try {
            return MAPPER.readTree(literal);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("@Default of " + component.getDeclaringRecord().getSimpleName() + "."
                    + component.getName() + " is not a JSON literal: " + literal, e);
        }
    }

    private static Schema schemaOf(Type genericType, Class<?> raw) {
        if (raw == String.class) {
            return Schema.of(Schema.Type.STRING);
        }
        if (raw == int.class || raw == Integer.class || raw == short.class || raw == Short.class) {
            return Schema.of(Schema.Type.INTEGER).withFormat("int32");
        }
        if (raw == long.class || raw == Long.class) {
            return Schema.of(Schema.Type.INTEGER).withFormat("int64");
        }
        if (raw == boolean.class || raw == Boolean.class) {
            return Schema.of(Schema.Type.BOOLEAN);
        }
        if (raw == double.class || raw == Double.class) {
            return Schema.of(Schema.Type.NUMBER).withFormat("double");
        }
        if (raw == float.class || raw == Float.class) {
            return Schema.of(Schema.Type.NUMBER).withFormat("float");
        }
        if (raw == Instant.class || raw == OffsetDateTime.class) {
            return Schema.of(Schema.Type.STRING).withFormat("date-time");
        }
        if (raw == Quantity.class) {
            return Schema.intOrStringValue();
        }
        if (JsonNode.class.isAssignableFrom(raw)) {
            return Schema.preservedObject();
        }
        if (raw.isEnum()) {
            return Schema.of(Schema.Type.STRING).withEnum(enumNames(raw));
        }
        if (Map.class.isAssignableFrom(raw)) {
            Type[] args = typeArguments(genericType, raw);
            if (args[0] != String.class) {
                throw new IllegalArgumentException("map keys must be strings: " + genericType);
            }
            return Schema.map(schemaOf(args[1], rawClass(args[1])));
        }
        if (Collection.class.isAssignableFrom(raw)) {
            Type element = typeArguments(genericType, raw)[0];
            return Schema.array(schemaOf(element, rawClass(element)));
        }
        if (raw.isRecord()) {
            Schema cached = CACHE.get(raw);
            if (cached != null) {
                return cached;
            }
            Schema schema = recordSchema(raw);
            CACHE.putIfAbsent(raw, schema);
            return schema;
        }
        throw new IllegalArgumentException("no structural schema mapping for " + genericType.getTypeName());
    }

    private static Type[] typeArguments(Type genericType, Class<?> raw) {
        if (genericType instanceof ParameterizedType parameterized) {
            return parameterized.getActualTypeArguments();
        }
        throw new IllegalArgumentException("raw " + raw.getSimpleName() + " needs type arguments");
    }

    private static Class<?> rawClass(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType parameterized) {
            return (Class<?>) parameterized.getRawType();
        }
        throw new IllegalArgumentException("unsupported type " + type.getTypeName());
    }

    private static List<String> enumNames(Class<?> enumType) {
        List<String> names = new ArrayList<>();
        for (Object constant : enumType.getEnumConstants()) {
            String name = constant.toString();
            try {
                Field field = enumType.getField(((Enum<?>) constant).name());
                JsonProperty property = field.getAnnotation(JsonProperty.class);
                if (property != null && !property.value().isEmpty()) {
                    name = property.value();
                }
            } catch (NoSuchFieldException e) {
                throw new IllegalStateException(e);
            }
            names.add(name);
        }
        return names;
    }

    private static String jsonName(RecordComponent component) {
        JsonProperty property = annotation(component, JsonProperty.class);
        return property != null && !property.value().isEmpty() ? property.value() : component.getName();
    }

    /**
     * Annotations written on a record component land on the component, the accessor, the field or the
     * constructor parameter depending on their targets; Jackson's do not target components, so look at all.
     */
    private static <A extends java.lang.annotation.Annotation> A annotation(RecordComponent component,
            Class<A> type) {
        A found = component.getAnnotation(type);
        if (found != null) {
            return found;
        }
        found = component.getAccessor().getAnnotation(type);
        if (found != null) {
            return found;
        }
        try {
            AnnotatedElement field = component.getDeclaringRecord().getDeclaredField(component.getName());
            return field.getAnnotation(type);
        } catch (NoSuchFieldException e) {
            return null;
        }
    }
}
