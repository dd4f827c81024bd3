package io.kuberaysim.api.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

class SchemaGeneratorTest {

    enum Mode {
        @JsonProperty("fast-mode") FAST,
        SLOW
    }

    @Description("A sample.")
    record Sample(
            @Required @Description("The name.") String name,
            @Default("3") @Minimum(0) Integer count,
            long big,
            Boolean flag,
            double ratio,
            Float small,
            Mode mode,
            @JsonProperty("renamedField") String original,
            Map<String, Integer> counts,
            List<Inner> inners,
            JsonNode anything,
            @PreserveUnknownFields ObjectNode template,
            Quantity quantity,
            @IntOrString String port,
            Instant when) {
    }

    record Inner(@Default("\"x\"") String letter) {
    }

    record Self(Self next) {
    }

    static Stream<Arguments> properties() {
        return Stream.of(
                Arguments.of("name", Schema.Type.STRING, null),
                Arguments.of("count", Schema.Type.INTEGER, "int32"),
                Arguments.of("big", Schema.Type.INTEGER, "int64"),
                Arguments.of("flag", Schema.Type.BOOLEAN, null),
                Arguments.of("ratio", Schema.Type.NUMBER, "double"),
                Arguments.of("small", Schema.Type.NUMBER, "float"),
                Arguments.of("mode", Schema.Type.STRING, null),
                Arguments.of("renamedField", Schema.Type.STRING, null),
                Arguments.of("counts", Schema.Type.OBJECT, null),
                Arguments.of("inners", Schema.Type.ARRAY, null),
                Arguments.of("anything", Schema.Type.OBJECT, null),
                Arguments.of("template", Schema.Type.OBJECT, null),
                Arguments.of("when", Schema.Type.STRING, "date-time"));
    }

    @ParameterizedTest(name = "{0} -> {1} {2}")
    @MethodSource("properties")
    void mapsJavaTypesToOpenApiTypes(String property, Schema.Type type, String format) {
        Schema schema = SchemaGenerator.generate(Sample.class).properties().get(property);

        assertThat(schema).as(property).isNotNull();
        assertThat(schema.type()).isEqualTo(type);
        assertThat(schema.format()).isEqualTo(format);
    }

    @Test
    void keepsDeclarationOrderRequiredNamesAndAnnotations() {
        Schema schema = SchemaGenerator.generate(Sample.class);

        assertThat(schema.properties().keySet()).startsWith("name", "count", "big").contains("renamedField")
                .doesNotContain("original");
        assertThat(schema.required()).containsExactly("name");
        assertThat(schema.description()).isEqualTo("A sample.");
        assertThat(schema.properties().get("name").description()).isEqualTo("The name.");
        assertThat(schema.properties().get("count").defaultValue().asInt()).isEqualTo(3);
        assertThat(schema.properties().get("count").minimum()).isEqualTo(0L);
    }

    @Test
    void mapsEnumsMapsListsAndOpaqueValues() {
        Schema schema = SchemaGenerator.generate(Sample.class);

        assertThat(schema.properties().get("mode").enumValues()).containsExactly("fast-mode", "SLOW");
        assertThat(schema.properties().get("counts").additionalProperties().type()).isEqualTo(Schema.Type.INTEGER);
        Schema inner = schema.properties().get("inners").items();
        assertThat(inner.properties().get("letter").defaultValue().asString()).isEqualTo("x");
        assertThat(schema.properties().get("anything").preserveUnknownFields()).isTrue();
        assertThat(schema.properties().get("template").preserveUnknownFields()).isTrue();
        assertThat(schema.properties().get("quantity").intOrString()).isTrue();
        assertThat(schema.properties().get("quantity").type()).isNull();
        assertThat(schema.properties().get("port").intOrString()).isTrue();
    }

    @Test
    void cachesResults() {
        assertThat(SchemaGenerator.generate(Sample.class)).isSameAs(SchemaGenerator.generate(Sample.class));
    }

    @Test
    void rejectsRecursiveRecords() {
        assertThatThrownBy(() -> SchemaGenerator.generate(Self.class))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("recursive");
    }

    @Test
    void rendersOpenApiWithKubernetesExtensions() {
        JsonMapper mapper = JsonMapper.builder().build();
        ObjectNode openApi = SchemaGenerator.generate(Sample.class).toOpenApi(mapper);

        assertThat(openApi.get("type").asString()).isEqualTo("object");
        assertThat(openApi.get("required").get(0).asString()).isEqualTo("name");
        JsonNode props = openApi.get("properties");
        assertThat(props.get("count").toString())
                .isEqualTo("{\"type\":\"integer\",\"format\":\"int32\",\"default\":3,\"minimum\":0}");
        assertThat(props.get("template").get("x-kubernetes-preserve-unknown-fields").asBoolean()).isTrue();
        assertThat(props.get("quantity").get("x-kubernetes-int-or-string").asBoolean()).isTrue();
        assertThat(props.get("quantity").has("type")).isFalse();
        assertThat(props.get("mode").get("enum").toString()).isEqualTo("[\"fast-mode\",\"SLOW\"]");
        assertThat(props.get("counts").get("additionalProperties").get("type").asString()).isEqualTo("integer");
        assertThat(props.get("inners").get("items").get("properties").get("letter").get("default").asString())
                .isEqualTo("x");
    }

    @Test
    void navigatesDottedPathsThroughArraysAndMaps() {
        Schema schema = SchemaGenerator.generate(Sample.class);

        assertThat(schema.at("inners.letter").type()).isEqualTo(Schema.Type.STRING);
        assertThat(schema.at("counts.anyKey").type()).isEqualTo(Schema.Type.INTEGER);
        assertThat(schema.at("nope")).isNull();
    }
}
