package io.kuberaysim.controller.runtime.clock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class VirtualClockTest {

    private static final Instant START = Instant.parse("2030-06-01T12:00:00Z");

    private final VirtualClock clock = new VirtualClock(START);
    // Written by the loop thread, read by the test thread after awaitIdle/advance (which synchronize).
    private final List<String> trace = Collections.synchronizedList(new ArrayList<>());

    @AfterEach
    void close() {
        clock.close();
    }

    private void mark(String label) {
        trace.add(label + "@" + Duration.between(START, clock.now()).toMillis());
    }

    @Test
    @DisplayName("executed tasks run at once, in submission order, without time moving")
    void executeRunsFifoWithoutAdvancing() {
        // Submitted from one loop task: submissions from a foreign thread would race with the loop.
        clock.execute(() -> {
            clock.execute(() -> mark("a"));
            clock.execute(() -> {
                mark("b");
                clock.execute(() -> mark("d"));
            });
            clock.execute(() -> mark("c"));
        });

        clock.awaitIdle();

        assertThat(trace).containsExactly("a@0", "b@0", "c@0", "d@0");
        assertThat(clock.now()).isEqualTo(START);
        assertThat(clock.startTime()).isEqualTo(START);
        assertThat(clock.mode()).isEqualTo("virtual");
    }

    @Test
    void tasksRunOnTheNamedLoopThread() {
        AtomicReference<String> threadName = new AtomicReference<>();
        AtomicReference<Boolean> inLoop = new AtomicReference<>();
        clock.execute(() -> {
            threadName.set(Thread.currentThread().getName());
            inLoop.set(clock.inLoop());
        });
        clock.awaitIdle();

        assertThat(threadName.get()).isEqualTo("kuberay-sim-loop");
        assertThat(inLoop.get()).isTrue();
        assertThat(clock.inLoop()).isFalse();
    }

    @Test
    @DisplayName("timers wait for advance, then fire in time order and, at equal times, in scheduling order")
    void timersFireInOrderOnlyWhenTimeMoves() {
        clock.schedule(Duration.ofSeconds(3), () -> mark("t3"));
        clock.schedule(Duration.ofSeconds(1), () -> mark("t1-first"));
        clock.schedule(Duration.ofSeconds(2), () -> mark("t2"));
        clock.schedule(Duration.ofSeconds(1), () -> mark("t1-second"));
        clock.awaitIdle();
        assertThat(trace).isEmpty();
        assertThat(clock.pendingTimers()).isEqualTo(4);
        assertThat(clock.nextTimer()).contains(START.plusSeconds(1));

        Instant after = clock.advance(Duration.ofMillis(2500));

        assertThat(trace).containsExactly("t1-first@1000", "t1-second@1000", "t2@2000");
        assertThat(after).isEqualTo(START.plusMillis(2500));
        assertThat(clock.now()).isEqualTo(after);
        assertThat(clock.pendingTimers()).isEqualTo(1);

        clock.advance(Duration.ofSeconds(10));
        assertThat(trace).endsWith("t3@3000");
        assertThat(clock.nextTimer()).isEmpty();
    }

    @Test
    @DisplayName("timers of one instant fire together, then what they cause runs to quiescence before the next instant")
    void timerConsequencesRunBeforeNextTimer() {
        clock.schedule(Duration.ofSeconds(1), () -> {
            mark("a");
            clock.execute(() -> {
                mark("a-followup");
                clock.execute(() -> mark("a-followup-2"));
            });
            clock.schedule(Duration.ofMillis(500), () -> mark("a-timer"));
            clock.schedule(Duration.ofSeconds(5), () -> mark("beyond-target"));
        });
        clock.schedule(Duration.ofSeconds(1), () -> mark("b"));

        clock.advance(Duration.ofSeconds(2));

        assertThat(trace).containsExactly("a@1000", "b@1000", "a-followup@1000", "a-followup-2@1000", "a-timer@1500");
        assertThat(clock.pendingTimers()).isEqualTo(1);
    }

    @Test
    void zeroDelayIsDueNowAndRunsWithoutAdvance() {
        clock.schedule(Duration.ZERO, () -> mark("now"));
        clock.awaitIdle();
        assertThat(trace).containsExactly("now@0");
    }

    @Test
    void cancelledTimersNeverFire() {
        Cancellable timer = clock.schedule(Duration.ofSeconds(1), () -> mark("cancelled"));
        clock.schedule(Duration.ofSeconds(1), () -> mark("kept"));
        timer.cancel();
        assertThat(clock.pendingTimers()).isEqualTo(1);

        clock.advance(Duration.ofMinutes(1));

        assertThat(trace).containsExactly("kept@1000");
        timer.cancel(); // idempotent
    }

    @Test
    @DisplayName("a failing task is logged and the loop keeps running")
    void failingTaskDoesNotStopTheLoop() {
        clock.execute(() -> {
            throw new IllegalStateException("boom (expected by the test)");
        });
        clock.schedule(Duration.ofSeconds(1), () -> {
            throw new IllegalStateException("timer boom (expected by the test)");
        });
        clock.schedule(Duration.ofSeconds(2), () -> mark("still alive"));

        clock.advance(Duration.ofSeconds(2));

        assertThat(trace).containsExactly("still alive@2000");
    }

    @Test
    void advanceAndAwaitIdleAreRejectedOnTheLoopThread() {
        AtomicReference<Throwable> fromAdvance = new AtomicReference<>();
        AtomicReference<Throwable> fromAwait = new AtomicReference<>();
        clock.execute(() -> {
            try {
                clock.advance(Duration.ofSeconds(1));
            } catch (Throwable t) {
                fromAdvance.set(t);
            }
            try {
                clock.awaitIdle();
            } catch (Throwable t) {
                fromAwait.set(t);
            }
        });
        clock.awaitIdle();

        assertThat(fromAdvance.get()).isInstanceOf(IllegalStateException.class);
        assertThat(fromAwait.get()).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> clock.advance(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    @DisplayName("two runs of the same randomized schedule produce identical traces")
    void sameScheduleSameTrace() {
        List<String> first = runRandomSchedule(42);
        List<String> second = runRandomSchedule(42);

        assertThat(first).hasSizeGreaterThan(200);
        assertThat(second).isEqualTo(first);
        List<Long> times = first.stream().map(s -> Long.parseLong(s.substring(s.indexOf('@') + 1))).toList();
        assertThat(times).isSorted();
    }

    /** Tasks that fan out into executes and timers with pseudo-random delays, some cancelled. */
    private static List<String> runRandomSchedule(long seed) {
        Random random = new Random(seed);
        List<String> out = Collections.synchronizedList(new ArrayList<>());
        try (VirtualClock c = new VirtualClock(START)) {
            class Node implements Runnable {
                final String id;
                final int depth;

                Node(String id, int depth) {
                    this.id = id;
                    this.depth = depth;
                }

                @Override
                public void run() {
                    out.add(id + "@" + Duration.between(START, c.now()).toMillis());
                    if (depth >= 4) {
                        return;
                    }
                    int children = random.nextInt(4);
                    for (int i = 0; i < children; i++) {
                        Node child = new Node(id + "." + i, depth + 1);
                        int kind = random.nextInt(3);
                        if (kind == 0) {
                            c.execute(child);
                        } else {
                            Cancellable h = c.schedule(Duration.ofMillis(random.nextInt(50) * 10L), child);
                            if (kind == 2 && random.nextInt(5) == 0) {
                                h.cancel();
                            }
                        }
                    }
                }
            }
            // Seeded from the loop so that the loop and this thread never share the Random at once.
            c.execute(() -> {
                for (int i = 0; i < 40; i++) {
                    c.schedule(Duration.ofMillis(random.nextInt(20) * 10L), new Node("n" + i, 0));
                }
            });
            for (int step = 0; step < 20; step++) {
                c.advance(Duration.ofMillis(37));
            }
            c.advance(Duration.ofHours(1));
        }
        return new ArrayList<>(out);
    }

    @Test
    @DisplayName("following the wall clock fires timers without explicit advances")
    void followingWallClockMovesTime() throws InterruptedException {
        CountDownLatch fired = new CountDownLatch(1);
        clock.schedule(Duration.ofSeconds(10), fired::countDown);

        clock.startFollowingWallClock(1000); // 10 virtual seconds in about 10 ms of wall time
        try {
            assertThat(clock.isFollowingWallClock()).isTrue();
            assertThat(fired.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(clock.now()).isAfterOrEqualTo(START.plusSeconds(10));
        } finally {
            clock.stopFollowingWallClock();
        }
        assertThat(clock.isFollowingWallClock()).isFalse();
    }
}
