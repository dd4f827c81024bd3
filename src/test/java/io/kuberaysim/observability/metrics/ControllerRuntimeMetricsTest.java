package io.kuberaysim.observability.metrics;

import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.controller.runtime.Controller;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import io.kuberaysim.controller.runtime.queue.ItemExponentialFailureRateLimiter;
import io.kuberaysim.controller.runtime.queue.WorkQueue;
import io.kuberaysim.controller.runtime.reconcile.Request;
import io.kuberaysim.controller.runtime.reconcile.Result;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * client-go's workqueue and controller-runtime's reconcile metrics, as a controller and its queue report them. The
 * meters' own clock is a mock clock moved by hand, so durations are exact.
 */
class ControllerRuntimeMetricsTest {
    private final MockClock time = new MockClock();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry(SimpleConfig.DEFAULT, time);
    private final ControllerRuntimeMetrics metrics = new ControllerRuntimeMetrics(registry);
    private final VirtualClock clock = new VirtualClock();

    @AfterEach
    void close() {
        clock.close();
    }

    private double gauge(String name, String queue) {
        return registry.get(name).tag("name", queue).tag("controller", queue).gauge().value();
    }

    private double counter(String name, String queue) {
        return registry.get(name).tag("name", queue).tag("controller", queue).counter().count();
    }

    @Test
    void queueReportsDepthAddsWaitWorkRetriesAndRunningWork() {
        WorkQueue<String> q = new WorkQueue<>("pods", clock, new ItemExponentialFailureRateLimiter<>(),
                metrics.queue("pods"));
        q.add("a");
        q.add("a"); // already queued: no add
        q.add("b");
        assertThat(gauge("workqueue_depth", "pods")).isEqualTo(2);
        assertThat(counter("workqueue_adds_total", "pods")).isEqualTo(2);

        time.add(2, TimeUnit.SECONDS);
        assertThat(q.poll()).isEqualTo("a");
        assertThat(gauge("workqueue_depth", "pods")).isEqualTo(1);
        assertThat(registry.get("workqueue_queue_duration_seconds").tag("name", "pods").timer()
                .totalTime(TimeUnit.SECONDS)).isEqualTo(2.0);

        time.add(3, TimeUnit.SECONDS);
        assertThat(gauge("workqueue_longest_running_processor_seconds", "pods")).isEqualTo(3.0);
        assertThat(gauge("workqueue_unfinished_work_seconds", "pods")).isEqualTo(3.0);

        q.add("a"); // added while processing: dirty, queued again by done
        assertThat(counter("workqueue_adds_total", "pods")).isEqualTo(2);
        q.done("a");
        assertThat(registry.get("workqueue_work_duration_seconds").tag("name", "pods").timer()
                .totalTime(TimeUnit.SECONDS)).isEqualTo(3.0);
        assertThat(counter("workqueue_adds_total", "pods")).isEqualTo(3);
        assertThat(gauge("workqueue_depth", "pods")).isEqualTo(2);
        assertThat(gauge("workqueue_longest_running_processor_seconds", "pods")).isZero();

        q.addAfter("c", Duration.ofSeconds(1));
        q.addRateLimited("d");
        assertThat(counter("workqueue_retries_total", "pods")).isEqualTo(2);
    }

    @Test
    void controllerCountsReconcilesByResultAndErrorsAndFreesItsWorkers() {
        Controller c = new Controller("rayclusters", clock, r -> switch (r.name()) {
            case "ok" -> Result.done();
            case "later" -> Result.requeueAfter(Duration.ofMinutes(5));
            case "again" -> Result.requeueWithBackoff();
            default -> throw ApiException.pathNotFound();
        }, 1, new ItemExponentialFailureRateLimiter<>(Duration.ofHours(1), Duration.ofHours(1)), metrics);
        c.start();
        for (String name : new String[] {"ok", "later", "again", "broken"}) {
            c.enqueue(new Request("default", name));
        }
        clock.awaitIdle();
        c.stop();

        for (String result : new String[] {"success", "requeue_after", "requeue", "error"}) {
            assertThat(registry.get("controller_runtime_reconcile_total").tag("controller", "rayclusters")
                    .tag("result", result).counter().count()).as(result).isEqualTo(1);
        }
        assertThat(registry.get("controller_runtime_reconcile_errors_total").tag("controller", "rayclusters")
                .counter().count()).isEqualTo(1);
        assertThat(registry.get("controller_runtime_reconcile_time_seconds").tag("controller", "rayclusters")
                .timer().count()).isEqualTo(4);
        assertThat(registry.get("controller_runtime_active_workers").tag("controller", "rayclusters")
                .gauge().value()).isZero();
        assertThat(registry.get("controller_runtime_max_concurrent_reconciles").tag("controller", "rayclusters")
                .gauge().value()).isEqualTo(1);
    }
}
