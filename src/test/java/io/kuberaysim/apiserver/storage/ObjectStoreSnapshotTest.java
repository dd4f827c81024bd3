package io.kuberaysim.apiserver.storage;

import io.kuberaysim.api.Json;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.kuberaysim.api.ResourceTypes.CONFIGMAPS;
import static io.kuberaysim.api.ResourceTypes.PODS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Reads at a past revision (etcd's MVCC read, rebuilt from the change history) and watches from a future one. */
abstract class ObjectStoreSnapshotTest {
    private final ObjectStore store = newStore(50);
    private final long r0 = store.revision();

    /** A store with no objects that keeps {@code historyLimit} changes. */
    protected abstract ObjectStore newStore(int historyLimit);

    private static ObjectNode pod(String ns, String name, String app) {
        ObjectNode o = Json.object();
        ObjectNode meta = o.putObject("metadata").put("namespace", ns).put("name", name).put("uid", ns + "/" + name);
        meta.putObject("labels").put("app", app);
        o.putObject("spec").put("v", 1);
        return o;
    }

    private void relabel(String ns, String name, String app) {
        store.guaranteedUpdate(PODS, ns, name, c -> {
            ObjectNode n = c.copy();
            ((ObjectNode) n.get("metadata").get("labels")).put("app", app);
            return ObjectStore.UpdateResult.replace(n);
        });
    }

    private List<String> describe(ObjectStore.Snapshot s) {
        return s.items().stream().map(o -> o.namespace() + "/" + o.name() + "@" + (o.resourceVersion() - r0))
                .toList();
    }

    @Test
    @DisplayName("listAt answers every object as it was at the revision: later creates, updates and deletes undone")
    void stateAtAnEarlierRevision() {
        store.create(PODS, pod("a", "p1", "x"));                  // 1
        store.create(PODS, pod("a", "p3", "x"));                  // 2
        store.create(PODS, pod("b", "p2", "x"));                  // 3
        store.create(CONFIGMAPS, pod("a", "cm", "x"));            // 4: another type, never in the answer
        long at = store.revision();
        String before = describe(store.list(PODS, null)).toString();

        store.create(PODS, pod("a", "p2", "x"));                  // created after: absent then
        relabel("a", "p1", "y");                                  // updated after: its old state
        store.delete(PODS, "a", "p3", null);                      // deleted after: still there then
        relabel("a", "p1", "z");                                  // updated twice: the state before the first
        store.create(PODS, pod("a", "p0", "x"));
        store.delete(PODS, "a", "p0", null);                      // created and deleted after: absent

        ObjectStore.Snapshot then = store.listAt(PODS, null, Map.of(), at);
        assertThat(then.revision()).isEqualTo(at);
        assertThat(describe(then)).containsExactly("a/p1@1", "a/p3@2", "b/p2@3");
        assertThat(describe(then).toString()).isEqualTo(before);
        assertThat(describe(store.listAt(PODS, "a", Map.of(), at))).containsExactly("a/p1@1", "a/p3@2");
        assertThat(store.listAt(PODS, null, Map.of(), store.revision()).items())
                .isEqualTo(store.list(PODS, null).items());
    }

    @Test
    @DisplayName("listAt through the label index finds objects that carried the label then, not only now")
    void labelNarrowedStateAtAnEarlierRevision() {
        store.create(PODS, pod("a", "p1", "x"));
        store.create(PODS, pod("a", "p2", "y"));
        long at = store.revision();
        relabel("a", "p1", "y"); // p1 left app=x after the revision
        relabel("a", "p2", "x"); // p2 joined app=x after it

        List<StoredObject> candidates = store.listAt(PODS, "a", Map.of("app", "x"), at).items();
        assertThat(candidates).filteredOn(o -> "x".equals(o.labels().get("app")))
                .extracting(StoredObject::name).containsExactly("p1");
    }

    @Test
    @DisplayName("a revision older than the retained history cannot be rebuilt")
    void tooOldRevision() {
        store.create(PODS, pod("a", "p1", "x"));
        long at = store.revision();
        for (int i = 0; i < 60; i++) {
            relabel("a", "p1", "v" + i);
        }
        assertThatThrownBy(() -> store.listAt(PODS, null, Map.of(), at))
                .isInstanceOf(ObjectStore.TooOldResourceVersionException.class);
        long oldest = store.oldestWatchableRevision();
        assertThat(store.listAt(PODS, null, Map.of(), oldest).items()).hasSize(1);
    }

    @Test
    @DisplayName("a watch from a revision the store has not reached gets only the changes after it")
    void watchFromAFutureRevision() {
        store.create(PODS, pod("a", "p1", "x"));
        long future = store.revision() + 2;
        List<Long> seen = new ArrayList<>();
        store.watch(PODS, future, e -> seen.add(e.resourceVersion()));
        for (int i = 0; i < 4; i++) {
            relabel("a", "p1", "v" + i);
        }
        assertThat(seen).containsExactly(future + 1, future + 2);
    }
}
