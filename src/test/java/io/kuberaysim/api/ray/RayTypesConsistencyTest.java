package io.kuberaysim.api.ray;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.fabric8.kubernetes.api.model.Quantity;
import io.kuberaysim.api.schema.Schema;
import io.kuberaysim.api.schema.SchemaGenerator;
import io.kuberaysim.api.schema.StructuralValidator;
import io.kuberaysim.api.schema.ValidationResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Guards the single-definition promise: for fully populated instances, the JSON Jackson writes uses exactly
 * the property names of the generated schema, validates cleanly, and reads back to an equal record.
 */
class RayTypesConsistencyTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @ParameterizedTest
    @ValueSource(classes = {RayCluster.class, RayJob.class, RayService.class})
    void serialisedNamesMatchTheSchemaAndRoundTrip(Class<?> type) throws Exception {
        Object sample = sample(type, type);

        JsonNode tree = JSON.valueToTree(sample);
        ValidationResult result = StructuralValidator.validate(tree, SchemaGenerator.generate(type));

        assertThat(result.unknownFields()).isEmpty();
        assertThat(result.errors()).isEmpty();
        assertThat(missingProperties(tree, SchemaGenerator.generate(type), "")).isEmpty();
        assertThat(JSON.treeToValue(tree, type)).isEqualTo(sample);
    }

    /** Schema properties that the serialised sample lacks: each would be a name mismatch. */
    private static Set<String> missingProperties(JsonNode node, Schema schema, String path) {
        Set<String> missing = new TreeSet<>();
        if (schema.type() == Schema.Type.ARRAY && node.isArray()) {
            missing.addAll(missingProperties(node.get(0), schema.items(), path + "[0]"));
        } else if (node.isObject() && !schema.preserveUnknownFields()) {
            if (schema.additionalProperties() != null) {
                node.properties().forEach(e -> missing.addAll(
                        missingProperties(e.getValue(), schema.additionalProperties(), path + "." + e.getKey())));
            }
            schema.properties().forEach((name, child) -> {
                if (!node.has(name)) {
                    missing.add(path + "." + name);
                } else {
                    missing.addAll(missingProperties(node.get(name), child, path + "." + name));
                }
            });
        }
        return missing;
    }

    private static Object sample(Type generic, Class<?> raw) throws Exception {
        if (raw == String.class) {
            return "x";
        }
        if (raw == Integer.class) {
            return 1;
        }
        if (raw == Long.class) {
            return 1L;
        }
        if (raw == Boolean.class) {
            return true;
        }
        if (raw == Double.class) {
            return 1.5;
        }
        if (raw == Instant.class) {
            return Instant.parse("2026-01-02T03:04:05Z");
        }
        if (raw == Quantity.class) {
            return new Quantity("1Gi");
        }
        if (raw == ObjectNode.class) {
            ObjectNode node = JSON.createObjectNode();
            node.put("anything", "kept");
            return node;
        }
        if (raw.isEnum()) {
            Object[] constants = raw.getEnumConstants();
            return constants[constants.length - 1];
        }
        if (raw == List.class) {
            Type element = ((ParameterizedType) generic).getActualTypeArguments()[0];
            return List.of(sample(element, rawClass(element)));
        }
        if (raw == Map.class) {
            Type value = ((ParameterizedType) generic).getActualTypeArguments()[1];
            return Map.of("k", sample(value, rawClass(value)));
        }
        if (raw.isRecord()) {
            RecordComponent[] components = raw.getRecordComponents();
            Class<?>[] types = new Class<?>[components.length];
            Object[] values = new Object[components.length];
            for (int i = 0; i < components.length; i++) {
                types[i] = components[i].getType();
                values[i] = sample(components[i].getGenericType(), components[i].getType());
            }
            return raw.getDeclaredConstructor(types).newInstance(values);
        }
        throw new IllegalArgumentException("no sample for " + generic);
    }

    private static Class<?> rawClass(Type type) {
        return type instanceof ParameterizedType p ? (Class<?>) p.getRawType() : (Class<?>) type;
    }
}
