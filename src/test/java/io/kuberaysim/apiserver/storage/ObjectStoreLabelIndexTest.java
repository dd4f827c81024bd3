package io.kuberaysim.apiserver.storage;

import io.kuberaysim.api.Json;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Map;

import static io.kuberaysim.api.ResourceTypes.PODS;
import static io.kuberaysim.api.ResourceTypes.SERVICES;
import static org.assertj.core.api.Assertions.assertThat;

/** The label index answers exactly what a scan of the type would, through creates, relabels and deletes. */
abstract class ObjectStoreLabelIndexTest {
    private final ObjectStore store = newStore(100);

    /** A store with no objects. */
    protected abstract ObjectStore newStore(int historyLimit);

    private static ObjectNode pod(String ns, String name, String... labels) {
        ObjectNode o = Json.object();
        ObjectNode meta = o.putObject("metadata").put("namespace", ns).put("name", name).put("uid", ns + "-" + name);
        ObjectNode l = meta.putObject("labels");
        for (int i = 0; i < labels.length; i += 2) {
            l.put(labels[i], labels[i + 1]);
        }
        return o;
    }

    private List<String> names(String ns, Map<String, String> labels) {
        return store.listByLabels(PODS, ns, labels).items().stream()
                .filter(o -> labels.entrySet().stream().allMatch(e -> e.getValue().equals(o.labels().get(e.getKey()))))
                .map(o -> o.namespace() + "/" + o.name()).toList();
    }

    @Test
    @DisplayName("objects are found by label pair, sorted, per namespace, and only of the asked type")
    void findsByLabel() {
        store.create(PODS, pod("b", "p1", "ray.io/cluster", "c1", "ray.io/node-type", "head"));
        store.create(PODS, pod("a", "p2", "ray.io/cluster", "c1", "ray.io/node-type", "worker"));
        store.create(PODS, pod("a", "p3", "ray.io/cluster", "c2", "ray.io/node-type", "worker"));
        store.create(SERVICES, pod("a", "s1", "ray.io/cluster", "c1"));

        assertThat(names(null, Map.of("ray.io/cluster", "c1"))).containsExactly("a/p2", "b/p1");
        assertThat(names("a", Map.of("ray.io/cluster", "c1"))).containsExactly("a/p2");
        assertThat(names(null, Map.of("ray.io/cluster", "c1", "ray.io/node-type", "worker"))).containsExactly("a/p2");
        assertThat(names(null, Map.of("ray.io/cluster", "nope"))).isEmpty();
        assertThat(store.listByLabels(SERVICES, "a", Map.of("ray.io/cluster", "c1")).items()).hasSize(1);
    }

    @Test
    @DisplayName("a relabelled object moves between index entries and a deleted one leaves them")
    void followsUpdatesAndDeletes() {
        store.create(PODS, pod("a", "p", "app", "x", "keep", "1"));
        StoredObject moved = store.guaranteedUpdate(PODS, "a", "p",
                c -> ObjectStore.UpdateResult.replace(pod("a", "p", "app", "y", "keep", "1")));

        assertThat(names(null, Map.of("app", "x"))).isEmpty();
        assertThat(names(null, Map.of("app", "y"))).containsExactly("a/p");
        // an unchanged label must point at the newest version, not the one it was first indexed with
        assertThat(store.listByLabels(PODS, null, Map.of("keep", "1")).items()).containsExactly(moved);

        store.delete(PODS, "a", "p", null);
        assertThat(names(null, Map.of("keep", "1"))).isEmpty();
        assertThat(names(null, Map.of("app", "y"))).isEmpty();
    }

    @Test
    @DisplayName("a write that keeps every label is found at its newest version; re-created, an object has only its new labels")
    void keptLabelsFollowTheNewestVersion() {
        store.create(PODS, pod("a", "p", "app", "x"));
        store.create(PODS, pod("a", "q", "app", "x"));
        StoredObject second = store.guaranteedUpdate(PODS, "a", "p",
                c -> ObjectStore.UpdateResult.replace(pod("a", "p", "app", "x").put("spec", 2)));
        StoredObject third = store.guaranteedUpdate(PODS, "a", "p",
                c -> ObjectStore.UpdateResult.replace(pod("a", "p", "app", "x").put("spec", 3)));
        assertThat(second.resourceVersion()).isLessThan(third.resourceVersion());
        assertThat(store.listByLabels(PODS, "a", Map.of("app", "x")).items())
                .containsExactly(third, store.get(PODS, "a", "q"));

        store.delete(PODS, "a", "p", null);
        StoredObject again = store.create(PODS, pod("a", "p", "app", "z"));
        assertThat(store.listByLabels(PODS, "a", Map.of("app", "x")).items()).extracting(StoredObject::name)
                .containsExactly("q");
        assertThat(store.listByLabels(PODS, "a", Map.of("app", "z")).items()).containsExactly(again);
        StoredObject relabelled = store.guaranteedUpdate(PODS, "a", "p",
                c -> ObjectStore.UpdateResult.replace(pod("a", "p", "app", "z", "extra", "1")));
        assertThat(store.listByLabels(PODS, "a", Map.of("app", "z")).items()).containsExactly(relabelled);
        assertThat(store.listByLabels(PODS, "a", Map.of("extra", "1")).items()).containsExactly(relabelled);
    }
}
