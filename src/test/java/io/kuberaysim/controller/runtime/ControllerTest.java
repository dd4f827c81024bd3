package io.kuberaysim.controller.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import io.kuberaysim.controller.runtime.queue.ItemExponentialFailureRateLimiter;
import io.kuberaysim.controller.runtime.reconcile.Reconciler;
import io.kuberaysim.controller.runtime.reconcile.Request;
import io.kuberaysim.controller.runtime.reconcile.Result;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class ControllerTest {

    private static final Request RC = new Request("default", "raycluster-a");

    private final VirtualClock clock = new VirtualClock();
    private final Instant start = clock.now();
    // Reconciles run on the loop thread; the test reads after awaitIdle/advance.
    private final List<String> calls = Collections.synchronizedList(new ArrayList<>());
    private Controller controller;

    @AfterEach
    void close() {
        if (controller != null) {
            controller.stop();
        }
        clock.close();
    }

    private Controller start(Reconciler reconciler) {
        controller = new Controller("test-controller", clock, reconciler);
        controller.start();
        return controller;
    }

    private String at(Request r) {
        return r + "@" + Duration.between(start, clock.now()).toMillis();
    }

    @Test
    @DisplayName("requeueAfter(2s) reconciles again exactly two seconds later")
    void requeueAfterRunsAtTheRequestedTime() {
        start(r -> {
            calls.add(at(r));
            return Result.requeueAfter(Duration.ofSeconds(2));
        });

        controller.enqueue(RC);
        clock.awaitIdle();
        assertThat(calls).containsExactly("default/raycluster-a@0");

        clock.advance(Duration.ofMillis(1999));
        assertThat(calls).hasSize(1);

        clock.advance(Duration.ofMillis(1));
        assertThat(calls).containsExactly("default/raycluster-a@0", "default/raycluster-a@2000");

        clock.advance(Duration.ofSeconds(4));
        assertThat(calls).endsWith("default/raycluster-a@4000", "default/raycluster-a@6000");
        assertThat(controller.queue().numRequeues(RC)).as("requeueAfter forgets the backoff").isZero();
    }

    @Test
    @DisplayName("a failing reconciler is retried after 5ms, 10ms, 20ms, ... and recovers")
    void errorsBackOffExponentially() {
        List<Instant> times = Collections.synchronizedList(new ArrayList<>());
        start(r -> {
            times.add(clock.now());
            if (times.size() <= 6) {
                throw new IllegalStateException("not yet (expected by the test)");
            }
            return Result.done();
        });

        controller.enqueue(RC);
        clock.advance(Duration.ofMillis(4));
        assertThat(times).hasSize(1);
        clock.advance(Duration.ofSeconds(10));

        List<Long> gaps = new ArrayList<>();
        for (int i = 1; i < times.size(); i++) {
            gaps.add(Duration.between(times.get(i - 1), times.get(i)).toMillis());
        }
        assertThat(gaps).containsExactly(5L, 10L, 20L, 40L, 80L, 160L);
        assertThat(controller.queue().numRequeues(RC)).as("success forgets the failures").isZero();
        assertThat(clock.pendingTimers()).isZero();
    }

    @Test
    @DisplayName("requeue without a delay backs off like an error")
    void requeueUsesBackoff() {
        List<Instant> times = Collections.synchronizedList(new ArrayList<>());
        start(r -> {
            times.add(clock.now());
            return times.size() < 3 ? Result.requeueWithBackoff() : Result.done();
        });

        controller.enqueue(RC);
        clock.advance(Duration.ofMinutes(1));

        assertThat(times).containsExactly(start, start.plusMillis(5), start.plusMillis(15));
    }

    @Test
    @DisplayName("two enqueues of the same key during its reconcile produce exactly one more reconcile")
    void enqueuesDuringReconcileCollapseIntoOne() {
        start(r -> {
            calls.add(at(r));
            if (calls.size() == 1) {
                // Watch events for the same object arriving while it is being reconciled.
                controller.enqueue(r);
                controller.enqueue(r);
            }
            return Result.done();
        });

        controller.enqueue(RC);
        clock.advance(Duration.ofHours(1));

        assertThat(calls).containsExactly("default/raycluster-a@0", "default/raycluster-a@0");
    }

    @Test
    void requestsAreReconciledInArrivalOrderAndDuplicatesCollapse() {
        start(r -> {
            calls.add(r.toString());
            return Result.done();
        });

        clock.execute(() -> {
            controller.enqueue(new Request("ns", "a"));
            controller.enqueue(new Request("ns", "b"));
            controller.enqueue(new Request("ns", "a"));
            controller.enqueue(Request.clusterScoped("node-1"));
        });
        clock.awaitIdle();

        assertThat(calls).containsExactly("ns/a", "ns/b", "node-1");
    }

    @Test
    void requestsEnqueuedBeforeStartWaitForIt() {
        controller = new Controller("test-controller", clock, r -> {
            calls.add(r.toString());
            return Result.done();
        });
        controller.enqueue(RC);
        clock.advance(Duration.ofSeconds(1));
        assertThat(calls).isEmpty();

        controller.start();
        clock.awaitIdle();

        assertThat(calls).containsExactly("default/raycluster-a");
    }

    @Test
    @DisplayName("one failing request does not stop other requests from being reconciled")
    void failureIsIsolated() {
        Request broken = new Request("default", "broken");
        start(r -> {
            calls.add(r.toString());
            if (r.equals(broken)) {
                throw new RuntimeException("broken (expected by the test)");
            }
            return null; // treated as done
        });

        controller.enqueue(broken);
        controller.enqueue(RC);
        clock.awaitIdle();

        assertThat(calls).containsExactly("default/broken", "default/raycluster-a");
        assertThat(controller.queue().numRequeues(broken)).isEqualTo(1);
    }

    @Test
    void stoppedControllerReconcilesNothing() {
        start(r -> {
            calls.add(r.toString());
            return Result.requeueAfter(Duration.ofSeconds(1));
        });
        controller.enqueue(RC);
        clock.awaitIdle();

        controller.stop();
        controller.enqueue(new Request("default", "other"));
        clock.advance(Duration.ofMinutes(1));

        assertThat(calls).containsExactly("default/raycluster-a");
        assertThat(controller.isRunning()).isFalse();
    }

    @Test
    void reconcilesRunOnTheLoopThreadOnAVirtualClock() {
        List<Boolean> onLoop = Collections.synchronizedList(new ArrayList<>());
        start(r -> {
            onLoop.add(clock.inLoop());
            return Result.done();
        });
        controller.enqueue(RC);
        clock.awaitIdle();

        assertThat(onLoop).containsExactly(true);
    }

    @Test
    @DisplayName("a key that keeps failing gets one Warning per distinct cause, backs off alone, and others are served")
    void failingKeyGetsOneWarningPerCauseAndDoesNotStopOthers() {
        Request poison = new Request("default", "poison");
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        List<String> causes = new ArrayList<>(List.of("replicas: not a number", "replicas: not a number",
                "replicas: not a number", "replicas: too large", "replicas: too large"));
        ReconcileFailures failures = new ReconcileFailures("test-controller",
                r -> StoredObject.unstored(ResourceTypes.RAYCLUSTERS,
                        (ObjectNode) Json.MAPPER.readTree(
                                "{\"metadata\":{\"name\":\"" + r.name() + "\",\"namespace\":\"default\"}}")),
                (involved, type, reason, action, message) -> events.add(involved.name() + " " + type + " " + reason
                        + " " + message));
        controller = new Controller("test-controller", clock, r -> {
            calls.add(at(r));
            if (r.equals(poison) && !causes.isEmpty()) {
                throw new IllegalArgumentException(causes.remove(0));
            }
            return Result.done();
        }, 1, new ItemExponentialFailureRateLimiter<>(), ControllerMetrics.NONE, failures);
        controller.start();

        controller.enqueue(poison);
        controller.enqueue(RC);
        clock.advance(Duration.ofSeconds(1));
        assertThat(calls).filteredOn(c -> c.startsWith("default/raycluster-a")).containsExactly("default/raycluster-a@0");
        assertThat(calls).filteredOn(c -> c.startsWith("default/poison")).hasSize(6);
        assertThat(events).containsExactly(
                "poison Warning ReconcileError Reconcile failed: IllegalArgumentException: replicas: not a number",
                "poison Warning ReconcileError Reconcile failed: IllegalArgumentException: replicas: too large");
        assertThat(failures.failingKeys()).as("the success forgot the key").isZero();
    }
}
