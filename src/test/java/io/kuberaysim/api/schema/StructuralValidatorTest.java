package io.kuberaysim.api.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

class StructuralValidatorTest {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    enum Color { red, green }

    record Item(@Required String name, @Default("1") Integer size, Map<String, String> tags, Nested nested) {
    }

    record Nested(@Default("true") Boolean on, @Default("{}") Leaf leaf) {
    }

    record Leaf(@Default("\"leafy\"") String value) {
    }

    record Root(
            @PreserveUnknownFields ObjectNode metadata,
            @Required String title,
            @Default("0") @Minimum(0) Integer replicas,
            Double ratio,
            Boolean enabled,
            Color color,
            List<Item> items,
            Map<String, Item> byName,
            @PreserveUnknownFields ObjectNode template,
            @IntOrString String port) {
    }

    private static final Schema ROOT = SchemaGenerator.generate(Root.class);

    private static JsonNode json(String text) {
        return MAPPER.readTree(text.replace('\'', '"'));
    }

    static Stream<Arguments> errors() {
        return Stream.of(
                Arguments.of("{'title':'t','replicas':'abc'}", "replicas", "FieldValueInvalid",
                        "Invalid value: \"string\": replicas in body must be of type integer: \"string\""),
                Arguments.of("{'title':'t','replicas':1.5}", "replicas", "FieldValueInvalid",
                        "Invalid value: \"number\": replicas in body must be of type integer: \"number\""),
                Arguments.of("{'title':true}", "title", "FieldValueInvalid",
                        "Invalid value: \"boolean\": title in body must be of type string: \"boolean\""),
                Arguments.of("{'title':'t','enabled':'yes'}", "enabled", "FieldValueInvalid",
                        "Invalid value: \"string\": enabled in body must be of type boolean: \"string\""),
                Arguments.of("{'title':'t','ratio':'x'}", "ratio", "FieldValueInvalid",
                        "Invalid value: \"string\": ratio in body must be of type number: \"string\""),
                Arguments.of("{'title':'t','items':{}}", "items", "FieldValueInvalid",
                        "Invalid value: \"object\": items in body must be of type array: \"object\""),
                Arguments.of("{'title':'t','items':[{'name':'a','nested':[]}]}", "items[0].nested",
                        "FieldValueInvalid",
                        "Invalid value: \"array\": items[0].nested in body must be of type object: \"array\""),
                Arguments.of("{'title':'t','template':'pod'}", "template", "FieldValueInvalid",
                        "Invalid value: \"string\": template in body must be of type object: \"string\""),
                Arguments.of("{'title':'t','byName':{'a':{'name':'a','tags':{'k':1}}}}", "byName.a.tags.k",
                        "FieldValueInvalid",
                        "Invalid value: \"integer\": byName.a.tags.k in body must be of type string: \"integer\""),
                Arguments.of("{}", "title", "FieldValueRequired", "Required value"),
                Arguments.of("{'title':'t','items':[{'size':2}]}", "items[0].name", "FieldValueRequired",
                        "Required value"),
                Arguments.of("{'title':'t','color':'blue'}", "color", "FieldValueNotSupported",
                        "Unsupported value: \"blue\": supported values: \"red\", \"green\""),
                Arguments.of("{'title':'t','replicas':-1}", "replicas", "FieldValueInvalid",
                        "Invalid value: -1: replicas in body should be greater than or equal to 0"),
                Arguments.of("{'title':'t','replicas':2147483648}", "replicas", "FieldValueInvalid",
                        "Invalid value: 2147483648: replicas in body should be less than or equal to 2147483647"),
                Arguments.of("{'title':'t','replicas':1e30}", "replicas", "FieldValueInvalid",
                        "Invalid value: 1.0E30: replicas in body should be less than or equal to 2147483647"),
                Arguments.of("{'title':'t','items':[{'name':'a','size':-2147483649}]}", "items[0].size",
                        "FieldValueInvalid", "Invalid value: -2147483649: items[0].size in body should be greater "
                                + "than or equal to -2147483648"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("errors")
    void reportsFieldErrorsLikeTheApiserver(String body, String field, String reason, String message) {
        ValidationResult result = StructuralValidator.validate(json(body), ROOT);

        assertThat(result.errors()).containsExactly(new FieldError(field, reason, message));
        assertThat(result.isValid()).isFalse();
    }

    @Test
    void acceptsValidBodiesIncludingIntOrStringAndWholeFloats() {
        for (String body : List.of("{'title':'t','port':8080}", "{'title':'t','port':'http'}",
                "{'title':'t','replicas':2.0}", "{'title':'t','ratio':3}", "{'title':'t','color':'red'}")) {
            assertThat(StructuralValidator.validate(json(body), ROOT).errors()).as(body).isEmpty();
        }
        assertThat(StructuralValidator.validate(json("{'title':'t','port':true}"), ROOT).errors())
                .extracting(FieldError::field).containsExactly("port");
    }

    @Test
    void appliesDefaultsRecursivelyWherePresentIncludingArrayItemsAndMapValues() {
        JsonNode input = json("{'title':'t','items':[{'name':'a','nested':{}},{'name':'b','size':5}],"
                + "'byName':{'x':{'name':'x'}}}");

        ValidationResult result = StructuralValidator.validate(input, ROOT);

        assertThat(result.errors()).isEmpty();
        assertThat(result.value()).isEqualTo(json("{'title':'t','replicas':0,"
                + "'items':[{'name':'a','size':1,'nested':{'on':true,'leaf':{'value':'leafy'}}},{'name':'b','size':5}],"
                + "'byName':{'x':{'name':'x','size':1}}}"));
    }

    @Test
    void defaultsReplaceNullsAndSatisfyRequired() {
        record WithRequiredDefault(@Required @Default("7") Integer n) {
        }
        Schema schema = SchemaGenerator.generate(WithRequiredDefault.class);

        ValidationResult result = StructuralValidator.validate(json("{'n':null}"), schema);

        assertThat(result.errors()).isEmpty();
        assertThat(result.value()).isEqualTo(json("{'n':7}"));
    }

    @Test
    void prunesUnknownFieldsAndReportsTheirPaths() {
        JsonNode input = json("{'title':'t','foo':1,'items':[{'name':'a','bar':{},'nested':{'baz':2}}],"
                + "'byName':{'k':{'name':'k','qux':true}}}");

        ValidationResult result = StructuralValidator.validate(input, ROOT);

        assertThat(result.unknownFields())
                .containsExactly("byName.k.qux", "foo", "items[0].bar", "items[0].nested.baz");
        assertThat(result.value().has("foo")).isFalse();
        assertThat(result.value().get("items").get(0).has("bar")).isFalse();
        assertThat(result.errors()).isEmpty();
    }

    @Test
    void keepsPreservedObjectsExactlyWithoutValidatingOrDefaultingInside() {
        JsonNode input = json("{'title':'t','metadata':{'name':'n','labels':{'a':'b'},'weird':[1,null]},"
                + "'template':{'spec':{'containers':[{'name':'c','replicas':'abc','x':null}]}}}");

        ValidationResult result = StructuralValidator.validate(input, ROOT);

        assertThat(result.errors()).isEmpty();
        assertThat(result.unknownFields()).isEmpty();
        assertThat(result.value().get("metadata")).isEqualTo(input.get("metadata"));
        assertThat(result.value().get("template")).isEqualTo(input.get("template"));
    }

    @Test
    void neverMutatesTheInput() {
        JsonNode input = json("{'title':'t','foo':1,'items':[{'name':'a'}]}");
        String before = input.toString();

        ValidationResult result = StructuralValidator.validate(input, ROOT);

        assertThat(input.toString()).isEqualTo(before);
        assertThat(result.value()).isNotSameAs(input);
        ((ObjectNode) result.value().get("items").get(0)).put("name", "changed");
        assertThat(input.get("items").get(0).get("name").asString()).isEqualTo("a");
    }

    static Stream<String> bodies() {
        return Stream.concat(errors().map(a -> (String) a.get()[0]), Stream.of(
                "{'title':'t','port':8080,'ratio':3,'color':'red','enabled':null}",
                "{'title':'t','items':[{'name':'a','nested':{}},{'name':'b','size':5,'nested':null}],"
                        + "'byName':{'x':{'name':'x'},'y':{'name':'y','nested':{'leaf':null,'on':false}}}}",
                "{'foo':1,'title':'t','items':[{'name':'a','bar':{},'nested':{'baz':2}}],"
                        + "'byName':{'k':{'name':'k','qux':true}},'zed':null}",
                "{'title':'t','metadata':{'name':'n','labels':{'a':'b'},'weird':[1,null]},"
                        + "'template':{'spec':{'containers':[{'name':'c','replicas':'abc','x':null}]}}}",
                "{'replicas':'x','items':[{},{'name':3},null,[]],'color':true,'title':'t','port':true}",
                "{'items':{'a':1},'byName':[1],'template':'pod','metadata':[]}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bodies")
    void inPlaceGivesWhatTheCopyingCheckGives(String body) {
        JsonNode input = json(body);
        ValidationResult copied = StructuralValidator.validate(input, ROOT);

        ValidationResult inPlace = StructuralValidator.validateInPlace(input, ROOT, "");

        assertThat(inPlace.value().toString()).isEqualTo(copied.value().toString()); // fields in the same order
        assertThat(inPlace.unknownFields()).isEqualTo(copied.unknownFields());
        assertThat(inPlace.errors()).isEqualTo(copied.errors());
        assertThat(inPlace.value()).isSameAs(input);
    }

    @Test
    void inPlaceKeepsTheSchemasDefaultsAsTheyWere() {
        ObjectNode first = (ObjectNode) StructuralValidator.validateInPlace(
                json("{'title':'t','items':[{'name':'a','nested':{}}]}"), ROOT, "").value();
        ((ObjectNode) first.at("/items/0/nested/leaf")).put("value", "changed");

        JsonNode second = StructuralValidator.validateInPlace(
                json("{'title':'t','items':[{'name':'a','nested':{}}]}"), ROOT, "").value();

        assertThat(second.at("/items/0/nested/leaf/value").asString()).isEqualTo("leafy");
    }

    /** An object of another class than Jackson's own (as the store's read-only trees are). */
    private static final class StoredObjectNode extends ObjectNode {
        StoredObjectNode(ObjectNode content) {
            super(MAPPER.getNodeFactory(), new java.util.LinkedHashMap<>());
            content.properties().forEach(e -> super.set(e.getKey(), e.getValue()));
        }
    }

    @Test
    void inPlaceKeepsStoredPartsAsTheyAreWithoutWalkingThem() {
        // a part kept from the stored object passed the check when it was stored; it is neither walked nor changed
        StoredObjectNode item = new StoredObjectNode((ObjectNode) json("{'name':'a','size':2}"));
        ObjectNode input = (ObjectNode) json("{'title':'t','foo':1,'items':[{'name':'b','bar':2}]}");
        ((tools.jackson.databind.node.ArrayNode) input.get("items")).add(item);

        ValidationResult result = StructuralValidator.validateInPlace(input, ROOT, "");

        assertThat(result.value().get("items").get(1)).isSameAs(item);
        assertThat(result.value().toString())
                .isEqualTo(json("{'title':'t','items':[{'name':'b','size':1},{'name':'a','size':2}],'replicas':0}")
                        .toString());
        assertThat(result.unknownFields()).containsExactly("foo", "items[0].bar");
    }

    @Test
    void reportsEnumViolationAlongsideTypeMismatch() {
        ValidationResult result = StructuralValidator.validate(json("{'title':'t','color':true}"), ROOT);

        assertThat(result.errors()).extracting(FieldError::describe).containsExactly(
                "color: Invalid value: \"boolean\": color in body must be of type string: \"boolean\"",
                "color: Unsupported value: true: supported values: \"red\", \"green\"");
    }

    @Test
    void prefixesPathsWithTheBasePath() {
        Schema item = ROOT.properties().get("items").items();

        ValidationResult result = StructuralValidator.validate(json("{'size':'big','x':1}"), item, "spec.items[3]");

        assertThat(result.errors()).extracting(FieldError::field)
                .containsExactly("spec.items[3].size", "spec.items[3].name");
        assertThat(result.unknownFields()).containsExactly("spec.items[3].x");
    }

    @Test
    void summarisesErrorsLikeAnAggregate() {
        assertThat(StructuralValidator.validate(json("{'title':'t'}"), ROOT).summary()).isEmpty();
        assertThat(StructuralValidator.validate(json("{}"), ROOT).summary()).isEqualTo("title: Required value");
        assertThat(StructuralValidator.validate(json("{'replicas':-2}"), ROOT).summary()).isEqualTo(
                "[replicas: Invalid value: -2: replicas in body should be greater than or equal to 0, "
                        + "title: Required value]");
    }

    @Test
    void collectsSeveralErrorsInOnePass() {
        ValidationResult result = StructuralValidator.validate(
                json("{'replicas':'x','items':[{},{'name':3}]}"), ROOT);

        assertThat(result.errors()).extracting(FieldError::field)
                .containsExactlyInAnyOrder("replicas", "items[0].name", "items[1].name", "title");
        assertThat(result.errors().get(0).describe()).startsWith("replicas: Invalid value: ");
    }
}
