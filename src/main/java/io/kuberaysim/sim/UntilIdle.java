package io.kuberaysim.sim;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.controller.runtime.clock.VirtualClock;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs the cluster until nothing is pending: moves a virtual clock from timer to timer until no timer is left, or
 * the next one is more than 30 s after the last write to the store (what remains are periodic resyncs and requeues
 * that change nothing), or one hour has passed. Node Lease renewals and Events (and their expiry) are heartbeats
 * and records, not changes of the cluster, and do not count as writes. {@code POST /sim/v1/clock/settle} and the
 * test kit's {@code runUntilIdle()}.
 */
public final class UntilIdle {
    /** How long without a write counts as idle. */
    public static final Duration QUIET = Duration.ofSeconds(30);
    /** How far time moves at most, so periodic resyncs cannot keep it going for ever. */
    public static final Duration LIMIT = Duration.ofHours(1);
    private static final Set<ResourceType> NOT_CHANGES = Set.of(ResourceTypes.LEASES, ResourceTypes.EVENTS);

    private UntilIdle() {
    }

    /** Runs {@code clock} until the cluster in {@code store} is idle; answers the new time. */
    public static Instant run(VirtualClock clock, ObjectStore store) {
        clock.awaitIdle();
        AtomicLong writes = new AtomicLong();
        try (ObjectStore.Subscription s = store.watch(null, store.revision(), e -> {
            if (!NOT_CHANGES.contains(e.object().type())) {
                writes.incrementAndGet();
            }
        })) {
            Instant limit = clock.now().plus(LIMIT);
            Instant lastWrite = clock.now();
            long seen = 0;
            while (true) {
                Optional<Instant> next = clock.nextTimer();
                if (next.isEmpty() || next.get().isAfter(limit) || next.get().isAfter(lastWrite.plus(QUIET))) {
                    break;
                }
                Instant now = clock.advance(Duration.between(clock.now(), next.get()).abs());
                if (writes.get() != seen) {
                    seen = writes.get();
                    lastWrite = now;
                }
            }
        }
        return clock.now();
    }
}
