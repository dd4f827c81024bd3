package io.kuberaysim.controller.runtime.clock;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WallClockTest {

    private final WallClock clock = new WallClock();

    @AfterEach
    void close() {
        clock.close();
    }

    @Test
    void runsTasksInOrderOnTheLoopThread() throws InterruptedException {
        List<String> seen = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(1);
        clock.execute(() -> seen.add("a:" + clock.inLoop() + ":" + Thread.currentThread().getName()));
        clock.execute(() -> seen.add("b"));
        clock.execute(done::countDown);

        assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(seen).containsExactly("a:true:kuberay-sim-loop", "b");
        assertThat(clock.inLoop()).isFalse();
        assertThat(clock.mode()).isEqualTo("wall");
    }

    @Test
    void timersFireAfterTheirDelayAndCancelledOnesDoNot() throws InterruptedException {
        Instant before = clock.now();
        // Hold the loop so the timer cannot fire between schedule and cancel on a slow machine.
        CountDownLatch gate = new CountDownLatch(1);
        clock.execute(() -> {
            try {
                gate.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        AtomicBoolean cancelledRan = new AtomicBoolean();
        Cancellable cancelled = clock.schedule(Duration.ofMillis(1), () -> cancelledRan.set(true));
        cancelled.cancel();
        gate.countDown();
        CountDownLatch fired = new CountDownLatch(1);
        Instant[] firedAt = new Instant[1];
        clock.schedule(Duration.ofMillis(20), () -> {
            firedAt[0] = clock.now();
            fired.countDown();
        });

        assertThat(fired.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(firedAt[0]).isAfterOrEqualTo(before.plusMillis(20));
        assertThat(cancelledRan).isFalse();
        assertThat(clock.startTime()).isBeforeOrEqualTo(before);
    }

    @Test
    void failingTaskDoesNotStopTheLoop() throws InterruptedException {
        CountDownLatch alive = new CountDownLatch(1);
        clock.execute(() -> {
            throw new IllegalStateException("boom (expected by the test)");
        });
        clock.execute(alive::countDown);

        assertThat(alive.await(5, TimeUnit.SECONDS)).isTrue();
    }
}
