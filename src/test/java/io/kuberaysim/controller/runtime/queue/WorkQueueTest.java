package io.kuberaysim.controller.runtime.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.kuberaysim.controller.runtime.clock.VirtualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class WorkQueueTest {

    private final VirtualClock clock = new VirtualClock();
    private final Instant start = clock.now();
    private final WorkQueue<String> queue = new WorkQueue<>("test", clock);

    @AfterEach
    void close() {
        clock.close();
    }

    /** Polls everything that is ready, marking each item done at once. */
    private List<String> drain() {
        List<String> out = new ArrayList<>();
        for (String item = queue.poll(); item != null; item = queue.poll()) {
            out.add(item);
            queue.done(item);
        }
        return out;
    }

    @Test
    @DisplayName("an item added twice is handed out once, in first-added order")
    void deduplicates() {
        queue.add("a");
        queue.add("b");
        queue.add("a");

        assertThat(queue.len()).isEqualTo(2);
        assertThat(drain()).containsExactly("a", "b");
        assertThat(queue.poll()).isNull();
    }

    @Test
    @DisplayName("an item added while processing is not handed out again until done, then exactly once")
    void dirtyWhileProcessing() {
        queue.add("a");
        String item = queue.poll();
        assertThat(item).isEqualTo("a");
        assertThat(queue.isProcessing("a")).isTrue();

        queue.add("a");
        queue.add("a");

        assertThat(queue.len()).isZero();
        assertThat(queue.poll()).as("never handed to a second worker").isNull();

        queue.done("a");

        assertThat(queue.len()).isEqualTo(1);
        assertThat(drain()).containsExactly("a");
        assertThat(drain()).isEmpty();
    }

    @Test
    void doneWithoutNewAddsDoesNotRequeue() {
        queue.add("a");
        queue.done(queue.poll());
        assertThat(queue.len()).isZero();
        assertThat(queue.isProcessing("a")).isFalse();
    }

    @Test
    @DisplayName("delayed items become ready at their deadline, earliest first")
    void addAfterOrdersByDeadline() {
        queue.addAfter("in3s", Duration.ofSeconds(3));
        queue.addAfter("in1s", Duration.ofSeconds(1));
        queue.addAfter("in2s", Duration.ofSeconds(2));
        assertThat(queue.len()).isZero();
        assertThat(queue.waitingCount()).isEqualTo(3);

        clock.advance(Duration.ofMillis(999));
        assertThat(drain()).isEmpty();

        clock.advance(Duration.ofMillis(1));
        assertThat(drain()).containsExactly("in1s");

        clock.advance(Duration.ofSeconds(5));
        assertThat(drain()).containsExactly("in2s", "in3s");
        assertThat(queue.waitingCount()).isZero();
    }

    @Test
    @DisplayName("a later addAfter with an earlier deadline wins; one with a later deadline is ignored")
    void addAfterKeepsEarliestDeadline() {
        queue.addAfter("a", Duration.ofSeconds(5));
        queue.addAfter("a", Duration.ofSeconds(2));
        queue.addAfter("a", Duration.ofSeconds(10));

        clock.advance(Duration.ofSeconds(2));
        assertThat(drain()).containsExactly("a");

        clock.advance(Duration.ofMinutes(1));
        assertThat(drain()).as("superseded deadlines do not add the item again").isEmpty();
        assertThat(clock.pendingTimers()).isZero();
    }

    @Test
    void addAfterWithoutDelayAddsNow() {
        queue.addAfter("a", Duration.ZERO);
        assertThat(drain()).containsExactly("a");
    }

    @Test
    @DisplayName("rate-limited adds back off 5ms, 10ms, 20ms, ... per failure")
    void addRateLimitedBacksOffExponentially() {
        List<Long> readyAfterMillis = new ArrayList<>();
        Instant last = start;
        for (int i = 0; i < 6; i++) {
            queue.addRateLimited("a");
            Instant due = clock.nextTimer().orElseThrow();
            clock.advance(Duration.between(clock.now(), due));
            assertThat(drain()).containsExactly("a");
            readyAfterMillis.add(Duration.between(last, clock.now()).toMillis());
            last = clock.now();
        }

        assertThat(readyAfterMillis).containsExactly(5L, 10L, 20L, 40L, 80L, 160L);
        assertThat(queue.numRequeues("a")).isEqualTo(6);
        assertThat(queue.numRequeues("other")).isZero();
    }

    @Test
    void forgetResetsBackoff() {
        queue.addRateLimited("a");
        queue.addRateLimited("a");
        queue.addRateLimited("a");
        clock.advance(Duration.ofSeconds(1));
        drain();
        assertThat(queue.numRequeues("a")).isEqualTo(3);

        queue.forget("a");

        assertThat(queue.numRequeues("a")).isZero();
        queue.addRateLimited("a");
        assertThat(clock.nextTimer()).contains(clock.now().plusMillis(5));
    }

    @Test
    @DisplayName("ready listeners hear about new items and re-queued dirty items, not duplicates")
    void readyListener() {
        AtomicInteger ready = new AtomicInteger();
        queue.onReady(ready::incrementAndGet);

        queue.add("a");
        queue.add("a");
        assertThat(ready).hasValue(1);

        String a = queue.poll();
        queue.add("a");
        assertThat(ready).as("still processing: nothing ready yet").hasValue(1);
        queue.done(a);
        assertThat(ready).hasValue(2);

        queue.poll();
        queue.done("a");
        queue.addAfter("b", Duration.ofSeconds(1));
        assertThat(ready).hasValue(2);
        clock.advance(Duration.ofSeconds(1));
        assertThat(ready).hasValue(3);
    }

    @Test
    void shutDownRejectsNewItemsAndDropsDelayedOnes() {
        queue.add("queued");
        queue.addAfter("delayed", Duration.ofSeconds(1));

        queue.shutDown();
        queue.add("late");

        assertThat(queue.isShuttingDown()).isTrue();
        clock.advance(Duration.ofSeconds(5));
        assertThat(drain()).as("items queued before shutdown can still be finished").containsExactly("queued");
    }
}
