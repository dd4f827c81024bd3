package io.kuberaysim.apiserver.storage;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import io.kuberaysim.testing.EtcdServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.kuberaysim.api.ResourceTypes.PODS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What a store started again on the same etcd finds: every object at its resourceVersion, the recent history for
 * watches that resume (until etcd compacts it: then 410 and a re-list), and another store's writes as they happen.
 */
class EtcdObjectStoreRestartIT {
    private static EtcdServer etcd;
    private static int prefixes;
    private final List<EtcdObjectStore> open = new ArrayList<>();
    private final String prefix = "/restart" + (++prefixes) + "/registry";

    @BeforeAll
    static void startEtcd() {
        EtcdServer.assumeInstalled();
        etcd = EtcdServer.start();
    }

    @AfterAll
    static void stopEtcd() {
        if (etcd != null) {
            etcd.close();
        }
    }

    @AfterEach
    void closeStores() {
        open.forEach(EtcdObjectStore::close);
    }

    private EtcdObjectStore store() {
        EtcdObjectStore s = EtcdObjectStore.connect(List.of(etcd.endpoint()), prefix, ResourceTypes.ALL_TYPES, 100,
                Duration.ofSeconds(10));
        open.add(s);
        return s;
    }

    private static ObjectNode pod(String name) {
        ObjectNode o = Json.object();
        o.putObject("metadata").put("namespace", "default").put("name", name).put("uid", "uid-" + name);
        return o;
    }

    @Test
    @DisplayName("a store started again finds every object at its resourceVersion and replays recent history")
    void restartKeepsObjectsAndHistory() {
        EtcdObjectStore first = store();
        long r0 = first.revision();
        StoredObject a = first.create(PODS, pod("a"));
        first.create(PODS, pod("b"));
        first.delete(PODS, "default", "b", null);
        first.close();

        EtcdObjectStore again = store();
        assertThat(again.get(PODS, "default", "a").resourceVersion()).isEqualTo(a.resourceVersion());
        assertThat(again.get(PODS, "default", "b")).isNull();
        assertThat(again.getByUid("uid-a").name()).isEqualTo("a");
        List<String> replay = new ArrayList<>();
        again.watch(PODS, r0, e -> replay.add(e.type() + " " + e.object().name()));
        assertThat(replay).containsExactly("ADDED a", "ADDED b", "DELETED b");
    }

    @Test
    @DisplayName("after compaction a restarted store refuses watches from before it (410) and serves later ones")
    void compactedHistoryIsGone() {
        EtcdObjectStore first = store();
        long r0 = first.revision();
        first.create(PODS, pod("a"));
        first.create(PODS, pod("b"));
        first.compact(first.revision()).join();
        first.close();

        EtcdObjectStore again = store();
        assertThatThrownBy(() -> again.watch(PODS, r0, e -> { }))
                .isInstanceOf(ObjectStore.TooOldResourceVersionException.class);
        List<String> seen = new ArrayList<>();
        again.watch(PODS, again.revision(), e -> seen.add(e.type() + " " + e.object().name()));
        again.create(PODS, pod("c"));
        assertThat(seen).containsExactly("ADDED c");
    }

    @Test
    @DisplayName("the compactor compacts, each interval, up to the revision it saw one interval before")
    void compactorKeepsOneIntervalOfHistory() {
        EtcdObjectStore first = store();
        VirtualClock clock = new VirtualClock();
        try (EtcdCompactor compactor = new EtcdCompactor(first, clock, Duration.ofMinutes(5))) {
            compactor.start();
            long r0 = first.revision();
            first.create(PODS, pod("a"));
            clock.advance(Duration.ofMinutes(5)); // first tick: remembers the revision, compacts nothing
            long seen = first.revision();
            first.create(PODS, pod("b"));
            assertThat(store().revision()).isGreaterThan(seen); // a restart still replays from before r0
            clock.advance(Duration.ofMinutes(5)); // second tick: compacts up to what the first one saw
            awaitCompacted(seen);
            EtcdObjectStore again = store();
            assertThatThrownBy(() -> again.watch(PODS, r0, e -> { }))
                    .isInstanceOf(ObjectStore.TooOldResourceVersionException.class);
            List<String> replay = new ArrayList<>();
            again.watch(PODS, seen, e -> replay.add(e.type() + " " + e.object().name()));
            assertThat(replay).containsExactly("ADDED b");
        }
    }

    /** The compaction is asynchronous: wait until a store started now can no longer read before {@code revision}. */
    private void awaitCompacted(long revision) {
        for (int i = 0; i < 100; i++) {
            EtcdObjectStore probe = store();
            boolean compacted = probe.oldestWatchableRevision() >= revision;
            if (compacted) {
                return;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        throw new AssertionError("etcd was not compacted to " + revision);
    }

    @Test
    @DisplayName("two stores on one etcd: a write through one is read and watched through the other")
    void twoStoresShareOneEtcd() throws Exception {
        EtcdObjectStore one = store();
        EtcdObjectStore two = store();
        List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());
        two.watch(PODS, 0, e -> seen.add(e.type() + " " + e.object().name() + "@" + e.resourceVersion()));
        StoredObject written = one.create(PODS, pod("shared"));
        StoredObject updated = two.guaranteedUpdate(PODS, "default", "shared", c -> {
            ObjectNode n = c.copy();
            n.putObject("spec").put("by", "two");
            return ObjectStore.UpdateResult.replace(n);
        });
        assertThat(updated.resourceVersion()).isGreaterThan(written.resourceVersion());
        assertThat(seen).containsExactly("ADDED shared@" + written.resourceVersion(),
                "MODIFIED shared@" + updated.resourceVersion());
        for (int i = 0; i < 100 && one.revision() < updated.resourceVersion(); i++) {
            Thread.sleep(10); // the other store hears of it through its own etcd watch
        }
        assertThat(one.get(PODS, "default", "shared").object().path("spec").path("by").asString()).isEqualTo("two");
    }
}
