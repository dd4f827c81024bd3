package io.kuberaysim.apiserver.storage;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static io.kuberaysim.api.ResourceTypes.PODS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The storage contract (after kube-apiserver's storage tests): revisions, conditional writes, watch history. Every
 * {@link ObjectStore} runs it; revisions are counted from the store's revision when the test starts (a fresh etcd
 * starts at 1, so its first write is 2).
 */
abstract class ObjectStoreContractTest {
    private final ObjectStore store = newStore(5);
    private final long r0 = store.revision();

    /** A store with no objects that keeps {@code historyLimit} changes for watches. */
    protected abstract ObjectStore newStore(int historyLimit);

    private static ObjectNode pod(String ns, String name) {
        ObjectNode o = Json.object();
        o.putObject("metadata").put("namespace", ns).put("name", name).put("uid", ns + "-" + name);
        o.putObject("spec").put("x", 1);
        return o;
    }

    @Test
    @DisplayName("every write bumps the one revision counter and stamps the object's resourceVersion")
    void revisionsAreGlobalAndMonotonic() {
        StoredObject a = store.create(PODS, pod("default", "a"));
        StoredObject b = store.create(ResourceTypes.SERVICES, pod("default", "b"));
        assertThat(a.resourceVersion()).isEqualTo(r0 + 1);
        assertThat(b.resourceVersion()).isEqualTo(r0 + 2);
        assertThat(Json.text(b.object(), "metadata", "resourceVersion")).isEqualTo(Long.toString(r0 + 2));
        assertThat(store.revision()).isEqualTo(r0 + 2);
    }

    @Test
    void createOfAnExistingKeyFails() {
        store.create(PODS, pod("default", "a"));
        assertThatThrownBy(() -> store.create(PODS, pod("default", "a")))
                .isInstanceOf(ObjectStore.KeyExistsException.class);
        assertThat(store.create(PODS, pod("other", "a")).namespace()).isEqualTo("other");
    }

    @Test
    @DisplayName("an update that changes nothing keeps the resourceVersion and emits no event")
    void noOpUpdateKeepsRevision() {
        StoredObject a = store.create(PODS, pod("default", "a"));
        List<WatchEvent> events = new ArrayList<>();
        store.watch(PODS, store.revision(), events::add);
        StoredObject same = store.guaranteedUpdate(PODS, "default", "a",
                c -> ObjectStore.UpdateResult.replace(c.copy()));
        assertThat(same.resourceVersion()).isEqualTo(a.resourceVersion());
        assertThat(events).isEmpty();
        StoredObject changed = store.guaranteedUpdate(PODS, "default", "a", c -> {
            ObjectNode n = c.copy();
            ((ObjectNode) n.get("spec")).put("x", 2);
            return ObjectStore.UpdateResult.replace(n);
        });
        assertThat(changed.resourceVersion()).isEqualTo(r0 + 2);
        assertThat(events).extracting(WatchEvent::type).containsExactly(WatchEvent.Type.MODIFIED);
        assertThat(events.get(0).previous()).isSameAs(a);
    }

    @Test
    @DisplayName("guaranteedUpdate recomputes from the latest state when another writer got in first")
    void guaranteedUpdateRetriesOnConcurrentWrite() {
        store.create(PODS, pod("default", "a"));
        int[] calls = {0};
        store.guaranteedUpdate(PODS, "default", "a", c -> {
            calls[0]++;
            if (calls[0] == 1) {
                store.guaranteedUpdate(PODS, "default", "a", c2 -> {
                    ObjectNode n = c2.copy();
                    ((ObjectNode) n.get("spec")).put("other", true);
                    return ObjectStore.UpdateResult.replace(n);
                });
            }
            ObjectNode n = c.copy();
            ((ObjectNode) n.get("spec")).put("x", 5);
            return ObjectStore.UpdateResult.replace(n);
        });
        StoredObject now = store.get(PODS, "default", "a");
        assertThat(calls[0]).isEqualTo(2);
        assertThat(now.object().get("spec").get("other").asBoolean()).isTrue();
        assertThat(now.object().get("spec").get("x").asInt()).isEqualTo(5);
    }

    @Test
    void deleteEmitsLastStateAtTheDeletionRevision() {
        store.create(PODS, pod("default", "a"));
        List<WatchEvent> events = new ArrayList<>();
        store.watch(PODS, 0, events::add);
        StoredObject last = store.delete(PODS, "default", "a", null);
        assertThat(last.resourceVersion()).isEqualTo(r0 + 2);
        assertThat(store.get(PODS, "default", "a")).isNull();
        assertThat(store.getByUid("default-a")).isNull();
        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo(WatchEvent.Type.DELETED);
            assertThat(e.resourceVersion()).isEqualTo(r0 + 2);
        });
        assertThatThrownBy(() -> store.delete(PODS, "default", "a", null))
                .isInstanceOf(ObjectStore.KeyNotFoundException.class);
    }

    @Test
    @DisplayName("a uid names its object's newest version until the object is deleted; a re-created key its new uid")
    void uidNamesTheNewestVersion() {
        store.create(PODS, pod("default", "a"));
        StoredObject updated = null;
        for (int i = 2; i <= 3; i++) {
            int x = i;
            updated = store.guaranteedUpdate(PODS, "default", "a", c -> {
                ObjectNode n = c.copy();
                ((ObjectNode) n.get("spec")).put("x", x);
                ((ObjectNode) n.get("metadata")).putObject("labels").put("v", Integer.toString(x)); // moves the label index too
                return ObjectStore.UpdateResult.replace(n);
            });
        }
        assertThat(store.getByUid("default-a")).isSameAs(updated);
        store.delete(PODS, "default", "a", null);
        assertThat(store.getByUid("default-a")).isNull();
        ObjectNode again = pod("default", "a");
        ((ObjectNode) again.get("metadata")).put("uid", "second");
        StoredObject recreated = store.create(PODS, again);
        assertThat(store.getByUid("default-a")).isNull();
        assertThat(store.getByUid("second")).isSameAs(recreated);
    }

    @Test
    @DisplayName("a get by key reads the key's newest version, nothing once deleted, and the new object once re-created")
    void getReadsTheNewestVersionOfAKey() {
        StoredObject created = store.create(PODS, pod("default", "a"));
        store.create(ResourceTypes.SERVICES, pod("default", "a"));
        assertThat(store.get(PODS, "default", "a")).isSameAs(created);
        StoredObject updated = store.guaranteedUpdate(PODS, "default", "a", c -> {
            ObjectNode n = c.copy();
            ((ObjectNode) n.get("metadata")).putObject("labels").put("v", "2");
            return ObjectStore.UpdateResult.replace(n);
        });
        assertThat(store.get(PODS, "default", "a")).isSameAs(updated);
        assertThat(store.get(PODS, "other", "a")).isNull();
        store.delete(PODS, "default", "a", null);
        assertThat(store.get(PODS, "default", "a")).isNull();
        assertThatThrownBy(() -> store.guaranteedUpdate(PODS, "default", "a",
                c -> ObjectStore.UpdateResult.replace(c.copy()))).isInstanceOf(ObjectStore.KeyNotFoundException.class);
        assertThat(store.get(ResourceTypes.SERVICES, "default", "a")).isNotNull();
        StoredObject recreated = store.create(PODS, pod("default", "a"));
        assertThat(store.get(PODS, "default", "a")).isSameAs(recreated);
        assertThatThrownBy(() -> store.create(PODS, pod("default", "a")))
                .isInstanceOf(ObjectStore.KeyExistsException.class);
    }

    @Test
    void listIsSortedAndScopedToANamespace() {
        store.create(PODS, pod("b", "z"));
        store.create(PODS, pod("a", "y"));
        store.create(PODS, pod("a", "x"));
        store.create(PODS, pod("a-b", "w"));
        assertThat(store.list(PODS, "a").items()).extracting(StoredObject::name).containsExactly("x", "y");
        assertThat(store.list(PODS, null).items()).hasSize(4);
        assertThat(store.list(PODS, null).revision()).isEqualTo(r0 + 4);
    }

    @Test
    @DisplayName("a watch from a revision replays retained history in order; older revisions are refused")
    void watchFromRevisionReplaysHistoryAndExpires() {
        for (int i = 0; i < 8; i++) {
            store.create(PODS, pod("default", "p" + i));
        }
        List<Long> seen = new ArrayList<>();
        store.watch(PODS, r0 + 5, e -> seen.add(e.resourceVersion()));
        assertThat(seen).containsExactly(r0 + 6, r0 + 7, r0 + 8);
        assertThatThrownBy(() -> store.watch(PODS, r0 + 1, e -> { }))
                .isInstanceOf(ObjectStore.TooOldResourceVersionException.class)
                .hasMessage("too old resource version: " + (r0 + 1) + " (" + (r0 + 4) + ")");
    }

    @Test
    @DisplayName("with many concurrent writers every listener sees every event exactly once, in revision order")
    void concurrentWritersAreSeenInOrder() throws Exception {
        ObjectStore big = newStore(100_000);
        long b0 = big.revision();
        List<List<Long>> seen = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
            List<Long> l = java.util.Collections.synchronizedList(new ArrayList<>());
            seen.add(l);
            big.watch(null, 0, e -> l.add(e.resourceVersion()));
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        CountDownLatch done = new CountDownLatch(4);
        for (int t = 0; t < 4; t++) {
            int tt = t;
            pool.execute(() -> {
                for (int i = 0; i < 500; i++) {
                    big.create(PODS, pod("ns" + tt, "p" + i));
                }
                done.countDown();
            });
        }
        assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        pool.shutdown();
        for (List<Long> l : seen) {
            assertThat(l).hasSize(2000);
            for (int i = 0; i < l.size(); i++) {
                assertThat(l.get(i)).isEqualTo(b0 + i + 1L);
            }
        }
    }
    @Test
    @DisplayName("a cursor reads its type's changes after a revision in order and is woken once when one arrives "
            + "after it found none")
    void cursorReadsAtItsOwnPaceAndIsWokenWhenIdle() {
        store.create(PODS, pod("default", "p0"));
        store.create(ResourceTypes.SERVICES, pod("default", "s0"));
        store.create(PODS, pod("default", "p1"));
        List<String> wakes = new ArrayList<>();
        WatchCursor cursor = store.follow(PODS, r0 + 1, () -> wakes.add("woken"));
        assertThat(cursor.behind()).isEqualTo(1);
        assertThat(cursor.next().object().name()).isEqualTo("p1");
        assertThat(cursor.next()).isNull();
        assertThat(cursor.resourceVersion()).isEqualTo(r0 + 3);

        store.create(ResourceTypes.SERVICES, pod("default", "s1"));
        assertThat(wakes).as("another type's change wakes no pod cursor").isEmpty();
        store.create(PODS, pod("default", "p2"));
        store.create(PODS, pod("default", "p3"));
        assertThat(wakes).as("woken once: the cursor was not read in between").hasSize(1);
        assertThat(cursor.behind()).isEqualTo(2);
        assertThat(cursor.next().object().name()).isEqualTo("p2");
        assertThat(cursor.next().object().name()).isEqualTo("p3");
        assertThat(cursor.next()).isNull();
        assertThat(cursor.resourceVersion()).isEqualTo(r0 + 6);

        cursor.close();
        store.create(PODS, pod("default", "p4"));
        assertThat(wakes).as("a closed cursor is not woken").hasSize(1);
        assertThatThrownBy(() -> store.follow(PODS, r0 + 1, () -> { }))
                .isInstanceOf(ObjectStore.TooOldResourceVersionException.class);
        WatchCursor fromNow = store.follow(PODS, 0, () -> { });
        assertThat(fromNow.next()).isNull();
        store.delete(PODS, "default", "p4", null);
        assertThat(fromNow.next().type()).isEqualTo(WatchEvent.Type.DELETED);
    }

    @Test
    @DisplayName("with concurrent writers a cursor read on wake-ups sees every change of its type once, in order")
    void cursorUnderConcurrentWriters() throws Exception {
        ObjectStore big = newStore(100_000);
        long b0 = big.revision();
        List<Long> seen = java.util.Collections.synchronizedList(new ArrayList<>());
        ExecutorService reader = Executors.newSingleThreadExecutor();
        java.util.concurrent.atomic.AtomicReference<WatchCursor> cursor = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicInteger wip = new java.util.concurrent.atomic.AtomicInteger();
        Runnable drain = () -> {
            int missed = 1;
            do {
                for (WatchEvent e; (e = cursor.get().next()) != null; ) {
                    seen.add(e.resourceVersion());
                }
                missed = wip.addAndGet(-missed);
            } while (missed != 0);
        };
        Runnable wake = () -> {
            if (wip.getAndIncrement() == 0) {
                reader.execute(drain);
            }
        };
        cursor.set(big.follow(PODS, 0, wake));
        wake.run();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        CountDownLatch done = new CountDownLatch(4);
        for (int t = 0; t < 4; t++) {
            int tt = t;
            pool.execute(() -> {
                for (int i = 0; i < 500; i++) {
                    big.create(tt == 3 ? ResourceTypes.SERVICES : PODS, pod("ns" + tt, "p" + i));
                }
                done.countDown();
            });
        }
        assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        pool.shutdown();
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> seen.size() >= 1500);
        reader.shutdown();
        assertThat(reader.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(seen).hasSize(1500).isSorted().doesNotHaveDuplicates();
        assertThat(seen.get(0)).isGreaterThan(b0);
        assertThat(cursor.get().behind()).isZero();
    }
}
