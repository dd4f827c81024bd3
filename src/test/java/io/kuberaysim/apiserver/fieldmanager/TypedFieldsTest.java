package io.kuberaysim.apiserver.fieldmanager;

import io.kuberaysim.api.Json;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Path elements name values by their JSON text, exactly as Jackson writes it. */
class TypedFieldsTest {

    @Test
    @DisplayName("the JSON text of keys and set values is Jackson's, escapes and all")
    void jsonTextIsJacksons() {
        JsonNodeFactory f = Json.MAPPER.getNodeFactory();
        List<JsonNode> values = List.of(f.stringNode("c"), f.stringNode(""), f.stringNode("a/b é ✓ 🙂 \u2028 \u007f"),
                f.stringNode("quote\"d"), f.stringNode("back\\slash"), f.stringNode("tab\tnew\nline\u0001"),
                f.numberNode(0), f.numberNode(-80), f.numberNode(8080), f.numberNode(10_000_000_000L),
                f.numberNode(1.5), f.booleanNode(true), f.nullNode(), Json.object().put("a", 1));
        for (JsonNode v : values) {
            assertThat(TypedFields.json(v)).as(v.toString()).isEqualTo(v.toString());
        }
    }

    @Test
    @DisplayName("an item with several keys is named by its keys in name order, protocol TCP by default")
    void multiKeyItems() {
        ListTypes.ListType ports = ListTypes.ListType.map("port", "protocol");
        assertThat(TypedFields.itemKey(Json.object().put("port", 80).put("name", "http"), ports))
                .isEqualTo("k:{\"port\":80,\"protocol\":\"TCP\"}");
        assertThat(TypedFields.itemKey(Json.object().put("protocol", "UDP").put("port", 53), ports))
                .isEqualTo("k:{\"port\":53,\"protocol\":\"UDP\"}");
        assertThat(TypedFields.itemKey(Json.object().put("name", "x"), ListTypes.ListType.map("b", "a"))).isNull();
        assertThat(TypedFields.itemKey(Json.object().put("b", "q\"").put("a", 1), ListTypes.ListType.map("b", "a")))
                .isEqualTo("k:{\"a\":1,\"b\":\"q\\\"\"}");
    }
}
