package io.kuberaysim.apiserver.storage;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A stored object's JSON is the mapper's encoding of its tree, whether or not its parts were encoded before. */
class StoredJsonTest {
    private static ObjectNode tree(String json) {
        return (ObjectNode) Json.MAPPER.readTree(json);
    }

    private static final List<String> BODIES = List.of(
            """
            {"apiVersion":"ray.io/v1","kind":"RayCluster","metadata":{"name":"a","namespace":"default",
             "labels":{"x":"1"}},"spec":{"headGroupSpec":{"rayStartParams":{},"template":{"spec":{"containers":[
             {"name":"ray-head","image":"rayproject/ray:2.9.0","resources":{"limits":{"cpu":"1"}}}]}}},
             "workerGroupSpecs":[{"groupName":"w","replicas":3,"minReplicas":0,"maxReplicas":3,"rayStartParams":{},
             "template":{"spec":{"containers":[]}}}]},"status":{"state":"ready","readyWorkerReplicas":3}}""",
            """
            {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"é\\"q\\\\\\u0001","namespace":"default"},
             "data":{"k\\"ey":"line\\nbreak \\u00e9 \\u2028 \\ud83d\\ude00 </script>","empty":""},
             "binaryData":{},"immutable":true,"list":[],"nested":[[1,2.5,-3e-7,12345678901234567890],null,false]}""",
            """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"default"},"spec":{},
             "status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}]}}""");

    @Test
    @DisplayName("stored objects encode as the mapper encodes their trees, first and every later time")
    void sameBytesAsTheMapper() {
        InMemoryObjectStore store = new InMemoryObjectStore(100);
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < BODIES.size(); i++) {
                ObjectNode body = tree(BODIES.get(i));
                ((ObjectNode) body.get("metadata")).put("name", "o" + i + "-" + round);
                StoredObject stored = store.create(ResourceTypes.CONFIGMAPS, body);

                assertThat(new String(stored.json(), StandardCharsets.UTF_8))
                        .isEqualTo(new String(Json.MAPPER.writeValueAsBytes(stored.object()), StandardCharsets.UTF_8));
                assertThat(Json.MAPPER.readTree(stored.json())).isEqualTo(stored.object());
            }
        }
    }

    @Test
    @DisplayName("two objects sharing a stored spec encode it from one cached part, each with its own metadata")
    void sharedPartEncodedOnce() {
        InMemoryObjectStore store = new InMemoryObjectStore(100);
        StoredObject a = store.create(ResourceTypes.CONFIGMAPS, tree(BODIES.get(0)));
        ObjectNode second = tree(BODIES.get(0));
        ((ObjectNode) second.get("metadata")).put("name", "b");
        StoredObject b = store.create(ResourceTypes.CONFIGMAPS, second);

        assertThat(b.object().get("spec")).isSameAs(a.object().get("spec"));
        assertThat(a.json()).isEqualTo(Json.MAPPER.writeValueAsBytes(a.object()));
        assertThat(b.json()).isEqualTo(Json.MAPPER.writeValueAsBytes(b.object()));
        assertThat(new String(b.json(), StandardCharsets.UTF_8)).contains("\"name\":\"b\"");
        ObjectNode third = tree(BODIES.get(0));
        ((ObjectNode) third.get("metadata")).put("name", "c");
        StoredObject c = store.create(ResourceTypes.CONFIGMAPS, third);
        assertThat(c.json()).isEqualTo(Json.MAPPER.writeValueAsBytes(c.object()));
    }

    @Test
    @DisplayName("an object that is not stored (a dry run's answer) is encoded as it is")
    void unstoredTree() {
        ObjectNode body = tree(BODIES.get(1));
        StoredObject dry = StoredObject.unstored(ResourceTypes.CONFIGMAPS, body);

        assertThat(dry.json()).isEqualTo(Json.MAPPER.writeValueAsBytes(body));
    }
}
