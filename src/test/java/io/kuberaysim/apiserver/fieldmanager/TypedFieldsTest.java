package io.kuberaysim.apiserver.fieldmanager;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.patch.MergeKeys;
import io.kuberaysim.apiserver.storage.FrozenTrees;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Path elements name values by their JSON text, exactly as Jackson writes it. */
class TypedFieldsTest {

    @Test
    @DisplayName("a field's path element is one instance per name; ever new or overlong names do not fill memory")
    void fieldElementsAreSharedAndBounded() {
        assertThat(TypedFields.fieldElement(new String("image"))).isEqualTo("f:image")
                .isSameAs(TypedFields.fieldElement("image"));
        String overlong = "x".repeat(65);
        assertThat(TypedFields.fieldElement(overlong)).isEqualTo("f:" + overlong)
                .isNotSameAs(TypedFields.fieldElement(overlong));
        for (int i = 0; i < 40_000; i++) {
            assertThat(TypedFields.fieldElement("label-" + i)).isEqualTo("f:label-" + i);
        }
        assertThat(TypedFields.sharedFieldElements()).isLessThanOrEqualTo(1 << 14);
    }

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

    private static final TypedFields PODS = new TypedFields(new ListTypes(MergeKeys.builtins()));

    private static ObjectNode pod(String ownerUid, String image) {
        return (ObjectNode) Json.MAPPER.readTree("""
                {"metadata": {"labels": {"ray.io/cluster": "c", "ray.io/node-type": "worker"},
                  "annotations": {}, "finalizers": ["a", "b", "a"], "generateName": null,
                  "ownerReferences": [{"apiVersion": "ray.io/v1", "kind": "RayCluster", "name": "c",
                    "uid": "%s", "controller": true}]},
                 "spec": {"containers": [{"name": "ray-worker", "image": "%s", "args": ["a", "b"],
                    "env": [{"name": "A", "value": "1"}, {"name": "B", "valueFrom": {"fieldRef": {"fieldPath": "x"}}}],
                    "ports": [{"containerPort": 8080, "name": "m"}, {"containerPort": 53, "protocol": "UDP"}],
                    "resources": {"limits": {"cpu": "1"}, "requests": {}}, "volumeMounts": []}],
                  "tolerations": [{"key": "k"}], "imagePullSecrets": [{}, {"name": "s"}], "nodeSelector": {}}}
                """.formatted(ownerUid, image));
    }

    @Test
    @DisplayName("a create's FieldsV1 written directly is the field set's encoding, node for node")
    void fieldsV1IsTheFieldSetsEncoding() {
        ObjectNode pod = pod("u1", "ray:2.9");
        assertThat(PODS.fieldsV1(pod, new JsonNode[0])).isEqualTo(PODS.fieldSet(pod).toFieldsV1());
        assertThat(PODS.fieldsV1(pod, new JsonNode[0]).toString())
                .isEqualTo(PODS.fieldSet(pod).toFieldsV1().toString());
        // a list naming an item twice has its items' fields merged: the same as the set walk too
        ObjectNode twice = pod("u1", "ray:2.9");
        ((ObjectNode) twice.at("/spec/containers/0/env/1")).put("name", "A");
        assertThat(PODS.fieldsV1(twice, new JsonNode[0]).toString())
                .isEqualTo(PODS.fieldSet(twice).toFieldsV1().toString());
        assertThat(PODS.fieldsV1(Json.object().set("metadata", Json.object().putNull("x")), new JsonNode[0]))
                .isNull();
    }

    @Test
    @DisplayName("a create's FieldsV1 shares the stored nodes of an earlier create where the fields are the same")
    void fieldsV1SharesStoredLikes() {
        JsonNode stored = FrozenTrees.freeze(PODS.fieldsV1(pod("u1", "ray:2.9"), new JsonNode[0]));
        JsonNode other = FrozenTrees.freeze(Json.object().put("f:other", 1));
        // another cluster's worker: another owner uid, another image (a value, not a field)
        ObjectNode next = pod("u2", "ray:2.10");
        JsonNode written = PODS.fieldsV1(next, new JsonNode[] {other, null, stored});
        assertThat(written.toString()).isEqualTo(PODS.fieldSet(next).toFieldsV1().toString());
        assertThat(written.get("f:spec")).isSameAs(stored.get("f:spec"));
        assertThat(written.get("f:metadata").get("f:labels")).isSameAs(stored.get("f:metadata").get("f:labels"));
        assertThat(written.get("f:metadata")).isNotSameAs(stored.get("f:metadata"));
        assertThat(written.get("f:metadata").get("f:ownerReferences").get("k:{\"uid\":\"u2\"}")).isNotNull();
        // the same fields again: the stored tree itself
        assertThat(PODS.fieldsV1(pod("u1", "ray:2.11"), new JsonNode[] {stored})).isSameAs(stored);
    }
}
