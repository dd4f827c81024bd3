package io.kuberaysim.apiserver.storage;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The stored form of trees: the same JSON, read-only, copies changeable, shared parts kept. */
class FrozenTreesTest {
    private static final String POD = """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"default","labels":{"a":"b"}},
             "spec":{"containers":[{"name":"c","image":"busybox","args":["x","y"]}],
                     "many":{"k01":1,"k02":2,"k03":3,"k04":4,"k05":5,"k06":6,"k07":7,"k08":8,"k09":9,"k10":10,
                             "k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17,"k18":18}}}""";

    @Test
    @DisplayName("a stored tree reads, equals, hashes and encodes as the tree it was made from")
    void sameTree() {
        ObjectNode plain = (ObjectNode) Json.MAPPER.readTree(POD);
        ObjectNode frozen = FrozenTrees.freezeObject(plain.deepCopy());
        assertThat(frozen).isEqualTo(plain);
        assertThat(plain).isEqualTo(frozen);
        assertThat(frozen.hashCode()).isEqualTo(plain.hashCode());
        assertThat(Json.MAPPER.writeValueAsString(frozen)).isEqualTo(Json.MAPPER.writeValueAsString(plain));
        assertThat(frozen.at("/spec/containers/0/args/1").asString()).isEqualTo("y");
        assertThat(frozen.at("/spec/many/k17").asInt()).isEqualTo(17);
        assertThat(frozen.path("spec").has("many")).isTrue();
        assertThat(frozen.path("spec").has("none")).isFalse();
        assertThat(frozen.propertyNames()).containsExactly("apiVersion", "kind", "metadata", "spec");
    }

    @Test
    @DisplayName("a stored tree cannot be changed in place; its deep copy can")
    void readOnly() {
        ObjectNode frozen = FrozenTrees.freezeObject((ObjectNode) Json.MAPPER.readTree(POD));
        assertThatThrownBy(() -> frozen.put("kind", "Other")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ((ObjectNode) frozen.get("metadata")).remove("labels"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ((ArrayNode) frozen.at("/spec/containers/0/args")).add("z"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ((ObjectNode) frozen.at("/spec/many")).put("k01", 0))
                .isInstanceOf(UnsupportedOperationException.class);
        ObjectNode copy = frozen.deepCopy();
        copy.put("kind", "Other");
        ((ArrayNode) copy.at("/spec/containers/0/args")).add("z");
        assertThat(copy.at("/spec/containers/0/args").size()).isEqualTo(3);
        assertThat(frozen.at("/spec/containers/0/args").size()).isEqualTo(2);
    }

    @Test
    @DisplayName("parts already stored are kept, not converted again, and equal strings are one node")
    void sharing() {
        ObjectNode first = FrozenTrees.freezeObject((ObjectNode) Json.MAPPER.readTree(POD));
        ObjectNode next = Json.object();
        next.set("spec", first.get("spec"));
        next.putObject("metadata").put("name", "p").put("namespace", "default");
        JsonNode stored = FrozenTrees.freeze(next);
        assertThat(stored.get("spec")).isSameAs(first.get("spec"));
        assertThat(stored.at("/metadata/namespace")).isSameAs(first.at("/metadata/namespace"));
    }

    @Test
    @DisplayName("equal parts of separately stored objects are one instance; names in another order are not the same")
    void hashConsing() {
        InMemoryObjectStore store = new InMemoryObjectStore(10);
        StoredObject a = store.create(ResourceTypes.PODS, (ObjectNode) Json.MAPPER.readTree(POD));
        StoredObject b = store.create(ResourceTypes.PODS,
                (ObjectNode) Json.MAPPER.readTree(POD.replace("\"name\":\"p\"", "\"name\":\"q\"")));
        assertThat(b.object().get("spec")).isSameAs(a.object().get("spec"));
        assertThat(b.object().at("/metadata/labels")).isSameAs(a.object().at("/metadata/labels"));
        assertThat(b.object().get("metadata")).isNotSameAs(a.object().get("metadata"));

        JsonNode ab = FrozenTrees.freeze(Json.MAPPER.readTree("{\"a\":1,\"b\":{\"c\":[true]}}"));
        JsonNode ba = FrozenTrees.freeze(Json.MAPPER.readTree("{\"b\":{\"c\":[true]},\"a\":1}"));
        assertThat(ba).isEqualTo(ab).isNotSameAs(ab);
        assertThat(ba.hashCode()).isEqualTo(ab.hashCode());
        assertThat(ba.get("b")).isSameAs(ab.get("b"));
        assertThat(Json.MAPPER.writeValueAsString(ba)).isEqualTo("{\"b\":{\"c\":[true]},\"a\":1}");
        JsonNode longOne = FrozenTrees.freeze(Json.MAPPER.readTree("{\"a\":1,\"b\":{\"c\":[1]}}"));
        assertThat(longOne.get("b")).isNotSameAs(ab.get("b")).isNotEqualTo(ab.get("b"));
    }

    @Test
    @DisplayName("the store keeps objects in stored form: what a reader gets cannot be changed")
    void storeFreezes() {
        InMemoryObjectStore store = new InMemoryObjectStore(10);
        StoredObject o = store.create(ResourceTypes.PODS, (ObjectNode) Json.MAPPER.readTree(POD));
        assertThat(o.object().at("/metadata/resourceVersion").asString()).isEqualTo("1");
        assertThatThrownBy(() -> o.object().put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
        assertThat(o.copy().put("x", 1).get("x").asInt()).isEqualTo(1);
    }

    @Test
    @DisplayName("stamping a stored tree with a resourceVersion keeps field order and shares everything but root and metadata")
    void resourceVersionStamp() {
        ObjectNode frozen = FrozenTrees.freezeObject((ObjectNode) Json.MAPPER.readTree(POD));
        ObjectNode first = FrozenTrees.withResourceVersion(frozen, "7");
        ObjectNode plain = (ObjectNode) Json.MAPPER.readTree(POD);
        Json.child(plain, "metadata").put("resourceVersion", "7");
        assertThat(Json.MAPPER.writeValueAsString(first)).isEqualTo(Json.MAPPER.writeValueAsString(plain));
        assertThat(first.get("spec")).isSameAs(frozen.get("spec"));
        assertThat(first.get("metadata").get("labels")).isSameAs(frozen.get("metadata").get("labels"));
        assertThat(frozen.at("/metadata/resourceVersion").isMissingNode()).isTrue();

        ObjectNode second = FrozenTrees.withResourceVersion(first, "8");
        assertThat(second.get("metadata").propertyNames())
                .containsExactly("name", "namespace", "labels", "resourceVersion");
        assertThat(second.at("/metadata/resourceVersion").asString()).isEqualTo("8");
        assertThat(first.at("/metadata/resourceVersion").asString()).isEqualTo("7");
        assertThatThrownBy(() -> ((ObjectNode) second.get("metadata")).put("resourceVersion", "9"))
                .isInstanceOf(UnsupportedOperationException.class);

        ObjectNode bare = FrozenTrees.withResourceVersion(FrozenTrees.freezeObject(Json.object().put("kind", "X")), "3");
        assertThat(Json.MAPPER.writeValueAsString(bare)).isEqualTo("{\"kind\":\"X\",\"metadata\":{\"resourceVersion\":\"3\"}}");
    }

    @Test
    @DisplayName("an update's parts equal to the previous version's are its instances, found without the sharing table")
    void updateComparedWithPreviousVersion() {
        InMemoryObjectStore store = new InMemoryObjectStore(10);
        StoredObject first = store.create(ResourceTypes.PODS, (ObjectNode) Json.MAPPER.readTree(POD));
        ObjectNode next = first.copy();
        next.putObject("status").put("phase", "Running").putArray("conditions").addObject()
                .put("type", "Ready").put("status", "True");

        StoredObject second = store.guaranteedUpdate(ResourceTypes.PODS, "default", "p",
                current -> ObjectStore.UpdateResult.replace(next));
        // the table is shared by the whole JVM (other tests' servers may be writing): the least of three tries
        long lookups = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            long before = FrozenTrees.tableLookups();
            FrozenTrees.freezeObject(next, first.object());
            lookups = Math.min(lookups, FrozenTrees.tableLookups() - before);
        }

        assertThat(second.object().get("status")).isEqualTo(next.get("status"));
        assertThat(second.object().at("/metadata/resourceVersion").asString()).isEqualTo("2");
        assertThat(second.object().get("spec")).isSameAs(first.object().get("spec"));
        assertThat(second.object().at("/metadata/labels")).isSameAs(first.object().at("/metadata/labels"));
        assertThat(second.object().at("/metadata/name")).isSameAs(first.object().at("/metadata/name"));
        // only the new status: the object, its array, one condition and three strings; nothing of the rest is looked up
        assertThat(lookups).isEqualTo(6);
        // a stored object's own name, uid and resourceVersion are not looked up either
        long ownLookups = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            long before = FrozenTrees.tableLookups();
            FrozenTrees.freezeObject((ObjectNode) Json.MAPPER.readTree(
                    "{\"metadata\":{\"name\":\"n\",\"uid\":\"u\",\"resourceVersion\":\"1\"}}"));
            ownLookups = Math.min(ownLookups, FrozenTrees.tableLookups() - before);
        }
        assertThat(ownLookups).isZero();
        ObjectNode sameStatus = Json.object();
        sameStatus.set("status", next.get("status").deepCopy());
        assertThat(FrozenTrees.freeze(sameStatus).get("status")).isSameAs(second.object().get("status"));
    }

    @Test
    @DisplayName("compared with another object, only parts with the same names in the same order and equal values are taken")
    void comparedPartsMustBeTheSame() {
        ObjectNode like = FrozenTrees.freezeObject((ObjectNode) Json.MAPPER.readTree(
                "{\"kind\":\"X\",\"spec\":{\"a\":1,\"b\":\"x\",\"c\":[1,2],\"d\":{\"e\":1}}}"));
        ObjectNode reordered = FrozenTrees.freezeObject((ObjectNode) Json.MAPPER.readTree(
                "{\"kind\":\"X\",\"spec\":{\"b\":\"x\",\"a\":1,\"c\":[1,2],\"d\":{\"e\":1}}}"), like);
        assertThat(reordered.get("spec")).isNotSameAs(like.get("spec"));
        assertThat(reordered.get("spec").propertyNames()).containsExactly("b", "a", "c", "d");
        assertThat(reordered.at("/spec/c")).isSameAs(like.at("/spec/c"));
        assertThat(reordered.at("/spec/d")).isSameAs(like.at("/spec/d"));

        ObjectNode longer = (ObjectNode) Json.MAPPER.readTree(
                "{\"kind\":\"X\",\"spec\":{\"a\":1,\"b\":\"x\",\"c\":[1,2,3],\"d\":{\"e\":1}}}");
        ((ObjectNode) longer.get("spec")).put("a", 1L);
        ObjectNode other = FrozenTrees.freezeObject(longer, like);
        assertThat(other.get("spec")).isNotSameAs(like.get("spec")).isNotEqualTo(like.get("spec"));
        assertThat(other.at("/spec/a").isLong()).isTrue();
        assertThat(other.at("/spec/c").size()).isEqualTo(3);
        assertThat(other.at("/spec/d")).isSameAs(like.at("/spec/d"));
        assertThat(Json.MAPPER.writeValueAsString(other)).isEqualTo(Json.MAPPER.writeValueAsString(longer));

        ObjectNode fewer = FrozenTrees.freezeObject((ObjectNode) Json.MAPPER.readTree(
                "{\"kind\":\"X\",\"spec\":{\"a\":1,\"b\":\"x\",\"c\":[1]}}"), like);
        assertThat(fewer.get("spec")).isNotSameAs(like.get("spec"));
        assertThat(fewer.at("/spec/c")).isNotSameAs(like.at("/spec/c")).isEqualTo(Json.MAPPER.readTree("[1]"));
    }

    @Test
    @DisplayName("the parts of many Pods (IPs, their lists, statuses, init containers naming the cluster) get distinct "
            + "sharing-table hashes, where hashCode gives one in eight a taken value: the table's chains stay short")
    void tableHashesSpread() {
        java.util.Set<Integer> hashCodes = new java.util.HashSet<>();
        java.util.Set<Integer> tableHashes = new java.util.HashSet<>();
        int nodes = 0;
        for (int i = 0; i < 20_000; i++) {
            String ip = "10.244." + (i / 250) + "." + (i % 250);
            ObjectNode status = Json.object().put("hostIP", "10.0." + (i % 250) + ".1").put("podIP", ip);
            status.putArray("podIPs").addObject().put("ip", ip);
            String service = "rc-" + i + "-head-svc";
            ObjectNode init = Json.object().put("name", "wait-gcs-ready");
            init.putArray("args").add("until ray health-check --address " + service + ":6379; do sleep 5; done");
            init.putArray("env").addObject().put("name", "RAY_IP").put("value", service);
            JsonNode frozenStatus = FrozenTrees.freeze(status);
            JsonNode frozenInit = FrozenTrees.freeze(init);
            for (JsonNode part : new JsonNode[] {frozenStatus, frozenStatus.get("podIPs"),
                    frozenStatus.at("/podIPs/0"), frozenStatus.get("podIP"), frozenInit, frozenInit.get("env")}) {
                hashCodes.add(part.hashCode());
                tableHashes.add(FrozenTrees.tableHash(part));
                nodes++;
            }
        }
        assertThat(hashCodes).as("the input reproduces hashCode's collisions").hasSizeLessThan(nodes * 15 / 16);
        assertThat(tableHashes).hasSizeGreaterThan(nodes - 3);
    }
}
