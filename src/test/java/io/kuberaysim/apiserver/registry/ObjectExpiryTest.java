package io.kuberaysim.apiserver.registry;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.registry.strategy.ConfigMapStrategy;
import io.kuberaysim.apiserver.registry.strategy.EventStrategy;
import io.kuberaysim.apiserver.registry.strategy.NamespaceStrategy;
import io.kuberaysim.apiserver.storage.InMemoryObjectStore;
import io.kuberaysim.apiserver.storage.WatchEvent;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.kuberaysim.api.ResourceTypes.CONFIGMAPS;
import static io.kuberaysim.api.ResourceTypes.EVENTS;
import static io.kuberaysim.api.ResourceTypes.NAMESPACES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Events expire {@code event-ttl} after their last write, on the virtual clock, through the store's delete. */
class ObjectExpiryTest {
    private final VirtualClock clock = new VirtualClock();
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
        clock.close();
    }

    private GenericRegistry registry(Duration eventTtl) {
        GenericRegistry r = new GenericRegistry(new InMemoryObjectStore(10_000), List.of(new NamespaceStrategy(),
                new EventStrategy(eventTtl), new ConfigMapStrategy()), clock, IdentityStreams.seeded(1));
        ObjectNode ns = Json.object();
        ns.putObject("metadata").put("name", "default");
        r.create(NAMESPACES, null, ns, WriteOptions.DEFAULT);
        ObjectExpiry expiry = new ObjectExpiry(r, clock);
        expiry.start();
        toClose.add(expiry);
        return r;
    }

    private static ObjectNode event(String name) {
        ObjectNode ev = Json.object();
        ev.putObject("metadata").put("name", name);
        ev.putObject("involvedObject").put("kind", "Pod").put("name", "p").put("namespace", "default");
        ev.put("reason", "Started");
        ev.put("count", 1);
        return ev;
    }

    private static boolean exists(GenericRegistry r, String name) {
        return r.store().get(EVENTS, "default", name) != null;
    }

    private void advanceSeconds(double s) {
        clock.advance(Duration.ofMillis(Math.round(s * 1000)));
    }

    @Test
    @DisplayName("an Event is deleted once the TTL has passed since it was written, and watchers see DELETED")
    void eventExpiresAfterTtl() {
        GenericRegistry r = registry(Duration.ofSeconds(30));
        r.create(EVENTS, "default", event("e1"), WriteOptions.DEFAULT);
        List<WatchEvent> seen = new ArrayList<>();
        r.reader().watch(EVENTS, "default", new ListOptions(null, null, null, null,
                Long.toString(r.store().revision()), null, false, false), seen::add);

        advanceSeconds(29.9);
        assertThat(exists(r, "e1")).isTrue();
        advanceSeconds(0.1);
        assertThat(exists(r, "e1")).isFalse();
        assertThat(seen).extracting(WatchEvent::type).containsExactly(WatchEvent.Type.DELETED);
        assertThat(seen.get(0).object().name()).isEqualTo("e1");
        assertThatThrownBy(() -> r.reader().get(EVENTS, "default", "e1"))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code()).isEqualTo(404));
    }

    @Test
    @DisplayName("every write renews the lease: a count bump at 20 s keeps the Event until 50 s")
    void updateRefreshesTtl() {
        GenericRegistry r = registry(Duration.ofSeconds(30));
        r.create(EVENTS, "default", event("e1"), WriteOptions.DEFAULT);
        advanceSeconds(20);
        ObjectNode bump = Json.object();
        bump.put("count", 2);
        r.patch(EVENTS, "default", "e1", PatchType.MERGE, bump, false, WriteOptions.DEFAULT);

        advanceSeconds(29.5); // 49.5 s after the create, 29.5 s after the bump
        assertThat(exists(r, "e1")).isTrue();
        advanceSeconds(0.5);
        assertThat(exists(r, "e1")).isFalse();
    }

    @Test
    @DisplayName("other kinds never expire, and event-ttl 0 keeps Events for ever")
    void onlyEventsWithATtlExpire() {
        GenericRegistry r = registry(Duration.ZERO);
        r.create(EVENTS, "default", event("kept"), WriteOptions.DEFAULT);
        ObjectNode cm = Json.object();
        cm.putObject("metadata").put("name", "cm");
        r.create(CONFIGMAPS, "default", cm, WriteOptions.DEFAULT);

        advanceSeconds(48 * 3600);
        assertThat(exists(r, "kept")).isTrue();
        assertThat(r.store().get(CONFIGMAPS, "default", "cm")).isNotNull();
        assertThat(clock.pendingTimers()).isZero();
    }

    @Test
    @DisplayName("an Event deleted or recreated before its TTL is left alone by the old lease")
    void deletedAndRecreatedEvents() {
        GenericRegistry r = registry(Duration.ofSeconds(30));
        r.create(EVENTS, "default", event("gone"), WriteOptions.DEFAULT);
        r.create(EVENTS, "default", event("again"), WriteOptions.DEFAULT);
        advanceSeconds(10);
        r.delete(EVENTS, "default", "gone", DeleteOptions.DEFAULT);
        r.delete(EVENTS, "default", "again", DeleteOptions.DEFAULT);
        r.create(EVENTS, "default", event("again"), WriteOptions.DEFAULT);

        advanceSeconds(25); // 35 s: the first leases ran out, the new "again" has 5 s left
        assertThat(exists(r, "again")).isTrue();
        advanceSeconds(5);
        assertThat(exists(r, "again")).isFalse();
    }

    @Test
    @DisplayName("one pending timer however many Events are leased; each sweep takes everything due")
    void oneTimerForAllLeases() {
        GenericRegistry r = registry(Duration.ofSeconds(30));
        for (int i = 0; i < 1_000; i++) {
            r.create(EVENTS, "default", event("e" + i), WriteOptions.DEFAULT);
            if (i % 100 == 99) {
                advanceSeconds(1);
            }
        }
        assertThat(clock.pendingTimers()).isEqualTo(1);

        advanceSeconds(30); // 40 s: the Events written in the first 10 s are older than 30 s
        assertThat(r.store().list(EVENTS, "default").items()).isEmpty();
        assertThat(clock.pendingTimers()).isZero();
    }

    @Test
    @DisplayName("Events written close together are swept together, at most a second after their TTL")
    void sweepsAtMostOncePerSecond() {
        GenericRegistry r = registry(Duration.ofSeconds(30));
        r.create(EVENTS, "default", event("a"), WriteOptions.DEFAULT);
        advanceSeconds(0.2);
        r.create(EVENTS, "default", event("b"), WriteOptions.DEFAULT);

        advanceSeconds(29.8); // 30 s: "a" is due and swept
        assertThat(exists(r, "a")).isFalse();
        assertThat(exists(r, "b")).isTrue();
        advanceSeconds(0.9); // 30.9 s: "b" is due since 30.2 s, the next sweep is at 31 s
        assertThat(exists(r, "b")).isTrue();
        advanceSeconds(0.1);
        assertThat(exists(r, "b")).isFalse();
    }
}
