package io.kuberaysim.apiserver.storage;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/** Creates are frozen against the recent create they most resemble, not merely the last one. */
class RecentCreatesTest {
    private static ObjectNode pod(String name, String nodeType) {
        return (ObjectNode) Json.MAPPER.readTree("""
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s","namespace":"default",
                 "labels":{"ray.io/node-type":"%s"}},
                 "spec":{"containers":[{"name":"ray-%s","image":"rayproject/ray","args":["ray","start","--%s"],
                         "resources":{"limits":{"cpu":"1"}}}]}}""".formatted(name, nodeType, nodeType, nodeType));
    }

    /** Table lookups the create of {@code object} took (the table is the JVM's: other tests may add to it). */
    private static long lookupsOfCreate(InMemoryObjectStore store, ObjectNode object) {
        long before = FrozenTrees.tableLookups();
        store.create(ResourceTypes.PODS, object);
        return FrozenTrees.tableLookups() - before;
    }

    @Test
    @DisplayName("a head Pod created after workers is compared with the earlier head: no part of it is looked up")
    void alternatingShapesFindTheirLikes() {
        InMemoryObjectStore store = new InMemoryObjectStore(100);
        StoredObject firstHead = store.create(ResourceTypes.PODS, pod("h0", "head"));
        long least = Long.MAX_VALUE;
        for (int i = 1; i <= 3; i++) {
            store.create(ResourceTypes.PODS, pod("w" + i, "worker"));
            least = Math.min(least, lookupsOfCreate(store, pod("h" + i, "head")));
        }

        assertThat(least).isZero();
        assertThat(store.get(ResourceTypes.PODS, "default", "h3").object().get("spec"))
                .isSameAs(firstHead.object().get("spec"));
        assertThat(store.get(ResourceTypes.PODS, "default", "h3").object().at("/metadata/labels"))
                .isSameAs(firstHead.object().at("/metadata/labels"));
    }

    @Test
    @DisplayName("only the last four creates are kept: a shape last created five creates ago is looked up again")
    void keepsTheLastFour() {
        InMemoryObjectStore store = new InMemoryObjectStore(100);
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            store.create(ResourceTypes.PODS, pod("h" + i, "head"));
            for (int w = 0; w < 4; w++) {
                store.create(ResourceTypes.PODS, pod("w" + i + "-" + w, "worker"));
            }
            least = Math.min(least, lookupsOfCreate(store, pod("h" + i + "-again", "head")));
        }

        assertThat(least).isPositive();
    }
}
