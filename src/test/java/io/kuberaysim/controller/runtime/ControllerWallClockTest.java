package io.kuberaysim.controller.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.kuberaysim.controller.runtime.clock.WallClock;
import io.kuberaysim.controller.runtime.reconcile.Request;
import io.kuberaysim.controller.runtime.reconcile.Result;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Parallel reconciles on a wall clock: real threads, so these tests wait on latches (never sleep). */
class ControllerWallClockTest {

    private final WallClock clock = new WallClock();
    private Controller controller;

    @AfterEach
    void close() {
        if (controller != null) {
            controller.stop();
        }
        clock.close();
    }

    @Test
    void differentRequestsReconcileInParallelUpToTheLimit() throws InterruptedException {
        CountDownLatch bothRunning = new CountDownLatch(2);
        AtomicBoolean sawEachOther = new AtomicBoolean(true);
        controller = new Controller("parallel", clock, r -> {
            bothRunning.countDown();
            // Only returns in time if the other request is being reconciled at the same moment.
            if (!bothRunning.await(5, TimeUnit.SECONDS)) {
                sawEachOther.set(false);
            }
            return Result.done();
        }, 2);
        controller.start();

        controller.enqueue(new Request("ns", "a"));
        controller.enqueue(new Request("ns", "b"));

        assertThat(bothRunning.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(sawEachOther).isTrue();
    }

    @Test
    void theSameRequestIsNeverReconciledTwiceAtOnce() throws InterruptedException {
        int keys = 8;
        int roundsPerKey = 20;
        Map<Request, AtomicInteger> inFlight = new ConcurrentHashMap<>();
        Map<Request, AtomicInteger> rounds = new ConcurrentHashMap<>();
        AtomicInteger maxParallel = new AtomicInteger();
        AtomicInteger parallel = new AtomicInteger();
        AtomicBoolean overlap = new AtomicBoolean();
        CountDownLatch finished = new CountDownLatch(keys);

        controller = new Controller("no-overlap", clock, r -> {
            if (inFlight.computeIfAbsent(r, k -> new AtomicInteger()).incrementAndGet() > 1) {
                overlap.set(true);
            }
            maxParallel.accumulateAndGet(parallel.incrementAndGet(), Math::max);
            try {
                int n = rounds.computeIfAbsent(r, k -> new AtomicInteger()).incrementAndGet();
                if (n < roundsPerKey) {
                    controller.enqueue(r); // arrives while r is processing: must wait for done
                } else if (n == roundsPerKey) {
                    finished.countDown();
                }
                return Result.done();
            } finally {
                parallel.decrementAndGet();
                inFlight.get(r).decrementAndGet();
            }
        }, 4);
        controller.start();

        for (int round = 0; round < 5; round++) {
            for (int k = 0; k < keys; k++) {
                controller.enqueue(new Request("ns", "key-" + k));
            }
        }

        assertThat(finished.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(overlap).as("same request reconciled by two workers at once").isFalse();
        assertThat(maxParallel.get()).isLessThanOrEqualTo(4);
    }
}
