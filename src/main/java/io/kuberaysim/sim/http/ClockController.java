package io.kuberaysim.sim.http;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code /sim/v1/clock}: reads the simulation clock and, on a virtual clock, moves it by a duration or until the
 * cluster settles. Errors are
 * Kubernetes Status bodies (rendered by the API server's error advice).
 */
@RestController
class ClockController {
    /** How long without a write {@code settle} waits for before it calls the cluster idle. */
    private static final Duration QUIET = Duration.ofSeconds(30);
    /** How far {@code settle} moves time at most, so periodic resyncs cannot keep it going for ever. */
    private static final Duration SETTLE_LIMIT = Duration.ofHours(1);
    /** Writes that {@code settle} does not wait for the end of. */
    private static final Set<ResourceType> NOT_CHANGES = Set.of(ResourceTypes.LEASES, ResourceTypes.EVENTS);

    private final Clock clock;
    private final ObjectStore store;

    ClockController(Clock clock, ObjectStore store) {
        this.clock = clock;
        this.store = store;
    }

    @GetMapping(path = "/sim/v1/clock", produces = MediaType.APPLICATION_JSON_VALUE)
    Map<String, Object> get() {
        return describe(clock.now());
    }

    /** Processes every event up to now + seconds (fractions allowed) and answers the new time. */
    @PostMapping(path = "/sim/v1/clock/advance", produces = MediaType.APPLICATION_JSON_VALUE)
    Map<String, Object> advance(@RequestParam(name = "seconds", required = false) String seconds) {
        VirtualClock virtual = virtualClock();
        Duration d;
        try {
            BigDecimal s = new BigDecimal(seconds == null ? "" : seconds.trim());
            if (s.signum() < 0 || s.compareTo(BigDecimal.valueOf(366L * 24 * 3600)) > 0) {
                throw new NumberFormatException();
            }
            d = Duration.ofNanos(s.movePointRight(9).longValue());
        } catch (NumberFormatException | ArithmeticException e) {
            throw ApiException.badRequest("seconds must be a number of seconds between 0 and 31622400, got \""
                    + seconds + "\"");
        }
        return describe(virtual.advance(d));
    }

    /**
     * Runs the cluster until nothing is pending: moves time from timer to timer (as the demo does) until no timer is
     * left, or the next one is more than 30 s after the last write to the store (what remains are periodic resyncs
     * and requeues that change nothing), or one hour has passed. Node Lease renewals and Events (and their expiry)
     * are heartbeats and records, not changes of the cluster, and do not count as writes. Answers the new time.
     */
    @PostMapping(path = "/sim/v1/clock/settle", produces = MediaType.APPLICATION_JSON_VALUE)
    Map<String, Object> settle() {
        VirtualClock virtual = virtualClock();
        virtual.awaitIdle();
        AtomicLong writes = new AtomicLong();
        try (ObjectStore.Subscription s = store.watch(null, store.revision(), e -> {
            if (!NOT_CHANGES.contains(e.object().type())) {
                writes.incrementAndGet();
            }
        })) {
            Instant limit = virtual.now().plus(SETTLE_LIMIT);
            Instant lastWrite = virtual.now();
            long seen = 0;
            while (true) {
                Optional<Instant> next = virtual.nextTimer();
                if (next.isEmpty() || next.get().isAfter(limit) || next.get().isAfter(lastWrite.plus(QUIET))) {
                    break;
                }
                Instant now = virtual.advance(Duration.between(virtual.now(), next.get()).abs());
                if (writes.get() != seen) {
                    seen = writes.get();
                    lastWrite = now;
                }
            }
        }
        return describe(virtual.now());
    }

    private VirtualClock virtualClock() {
        if (!(clock instanceof VirtualClock virtual)) {
            throw new ApiException(409, "Conflict",
                    "the clock is in " + clock.mode() + " mode; only a virtual clock can be advanced", null);
        }
        return virtual;
    }

    private Map<String, Object> describe(Instant now) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("mode", clock.mode());
        m.put("now", now.toString());
        m.put("startTime", clock.startTime().toString());
        m.put("elapsedSeconds", Duration.between(clock.startTime(), now).toMillis() / 1000.0);
        return m;
    }
}
