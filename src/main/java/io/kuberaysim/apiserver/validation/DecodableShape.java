package io.kuberaysim.apiserver.validation;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.MicroTimeSerDes;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.BeanProperty;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.deser.SettableBeanProperty;
import tools.jackson.databind.deser.ValueInstantiator;
import tools.jackson.databind.deser.bean.BeanDeserializer;
import tools.jackson.databind.deser.jdk.CollectionDeserializer;
import tools.jackson.databind.deser.jdk.MapDeserializer;
import tools.jackson.databind.deser.jdk.NumberDeserializers;
import tools.jackson.databind.deser.jdk.StringCollectionDeserializer;
import tools.jackson.databind.deser.jdk.StringDeserializer;
import tools.jackson.databind.deser.jdk.UntypedObjectDeserializer;
import tools.jackson.databind.json.JsonMapper;

import java.lang.reflect.Method;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a model type's strict Jackson deserializer accepts, read from that deserializer (bean properties, element and
 * value types, the scalar deserializers), so that a tree can be checked by walking it instead of building the model:
 * building fabric8's objects by reflection for every write was a tenth of the control loop's time. A shape answers
 * only "certainly decodes" or "may not": anything it does not know exactly (an unusual deserializer, a number where
 * a quantity goes, a property name it cannot place) is "may not", and the caller then decodes with Jackson, whose
 * failure (and message) stays the authority. Shapes are derived lazily and kept per deserializer instance.
 */
abstract sealed class DecodableShape {
    private static final Map<Key, DecodableShape> SHAPES = new ConcurrentHashMap<>();
    private static final Map<Class<?>, DecodableShape> ROOTS = new ConcurrentHashMap<>();

    /**
     * The shape of a child (property, element, value), looked up once on first use and then kept: the shape table's
     * keys compare whole Java types, too slow for every value of every write.
     */
    private static final class Child {
        private final JsonMapper mapper;
        private final JavaType type;
        private final ValueDeserializer<?> deser;
        private volatile DecodableShape shape; // idempotent: a race derives the same shape twice

        Child(JsonMapper mapper, JavaType type, ValueDeserializer<?> deser) {
            this.mapper = mapper;
            this.type = type;
            this.deser = deser;
        }

        DecodableShape get() {
            DecodableShape s = shape;
            if (s == null) {
                s = shape(mapper, type, deser);
                shape = s;
            }
            return s;
        }
    }

    /** Whether a deserializer class specialises itself per property ({@code createContextual}). */
    private static boolean contextual(Class<?> deser) {
        try {
            return deser.getMethod("createContextual", DeserializationContext.class, BeanProperty.class)
                    .getDeclaringClass() != ValueDeserializer.class;
        } catch (NoSuchMethodException e) {
            return true;
        }
    }

    /** A deserializer (Jackson keeps one instance per type and property) and the type it is used for. */
    private record Key(ValueDeserializer<?> deser, JavaType type) {
    }

    /** Whether {@code node} certainly decodes; false when it may not (the caller decodes to find out). */
    abstract boolean accepts(JsonNode node);

    /**
     * Whether {@code node} has, at any depth, a field the model does not declare (fabric8 keeps such a field in
     * {@code additionalProperties}; Go's decoder has nowhere to put it). Allocates nothing: a write without such a
     * field, the usual one, costs one walk of lookups.
     */
    boolean hasUnknownFields(JsonNode node) {
        return false;
    }

    /** Adds the paths of {@code node}'s undeclared fields to {@code out}, as kube-apiserver names them. */
    void unknownFields(JsonNode node, String path, List<String> out) {
    }

    private static String child(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    /** The shape of a root model class under {@code mapper}. */
    static DecodableShape of(JsonMapper mapper, Class<?> model) {
        DecodableShape known = ROOTS.get(model);
        if (known == null) {
            JavaType type = mapper.constructType(model);
            known = shape(mapper, type, mapper._deserializationContext().findRootValueDeserializer(type));
            ROOTS.put(model, known);
        }
        return known;
    }

    private static DecodableShape shape(JsonMapper mapper, JavaType type, ValueDeserializer<?> deser) {
        if (deser == null || type == null) {
            return Unknown.INSTANCE;
        }
        Key key = new Key(deser, type);
        DecodableShape known = SHAPES.get(key);
        if (known == null) {
            known = derive(mapper, type, deser); // lazily, level by level: never recursive, so no computeIfAbsent
            SHAPES.put(key, known);
        }
        return known;
    }

    private static DecodableShape derive(JsonMapper mapper, JavaType type, ValueDeserializer<?> deser) {
        Class<?> raw = type.getRawClass();
        if (raw.isAnnotationPresent(JsonTypeInfo.class)) {
            return Unknown.INSTANCE;
        }
        Class<?> d = deser.getClass();
        if (d == StringDeserializer.class && raw == String.class) {
            return Scalar.STRING;
        }
        if (d == NumberDeserializers.IntegerDeserializer.class) {
            return Scalar.INT;
        }
        if (d == NumberDeserializers.LongDeserializer.class) {
            return Scalar.LONG;
        }
        if (d == NumberDeserializers.BooleanDeserializer.class) {
            return Scalar.BOOLEAN;
        }
        if (d == NumberDeserializers.DoubleDeserializer.class) {
            return Scalar.DOUBLE;
        }
        if (d == TypedDecoding.StrictQuantityDeserializer.class) {
            return Scalar.QUANTITY;
        }
        if (UntypedObjectDeserializer.class.isAssignableFrom(d) && raw == Object.class) {
            return Scalar.ANY;
        }
        if (d == CollectionDeserializer.class && (raw == List.class || raw == Collection.class
                || raw == java.util.ArrayList.class)) {
            CollectionDeserializer c = (CollectionDeserializer) deser;
            return new ListShape(mapper, c.getContentType(), c.getContentDeserializer());
        }
        if (d == StringCollectionDeserializer.class && (raw == List.class || raw == Collection.class
                || raw == java.util.ArrayList.class)) {
            ValueDeserializer<?> content = ((StringCollectionDeserializer) deser).getContentDeserializer();
            return content == null || content.getClass() == StringDeserializer.class ? Scalar.STRING_LIST
                    : Unknown.INSTANCE;
        }
        if (d == MapDeserializer.class && type.getKeyType() != null && type.getKeyType().getRawClass() == String.class
                && (raw == Map.class || raw == java.util.LinkedHashMap.class)) {
            MapDeserializer m = (MapDeserializer) deser;
            return new MapShape(mapper, m.getContentType(), m.getContentDeserializer());
        }
        if (raw == MicroTime.class && d == MicroTimeSerDes.Deserializer.class) {
            return Scalar.STRING; // fabric8's deserializer keeps a string's text as it is (others: Jackson decides)
        }
        if (raw == IntOrString.class && d == BeanDeserializer.class) {
            return Scalar.INT_OR_STRING; // built by its delegating creator from an int or a string, nothing else
        }
        if (d == BeanDeserializer.class) {
            return BeanShape.of(mapper, raw, (BeanDeserializer) deser);
        }
        if (!contextual(d) && d == mapper._deserializationContext().findRootValueDeserializer(type).getClass()) {
            return new Isolated(mapper, type); // a type's own deserializer, the same for every property (MicroTime)
        }
        return Unknown.INSTANCE;
    }

    /** A type whose deserializer is not one of the known ones: only Jackson can tell. */
    static final class Unknown extends DecodableShape {
        static final Unknown INSTANCE = new Unknown();

        @Override
        boolean accepts(JsonNode node) {
            return false;
        }
    }

    /**
     * A type with its own deserializer, used as it is for the property (not specialised for it): the value is decoded on
     * its own, which is what decoding it within the whole tree does.
     */
    static final class Isolated extends DecodableShape {
        private final JsonMapper mapper;
        private final JavaType type;

        Isolated(JsonMapper mapper, JavaType type) {
            this.mapper = mapper;
            this.type = type;
        }

        @Override
        boolean accepts(JsonNode node) {
            try {
                mapper.treeToValue(node, type);
                return true;
            } catch (JacksonException e) {
                return false;
            }
        }
    }

    /** Scalars as the strict mapper takes them: the JSON type must match, no coercion (null is always taken). */
    static final class Scalar extends DecodableShape {
        static final Scalar STRING = new Scalar(0);
        static final Scalar INT = new Scalar(1);
        static final Scalar LONG = new Scalar(2);
        static final Scalar BOOLEAN = new Scalar(3);
        static final Scalar DOUBLE = new Scalar(4);
        static final Scalar QUANTITY = new Scalar(5);
        static final Scalar ANY = new Scalar(6);
        static final Scalar STRING_LIST = new Scalar(7);
        static final Scalar INT_OR_STRING = new Scalar(8);

        private final int kind;

        private Scalar(int kind) {
            this.kind = kind;
        }

        @Override
        boolean accepts(JsonNode node) {
            if (node.isNull()) {
                return true;
            }
            return switch (kind) {
                case 0 -> node.isString();
                case 1 -> node.isInt();
                case 2 -> node.isInt() || node.isLong();
                case 3 -> node.isBoolean();
                case 4 -> node.isDouble();
                case 5 -> node.isString() && QuantityFormat.error(node.asString().trim()) == null;
                case 7 -> strings(node);
                case 8 -> node.isInt() || node.isString();
                default -> true;
            };
        }
    }

    private static boolean strings(JsonNode node) {
        if (!node.isArray()) {
            return false;
        }
        for (JsonNode item : node) {
            if (!item.isString() && !item.isNull()) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code shape} accepts every item of an array or every value of an object. */
    private static boolean everyAccepted(JsonNode container, DecodableShape shape) {
        for (JsonNode item : container.values()) {
            if (!shape.accepts(item)) {
                return false;
            }
        }
        return true;
    }

    /** A list of elements of one shape. */
    static final class ListShape extends DecodableShape {
        private final Child element;

        ListShape(JsonMapper mapper, JavaType elementType, ValueDeserializer<?> elementDeser) {
            this.element = new Child(mapper, elementType, elementDeser);
        }

        @Override
        boolean accepts(JsonNode node) {
            if (node.isNull()) {
                return true;
            }
            return node.isArray() && everyAccepted(node, element.get());
        }

        @Override
        boolean hasUnknownFields(JsonNode node) {
            if (!node.isArray()) {
                return false;
            }
            DecodableShape shape = element.get();
            for (JsonNode item : node) {
                if (shape.hasUnknownFields(item)) {
                    return true;
                }
            }
            return false;
        }

        @Override
        void unknownFields(JsonNode node, String path, List<String> out) {
            if (node.isArray()) {
                for (int i = 0; i < node.size(); i++) {
                    element.get().unknownFields(node.get(i), path + "[" + i + "]", out);
                }
            }
        }
    }

    /** A map from strings to values of one shape. */
    static final class MapShape extends DecodableShape {
        private final Child value;

        MapShape(JsonMapper mapper, JavaType valueType, ValueDeserializer<?> valueDeser) {
            this.value = new Child(mapper, valueType, valueDeser);
        }

        @Override
        boolean accepts(JsonNode node) {
            if (node.isNull()) {
                return true;
            }
            return node.isObject() && everyAccepted(node, value.get());
        }

        @Override
        boolean hasUnknownFields(JsonNode node) {
            if (!node.isObject()) {
                return false;
            }
            DecodableShape shape = value.get();
            for (JsonNode item : node.values()) {
                if (shape.hasUnknownFields(item)) {
                    return true;
                }
            }
            return false;
        }

        @Override
        void unknownFields(JsonNode node, String path, List<String> out) {
            if (node.isObject()) {
                for (Map.Entry<String, JsonNode> e : node.properties()) {
                    value.get().unknownFields(e.getValue(), child(path, e.getKey()), out);
                }
            }
        }
    }

    /**
     * A bean built with its default constructor and setters (fabric8's models): each known property by its shape;
     * other names go to the any-setter ({@code additionalProperties}, any value) when the class has one taking
     * {@code Object}, else they are left to Jackson.
     */
    static final class BeanShape extends DecodableShape {
        private final BeanDeserializer deser;
        private final Map<String, Child> properties;
        private final boolean anyValue;

        private BeanShape(BeanDeserializer deser, Map<String, Child> properties, boolean anyValue) {
            this.deser = deser;
            this.properties = properties;
            this.anyValue = anyValue;
        }

        static DecodableShape of(JsonMapper mapper, Class<?> raw, BeanDeserializer deser) {
            DeserializationContext ctx = mapper._deserializationContext();
            // views (fabric8 marks some properties) only matter when a read names an active view; the strict mapper never does
            ValueInstantiator creator = deser.getValueInstantiator();
            if (deser.getObjectIdReader(ctx) != null || deser.creatorProperties().hasNext() || creator == null
                    || !creator.canCreateUsingDefault() || creator.canCreateUsingDelegate()
                    || creator.canCreateUsingArrayDelegate()) {
                return Unknown.INSTANCE;
            }
            Map<String, Child> props = new HashMap<>();
            for (var it = deser.properties(); it.hasNext(); ) {
                SettableBeanProperty p = it.next();
                if (p.hasValueTypeDeserializer() || p.getValueDeserializer() == null) {
                    return Unknown.INSTANCE;
                }
                props.put(p.getName(), new Child(mapper, p.getType(), p.getValueDeserializer()));
            }
            return new BeanShape(deser, Map.copyOf(props), deser.hasAnySetter() && objectAnySetter(raw));
        }

        private static boolean objectAnySetter(Class<?> raw) {
            for (Method m : raw.getMethods()) {
                if (m.isAnnotationPresent(JsonAnySetter.class)) {
                    Class<?>[] params = m.getParameterTypes();
                    return params.length == 2 && params[0] == String.class && params[1] == Object.class;
                }
            }
            return false;
        }

        @Override
        boolean accepts(JsonNode node) {
            if (node.isNull()) {
                return true;
            }
            if (!node.isObject()) {
                return false;
            }
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                Child p = properties.get(e.getKey());
                if (p == null) {
                    if (!anyValue || deser.hasProperty(e.getKey())) {
                        return false;
                    }
                    continue;
                }
                if (!p.get().accepts(e.getValue())) {
                    return false;
                }
            }
            return true;
        }

        @Override
        boolean hasUnknownFields(JsonNode node) {
            if (!node.isObject()) {
                return false;
            }
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                Child p = properties.get(e.getKey());
                if (p == null ? undeclared(e.getKey()) : p.get().hasUnknownFields(e.getValue())) {
                    return true;
                }
            }
            return false;
        }

        @Override
        void unknownFields(JsonNode node, String path, List<String> out) {
            if (!node.isObject()) {
                return;
            }
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                Child p = properties.get(e.getKey());
                if (p == null) {
                    if (undeclared(e.getKey())) {
                        out.add(child(path, e.getKey()));
                    }
                } else {
                    p.get().unknownFields(e.getValue(), child(path, e.getKey()), out);
                }
            }
        }

        /** A name that is no property: it goes to the any-setter (or makes Jackson fail, which is the mismatch). */
        private boolean undeclared(String name) {
            return !deser.hasProperty(name);
        }
    }
}
