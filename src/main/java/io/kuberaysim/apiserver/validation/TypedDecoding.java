package io.kuberaysim.apiserver.validation;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.Quantity;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.lang.reflect.Field;
import java.math.BigDecimal;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Decodes a JSON tree into a typed model of a Kubernetes kind (fabric8's {@code Pod}, {@code Node},
 * {@code DeleteOptions}, ...) as strictly as kube-apiserver's Go decoding does: no string for a number, no number
 * for a string, no fraction or out-of-range number for an integer, and every {@code resource.Quantity} well formed.
 * Unknown fields are not an error here (the models keep them). A failure is described the way Go's
 * {@code encoding/json} words it, e.g. {@code json: cannot unmarshal string into Go struct field
 * PodSpec.spec.terminationGracePeriodSeconds of type int64}, plus what a structural schema would say about it.
 */
public final class TypedDecoding {

    /**
     * Why a tree does not decode.
     *
     * @param goMessage   Go's decoding error
     * @param path        the offending field, e.g. {@code spec.containers[0].image}
     * @param value       the offending JSON value
     * @param schemaType  the OpenAPI type the field has ({@code string}, {@code integer}, ...)
     * @param malformedQuantity the value is a string or number that is not a quantity
     * @param rangeError  for a whole number too large for its field, how a schema with the field's format words
     *                    it ({@code should be less than or equal to 2147483647}); null otherwise
     */
    public record Mismatch(String goMessage, String path, JsonNode value, String schemaType,
                           boolean malformedQuantity, String rangeError) {
    }

    static final JsonMapper STRICT = strict().build();
    /**
     * {@link #STRICT}'s configuration for reading {@link DecodableShape}s: only the types a tree reaches get their
     * deserializers found (a Pod's whole graph is about a second cold).
     */
    static final JsonMapper SHAPES = strict().addModule(DecodableShape.unresolvedBeans()).build();
    /** Go type names that are not derived from the Java type, by {@code Struct.field}. */
    private static final Map<String, String> NAMED_TYPES = Map.of(
            "ObjectMeta.uid", "types.UID",
            "OwnerReference.uid", "types.UID",
            "Preconditions.uid", "types.UID",
            "DeleteOptions.propagationPolicy", "v1.DeletionPropagation",
            "PodSpec.restartPolicy", "v1.RestartPolicy",
            "PodStatus.phase", "v1.PodPhase",
            "ServiceSpec.type", "v1.ServiceType");
    private static final Map<Class<?>, Map<String, Field>> FIELDS = new ConcurrentHashMap<>();
    /** Top-level fields whose own fields are decoded independently of one another (Go structs). */
    private static final java.util.Set<String> SECTIONS = java.util.Set.of("metadata", "spec", "status");

    private TypedDecoding() {
    }

    private static JsonMapper.Builder strict() {
        return JsonMapper.builder()
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .withCoercionConfigDefaults(c -> {
                    for (CoercionInputShape shape : List.of(CoercionInputShape.String, CoercionInputShape.Integer,
                            CoercionInputShape.Float, CoercionInputShape.Boolean, CoercionInputShape.EmptyString)) {
                        c.setCoercion(shape, CoercionAction.Fail);
                    }
                })
                .addMixIn(Quantity.class, StrictQuantity.class)
                .addMixIn(MicroTime.class, StrictMicroTime.class)
                .addMixIn(ZonedDateTime.class, StrictZonedMicroTime.class);
    }

    /** Whether {@code tree} decodes into {@code model}; the first mismatch if not. */
    public static Optional<Mismatch> check(JsonNode tree, Class<?> model) {
        if (DecodableShape.of(SHAPES, model).accepts(tree)) {
            return Optional.empty();
        }
        try {
            STRICT.treeToValue(tree, model);
            return Optional.empty();
        } catch (JacksonException e) {
            return Optional.of(describe(tree, model, e));
        }
    }

    /**
     * Whether {@code tree} decodes into {@code model}, given {@code decoded}: the stored version it was written over,
     * which decoded when it was written (null when there is none). Only what differs from it is decoded: its top-level
     * fields and, within {@code metadata}, {@code spec} and {@code status} (structs whose fields decode one by one),
     * their fields; a write usually changes few of them. When that part does not decode, the whole tree is decoded
     * again, so the mismatch is the one {@link #check(JsonNode, Class)} finds.
     */
    public static Optional<Mismatch> check(JsonNode tree, JsonNode decoded, Class<?> model) {
        if (decoded == null || !tree.isObject() || !decoded.isObject()) {
            return check(tree, model);
        }
        ObjectNode changed = changedFields(tree, decoded, true);
        if (changed.isEmpty() || DecodableShape.of(SHAPES, model).accepts(changed)) {
            return Optional.empty();
        }
        try {
            STRICT.treeToValue(changed, model);
            return Optional.empty();
        } catch (JacksonException e) {
            return check(tree, model);
        }
    }

    /**
     * The fields of {@code tree} that {@code model} does not declare, as kube-apiserver's strict decoding names them
     * ({@code spec.containers[0].resorces}), sorted; {@code metadata} is left to the caller (it is pruned and
     * reported for every kind). With {@code decoded}, the stored version written over (null for a create), only the
     * fields that differ from it are looked at, as in {@link #check(JsonNode, JsonNode, Class)}.
     */
    public static List<String> unknownFields(JsonNode tree, JsonNode decoded, Class<?> model) {
        if (!tree.isObject()) {
            return List.of();
        }
        JsonNode part = decoded == null || !decoded.isObject() ? tree : changedFields(tree, decoded, true);
        if (part.has("metadata")) {
            ObjectNode withoutMetadata = STRICT.createObjectNode();
            for (Map.Entry<String, JsonNode> e : part.properties()) {
                if (!e.getKey().equals("metadata")) {
                    withoutMetadata.set(e.getKey(), e.getValue());
                }
            }
            part = withoutMetadata;
        }
        DecodableShape shape = DecodableShape.of(SHAPES, model);
        if (!shape.hasUnknownFields(part)) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        shape.unknownFields(part, "", out);
        out.sort(null);
        return out;
    }

    private static ObjectNode changedFields(JsonNode tree, JsonNode decoded, boolean top) {
        ObjectNode out = STRICT.createObjectNode();
        for (Map.Entry<String, JsonNode> e : tree.properties()) {
            JsonNode now = e.getValue();
            JsonNode was = decoded.get(e.getKey());
            if (was == now || now.equals(was)) {
                continue;
            }
            if (top && SECTIONS.contains(e.getKey()) && now.isObject() && was != null && was.isObject()) {
                ObjectNode inner = changedFields(now, was, false);
                if (!inner.isEmpty()) {
                    out.set(e.getKey(), inner);
                }
            } else {
                out.set(e.getKey(), now);
            }
        }
        return out;
    }

    private static Mismatch describe(JsonNode tree, Class<?> model, JacksonException e) {
        StringBuilder path = new StringBuilder();
        List<String> goFields = new ArrayList<>();
        String struct = null;
        Type type = model;
        JsonNode node = tree;
        for (JacksonException.Reference ref : e.getPath()) {
            Class<?> from = ref.from() instanceof Class<?> c ? c : ref.from() == null ? Object.class
                    : ref.from().getClass();
            String property = ref.getPropertyName();
            if (property == null) {
                path.append('[').append(ref.getIndex()).append(']');
                node = node == null ? null : node.get(ref.getIndex());
                type = typeArgument(type, 0);
            } else if (Map.class.isAssignableFrom(from)) {
                // a map key: Go's field path stays at the map field
                path.append('.').append(property);
                node = node == null ? null : node.get(property);
                type = typeArgument(type, 1);
            } else {
                path.append('.').append(property);
                node = node == null ? null : node.get(property);
                goFields.add(property);
                struct = from.getSimpleName();
                Field f = field(from, property);
                type = f == null ? Object.class : f.getGenericType();
            }
        }
        String fieldPath = path.length() > 0 && path.charAt(0) == '.' ? path.substring(1) : path.toString();
        Class<?> raw = raw(type);
        boolean quantity = raw == Quantity.class;
        boolean numeric = raw == Integer.class || raw == Long.class || raw == Double.class || raw == Float.class;
        String rangeError = null;
        if ((raw == Integer.class || raw == Long.class) && node != null && node.isNumber()
                && node.decimalValue().stripTrailingZeros().scale() <= 0) {
            boolean negative = node.decimalValue().signum() < 0;
            long bound = raw == Integer.class ? (negative ? Integer.MIN_VALUE : Integer.MAX_VALUE)
                    : negative ? Long.MIN_VALUE : Long.MAX_VALUE;
            if (node.decimalValue().compareTo(BigDecimal.valueOf(bound)) * (negative ? -1 : 1) > 0) {
                rangeError = "should be " + (negative ? "greater" : "less") + " than or equal to " + bound;
            }
        }
        String goMessage;
        // metav1.MicroTime (fabric8: MicroTime, or a ZonedDateTime with a format) decodes itself: Go's own words
        String microTime = raw == MicroTime.class || raw == ZonedDateTime.class ? microTimeError(node) : null;
        if (quantity) {
            goMessage = e.getOriginalMessage();
        } else if (microTime != null) {
            goMessage = microTime;
        } else {
            String goType = struct == null ? null : NAMED_TYPES.get(struct + "." + last(goFields));
            if (goType == null) {
                goType = goType(type);
            }
            String value = goValue(node, numeric);
            goMessage = struct == null
                    ? "json: cannot unmarshal " + value + " into Go value of type " + goType
                    : "json: cannot unmarshal " + value + " into Go struct field " + struct + "."
                            + String.join(".", goFields) + " of type " + goType;
        }
        boolean malformedQuantity = quantity && node != null && (node.isString() || node.isNumber());
        return new Mismatch(goMessage, fieldPath, node, schemaType(raw), malformedQuantity, rangeError);
    }

    /** metav1.MicroTime's {@code UnmarshalJSON} error for a value, or null when it decodes. */
    static String microTimeError(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isString()) {
            return "json: cannot unmarshal " + goValue(node, false) + " into Go value of type string";
        }
        return GoTimeParse.error(node.asString(), GoTimeParse.RFC3339_MICRO);
    }

    private static String last(List<String> names) {
        return names.isEmpty() ? "" : names.get(names.size() - 1);
    }

    /** How Go's decoder names the JSON value it could not store. */
    private static String goValue(JsonNode node, boolean numericTarget) {
        if (node == null) {
            return "value";
        }
        if (node.isNumber()) {
            return numericTarget ? "number " + node.asString() : "number";
        }
        return node.isString() ? "string" : node.isBoolean() ? "bool" : node.isArray() ? "array"
                : node.isObject() ? "object" : "value";
    }

    private static String goType(Type type) {
        Class<?> raw = raw(type);
        if (raw == String.class) {
            return "string";
        }
        if (raw == Integer.class || raw == int.class) {
            return "int32";
        }
        if (raw == Long.class || raw == long.class) {
            return "int64";
        }
        if (raw == Boolean.class || raw == boolean.class) {
            return "bool";
        }
        if (raw == Double.class || raw == Float.class) {
            return "float64";
        }
        if (raw == Quantity.class) {
            return "resource.Quantity";
        }
        if (raw == IntOrString.class) {
            return "intstr.IntOrString";
        }
        if (List.class.isAssignableFrom(raw)) {
            return "[]" + goType(typeArgument(type, 0));
        }
        if (Map.class.isAssignableFrom(raw)) {
            return "map[string]" + goType(typeArgument(type, 1));
        }
        if (raw.getPackageName().startsWith("io.fabric8.kubernetes.api.model")) {
            return "v1." + raw.getSimpleName();
        }
        return "interface {}";
    }

    private static String schemaType(Class<?> raw) {
        if (raw == String.class) {
            return "string";
        }
        if (raw == Integer.class || raw == Long.class) {
            return "integer";
        }
        if (raw == Double.class || raw == Float.class) {
            return "number";
        }
        if (raw == Boolean.class) {
            return "boolean";
        }
        if (raw == Quantity.class || raw == IntOrString.class) {
            return "integer,string";
        }
        if (Collection.class.isAssignableFrom(raw)) {
            return "array";
        }
        return "object";
    }

    private static Type typeArgument(Type type, int index) {
        if (type instanceof ParameterizedType p && p.getActualTypeArguments().length > index) {
            return p.getActualTypeArguments()[index];
        }
        return Object.class;
    }

    private static Class<?> raw(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType p && p.getRawType() instanceof Class<?> c) {
            return c;
        }
        return Object.class;
    }

    /** The Java field behind a JSON property of a model class (fabric8 names them with {@link JsonProperty}). */
    private static Field field(Class<?> type, String property) {
        return FIELDS.computeIfAbsent(type, TypedDecoding::fieldsOf).get(property);
    }

    private static Map<String, Field> fieldsOf(Class<?> type) {
        Map<String, Field> out = new ConcurrentHashMap<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                JsonProperty p = f.getAnnotation(JsonProperty.class);
                out.putIfAbsent(p != null && !p.value().isEmpty() ? p.value() : f.getName(), f);
            }
        }
        return out;
    }

    /** MicroTimes are parsed as they are decoded, as Go's {@code MicroTime.UnmarshalJSON} does; the text is kept. */
    @JsonDeserialize(using = StrictMicroTimeDeserializer.class)
    abstract static class StrictMicroTime {
    }

    static final class StrictMicroTimeDeserializer extends ValueDeserializer<MicroTime> {
        @Override
        public MicroTime deserialize(JsonParser p, DeserializationContext ctxt) {
            return new MicroTime(microTimeText(p, ctxt, MicroTime.class));
        }
    }

    /**
     * fabric8 types a Lease's MicroTimes as {@code ZonedDateTime} with a pattern that wants a literal {@code Z}; Go's
     * {@code MicroTime.UnmarshalJSON} takes any offset ({@code +01:00}), so they are parsed as Go parses them. They are
     * the only {@code ZonedDateTime}s of the served kinds' models, so the mix-in changes no other field.
     */
    @JsonDeserialize(using = StrictZonedMicroTimeDeserializer.class)
    abstract static class StrictZonedMicroTime {
    }

    static final class StrictZonedMicroTimeDeserializer extends ValueDeserializer<ZonedDateTime> {
        @Override
        public ZonedDateTime deserialize(JsonParser p, DeserializationContext ctxt) {
            return ZonedDateTime.parse(microTimeText(p, ctxt, ZonedDateTime.class),
                    DateTimeFormatter.ISO_OFFSET_DATE_TIME);
        }
    }

    /** The text of the MicroTime being decoded into {@code target}, refused in Go's words when Go would refuse it. */
    private static String microTimeText(JsonParser p, DeserializationContext ctxt, Class<?> target) {
        JsonNode node = ctxt.readTree(p);
        String error = microTimeError(node);
        if (error != null) {
            ctxt.reportInputMismatch(target, error);
        }
        return node.asString();
    }

    /** Quantities are checked as they are decoded, as Go's {@code Quantity.UnmarshalJSON} does. */
    @JsonDeserialize(using = StrictQuantityDeserializer.class)
    abstract static class StrictQuantity {
    }

    static final class StrictQuantityDeserializer extends ValueDeserializer<Quantity> {
        @Override
        public Quantity deserialize(JsonParser p, DeserializationContext ctxt) {
            JsonToken t = p.currentToken();
            String text = t == JsonToken.VALUE_STRING ? p.getString().trim()
                    : t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT ? p.getString() : null;
            String error = QuantityFormat.error(text);
            if (error != null) {
                return ctxt.reportInputMismatch(Quantity.class, error);
            }
            return new Quantity(text);
        }
    }
}
