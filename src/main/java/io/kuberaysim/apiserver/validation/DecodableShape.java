package io.kuberaysim.apiserver.validation;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.fabric8.kubernetes.api.model.IntOrString;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.AnnotationIntrospector;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.BeanProperty;
import tools.jackson.databind.DeserializationConfig;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.deser.SettableBeanProperty;
import tools.jackson.databind.deser.ValueDeserializerModifier;
import tools.jackson.databind.deser.ValueInstantiator;
import tools.jackson.databind.deser.bean.BeanDeserializer;
import tools.jackson.databind.deser.jdk.CollectionDeserializer;
import tools.jackson.databind.deser.jdk.MapDeserializer;
import tools.jackson.databind.deser.jdk.NumberDeserializers;
import tools.jackson.databind.deser.jdk.StringCollectionDeserializer;
import tools.jackson.databind.deser.jdk.StringDeserializer;
import tools.jackson.databind.deser.jdk.UntypedObjectDeserializer;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;

import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a model type's strict Jackson deserializer accepts, read from that deserializer (bean properties, element and
 * value types, the scalar deserializers), so that a tree can be checked by walking it instead of building the model:
 * building fabric8's objects by reflection for every write was a tenth of the control loop's time. A shape answers
 * only "certainly decodes" or "may not": anything it does not know exactly (an unusual deserializer, a number where
 * a quantity goes, a property name it cannot place) is "may not", and the caller then decodes with Jackson, whose
 * failure (and message) stays the authority. Shapes are derived lazily and kept per deserializer instance.
 * <p>
 * Read from a mapper with {@link #unresolvedBeans()}, a shape costs only the types a tree reaches: Jackson resolves a
 * bean deserializer's whole graph at once (every volume source, probe and affinity term of a Pod, about a second
 * cold), so that mapper leaves bean deserializers unresolved and each property's deserializer is found, as Jackson's
 * resolution finds it, when a tree first reaches the property.
 */
abstract sealed class DecodableShape {
    private static final Map<Key, DecodableShape> SHAPES = new ConcurrentHashMap<>();
    private static final Map<Root, DecodableShape> ROOTS = new ConcurrentHashMap<>();

    /**
     * The shape of a child (property, element, value), looked up once on first use and then kept: the shape table's
     * keys compare whole Java types, too slow for every value of every write.
     */
    private static final class Child {
        private final JsonMapper mapper;
        private final JavaType type;
        private final ValueDeserializer<?> deser;
        private final SettableBeanProperty unresolved; // a property whose deserializer is found on first use
        private volatile DecodableShape shape; // idempotent: a race derives the same shape twice

        Child(JsonMapper mapper, JavaType type, ValueDeserializer<?> deser) {
            this.mapper = mapper;
            this.type = type;
            this.deser = deser;
            this.unresolved = null;
        }

        Child(JsonMapper mapper, SettableBeanProperty unresolved) {
            this.mapper = mapper;
            this.type = unresolved.getType();
            this.deser = null;
            this.unresolved = unresolved;
        }

        DecodableShape get() {
            DecodableShape s = shape;
            if (s == null) {
                s = shape(mapper, type, unresolved == null ? deser : propertyDeserializer(mapper, unresolved));
                shape = s;
            }
            return s;
        }
    }

    /**
     * A module for the mapper shapes are read from: its bean deserializers are built (properties, creators,
     * any-setter) but not resolved, so that reading a shape does not build the deserializers of every type the bean
     * reaches. That mapper is for shapes only; it never decodes.
     */
    static SimpleModule unresolvedBeans() {
        return new SimpleModule("unresolved-beans").setDeserializerModifier(new LeaveBeansUnresolved());
    }

    private static final class LeaveBeansUnresolved extends ValueDeserializerModifier {
        @Override
        public ValueDeserializer<?> modifyDeserializer(DeserializationConfig config, BeanDescription.Supplier beanDesc,
                                                       ValueDeserializer<?> deserializer) {
            return deserializer.getClass() == BeanDeserializer.class
                    ? new UnresolvedBean((BeanDeserializer) deserializer) : deserializer;
        }
    }

    /** A bean deserializer as built, before resolution: what its properties are, not yet how they decode. */
    static final class UnresolvedBean extends BeanDeserializer {
        UnresolvedBean(BeanDeserializer built) {
            super(built);
        }

        @Override
        public void resolve(DeserializationContext ctxt) {
            // each property's deserializer is found when a shape first needs it (propertyDeserializer)
        }

        @Override
        public ValueDeserializer<?> createContextual(DeserializationContext ctxt, BeanProperty property) {
            return this;
        }

        @Override
        public Object deserialize(JsonParser p, DeserializationContext ctxt) {
            throw new UnsupportedOperationException("an unresolved bean deserializer only describes a shape");
        }
    }

    /**
     * The deserializer Jackson's resolution of a bean gives {@code p} (its annotated one or its type's,
     * contextualised for the property); null, so "may not", when a converter is involved.
     */
    private static ValueDeserializer<?> propertyDeserializer(JsonMapper mapper, SettableBeanProperty p) {
        DeserializationContext ctx = mapper._deserializationContext();
        AnnotationIntrospector intr = ctx.getAnnotationIntrospector();
        if (intr != null && intr.findDeserializationConverter(ctx.getConfig(), p.getMember()) != null) {
            return null;
        }
        ValueDeserializer<Object> d = p.hasValueDeserializer() ? p.getValueDeserializer()
                : ctx.findNonContextualValueDeserializer(p.getType());
        return d == null ? null : ctx.handlePrimaryContextualization(d, p, p.getType());
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

    private record Root(JsonMapper mapper, Class<?> model) {
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

    /**
     * This shape and every shape it reaches, one line per bean ({@code io...Pod: metadata=ObjectMeta, ...}),
     * sorted: how two derivations of a model's shape are compared. Derives every shape it reaches.
     */
    final String outline() {
        Set<String> lines = new TreeSet<>();
        Set<BeanShape> done = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<BeanShape> reached = new ArrayDeque<>();
        lines.add("(root) " + signature(this, reached));
        while (!reached.isEmpty()) {
            BeanShape bean = reached.poll();
            if (!done.add(bean)) {
                continue;
            }
            Set<String> props = new TreeSet<>();
            bean.properties.forEach((name, p) -> props.add(name + "=" + signature(p.get(), reached)));
            lines.add(bean.raw.getName() + (bean.anyValue ? " (any)" : "") + ": " + String.join(", ", props));
        }
        return String.join("\n", lines);
    }

    private static String signature(DecodableShape shape, Deque<BeanShape> reached) {
        if (shape instanceof Scalar s) {
            return "scalar" + s.kind;
        }
        if (shape instanceof ListShape l) {
            return "[" + signature(l.element.get(), reached) + "]";
        }
        if (shape instanceof MapShape m) {
            return "{" + signature(m.value.get(), reached) + "}";
        }
        if (shape instanceof BeanShape b) {
            reached.add(b);
            return b.raw.getSimpleName();
        }
        return shape instanceof Isolated i ? "isolated " + i.type : "unknown";
    }

    private static String child(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    /** The shape of a root model class under {@code mapper}. */
    static DecodableShape of(JsonMapper mapper, Class<?> model) {
        Root root = new Root(mapper, model);
        DecodableShape known = ROOTS.get(root);
        if (known == null) {
            JavaType type = mapper.constructType(model);
            known = shape(mapper, type, mapper._deserializationContext().findRootValueDeserializer(type));
            ROOTS.put(root, known);
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
        if (d == TypedDecoding.StrictMicroTimeDeserializer.class
                || d == TypedDecoding.StrictZonedMicroTimeDeserializer.class) {
            return Scalar.MICRO_TIME;
        }
        if (raw == IntOrString.class && (d == BeanDeserializer.class || d == UnresolvedBean.class)) {
            return Scalar.INT_OR_STRING; // built by its delegating creator from an int or a string, nothing else
        }
        if (d == BeanDeserializer.class || d == UnresolvedBean.class) {
            return BeanShape.of(mapper, raw, (BeanDeserializer) deser);
        }
        if (!contextual(d) && d == mapper._deserializationContext().findRootValueDeserializer(type).getClass()) {
            return new Isolated(type); // a type's own deserializer, the same for every property
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
     * its own, which is what decoding it within the whole tree does. It is decoded with {@link TypedDecoding#STRICT}
     * whichever mapper the shape was read from: {@link TypedDecoding#SHAPES}, its twin for shapes, cannot decode.
     */
    static final class Isolated extends DecodableShape {
        private final JavaType type;

        Isolated(JavaType type) {
            this.type = type;
        }

        @Override
        boolean accepts(JsonNode node) {
            try {
                TypedDecoding.STRICT.treeToValue(node, type);
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
        static final Scalar MICRO_TIME = new Scalar(9);

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
                case 9 -> node.isString() && TypedDecoding.microTimeError(node) == null;
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
        private final Class<?> raw;
        private final BeanDeserializer deser;
        private final Map<String, Child> properties;
        private final boolean anyValue;

        private BeanShape(Class<?> raw, BeanDeserializer deser, Map<String, Child> properties, boolean anyValue) {
            this.raw = raw;
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
                    || creator.canCreateUsingArrayDelegate() || creator.canCreateFromObjectWith()) {
                return Unknown.INSTANCE;
            }
            boolean unresolved = deser instanceof UnresolvedBean;
            AnnotationIntrospector intr = ctx.getAnnotationIntrospector();
            Map<String, Child> props = new HashMap<>();
            for (var it = deser.properties(); it.hasNext(); ) {
                SettableBeanProperty p = it.next();
                if (p.hasValueTypeDeserializer()) {
                    return Unknown.INSTANCE;
                }
                if (unresolved) {
                    // resolution would take an unwrapped property out of the bean's own names
                    if (intr != null && p.getMember() != null
                            && intr.findUnwrappingNameTransformer(ctx.getConfig(), p.getMember()) != null) {
                        return Unknown.INSTANCE;
                    }
                    props.put(p.getName(), new Child(mapper, p));
                } else if (p.getValueDeserializer() == null) {
                    return Unknown.INSTANCE;
                } else {
                    props.put(p.getName(), new Child(mapper, p.getType(), p.getValueDeserializer()));
                }
            }
            return new BeanShape(raw, deser, Map.copyOf(props), deser.hasAnySetter() && objectAnySetter(raw));
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
