package io.kuberaysim.apiserver.fieldmanager;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.storage.FrozenTrees;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FieldSetTest {
    private static final String STORED = """
            {"f:metadata":{"f:labels":{".":{},"f:app":{}}},
             "f:spec":{"f:containers":{"k:{\\"name\\":\\"c\\"}":{".":{},"f:image":{},"f:name":{}}},"f:nodeName":{}},
             "f:status":{"f:phase":{}}}""";

    private static FieldSet read(String json) {
        return FieldSet.fromFieldsV1(Json.MAPPER.readTree(json));
    }

    private static FieldSet paths(List<List<String>> paths) {
        FieldSet s = new FieldSet();
        for (List<String> p : paths) {
            FieldSet node = s;
            for (String e : p) {
                node = node.child(e);
            }
            node.markMember();
        }
        return s;
    }

    @Test
    void aStoredSetWithNothingTakenAwayIsWrittenBackAsTheSameTree() {
        JsonNode tree = Json.MAPPER.readTree(STORED);
        FieldSet stored = FieldSet.fromFieldsV1(tree);
        FieldSet touched = paths(List.of(List.of("f:status", "f:conditions"), List.of("f:metadata", "f:annotations")));

        assertThat(stored.intersects(touched)).isFalse();
        assertThat(stored.difference(touched)).isSameAs(stored);
        assertThat(stored.toFieldsV1()).isSameAs(tree);
    }

    @Test
    void takingFieldsAwayKeepsTheRestInFieldsV1Order() {
        FieldSet stored = read(STORED);
        FieldSet touched = paths(List.of(List.of("f:spec", "f:nodeName"), List.of("f:status", "f:phase"),
                List.of("f:metadata", "f:labels", "f:app")));

        assertThat(stored.intersects(touched)).isTrue();
        FieldSet left = stored.difference(touched);

        assertThat(left.toFieldsV1()).isEqualTo(Json.MAPPER.readTree("""
                {"f:metadata":{"f:labels":{}},
                 "f:spec":{"f:containers":{"k:{\\"name\\":\\"c\\"}":{".":{},"f:image":{},"f:name":{}}}}}"""));
        assertThat(left.toFieldsV1().toString()).startsWith("{\"f:metadata\"");
        assertThat(stored.toFieldsV1()).isEqualTo(Json.MAPPER.readTree(STORED)); // the operand is unchanged
    }

    @Test
    void aUnionAddsPathsInFieldsV1OrderAndSharesNothingThatChanges() {
        FieldSet stored = read(STORED);
        FieldSet added = paths(List.of(List.of("f:status", "f:conditions"), List.of("f:apiVersion")));

        FieldSet union = stored.union(added);

        assertThat(union.toFieldsV1().toString()).isEqualTo(Json.MAPPER.readTree("""
                {"f:apiVersion":{},"f:metadata":{"f:labels":{".":{},"f:app":{}}},
                 "f:spec":{"f:containers":{"k:{\\"name\\":\\"c\\"}":{".":{},"f:image":{},"f:name":{}}},"f:nodeName":{}},
                 "f:status":{"f:conditions":{},"f:phase":{}}}""").toString());
        assertThat(added.difference(union).isEmpty()).isTrue();
        assertThat(union.difference(stored).toFieldsV1()).isEqualTo(Json.MAPPER.readTree(
                "{\"f:apiVersion\":{},\"f:status\":{\"f:conditions\":{}}}"));
        assertThat(stored.intersection(added).isEmpty()).isTrue();
        assertThat(read(STORED).members()).containsExactly(
                List.of("f:metadata", "f:labels"), List.of("f:metadata", "f:labels", "f:app"),
                List.of("f:spec", "f:containers", "k:{\"name\":\"c\"}"),
                List.of("f:spec", "f:containers", "k:{\"name\":\"c\"}", "f:image"),
                List.of("f:spec", "f:containers", "k:{\"name\":\"c\"}", "f:name"),
                List.of("f:spec", "f:nodeName"), List.of("f:status", "f:phase"));
    }

    @Test
    void aMemberReadFromATreeIsTakenAwayWhole() {
        FieldSet stored = read(STORED);
        FieldSet item = paths(List.of(List.of("f:spec", "f:containers", "k:{\"name\":\"c\"}")));

        FieldSet left = stored.difference(item);

        // the item's own membership goes; the fields under it stay, as structured-merge-diff keeps them
        assertThat(left.toFieldsV1().get("f:spec").get("f:containers"))
                .isEqualTo(Json.MAPPER.readTree("{\"k:{\\\"name\\\":\\\"c\\\"}\":{\"f:image\":{},\"f:name\":{}}}"));
    }

    @Test
    void aBuiltSetIsWrittenWithTheStoredEmptyObjectAsEveryLeaf() {
        FieldSet built = paths(List.of(List.of("f:metadata", "f:labels", "f:app"), List.of("f:metadata", "f:labels"),
                List.of("f:spec", "f:containers", "k:{\"name\":\"c\"}", "f:image"),
                List.of("f:spec", "f:containers", "k:{\"name\":\"c\"}"),
                List.of("f:spec", "f:containers", "k:{\"name\":\"c\"}", "f:name"),
                List.of("f:spec", "f:nodeName"), List.of("f:status", "f:phase")));

        JsonNode v1 = built.toFieldsV1();

        assertThat(v1).isEqualTo(Json.MAPPER.readTree(STORED));
        JsonNode item = v1.path("f:spec").path("f:containers").path("k:{\"name\":\"c\"}");
        assertThat(item.get(".")).isSameAs(FrozenTrees.emptyObject());
        assertThat(item.get("f:image")).isSameAs(FrozenTrees.emptyObject());
        assertThat(v1.path("f:status").get("f:phase")).isSameAs(FrozenTrees.emptyObject());
        // the shared leaf is read-only: no writer can change every entry's fields at once
        assertThatThrownBy(() -> ((tools.jackson.databind.node.ObjectNode) v1.path("f:spec").path("f:nodeName"))
                .put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
        // the root is the caller's to place
        assertThat(v1).isNotSameAs(FrozenTrees.emptyObject());
    }
}
