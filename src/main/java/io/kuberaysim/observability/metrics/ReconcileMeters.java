package io.kuberaysim.observability.metrics;

import io.kuberaysim.controller.runtime.ReconcileMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.DoubleStream;

/**
 * controller-runtime's per-controller metrics: {@code controller_runtime_reconcile_total} by result (every result
 * present from the start, as controller-runtime initialises them), {@code controller_runtime_reconcile_errors_total},
 * {@code controller_runtime_reconcile_time_seconds} (real seconds), {@code controller_runtime_active_workers} and
 * {@code controller_runtime_max_concurrent_reconciles}.
 */
final class ReconcileMeters implements ReconcileMetrics {
    /** controller-runtime's buckets for reconcile_time_seconds. */
    private static final Duration[] BUCKETS = DoubleStream.of(0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3,
            0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8,
            9, 10, 15, 20, 25, 30, 40, 50, 60).mapToObj(s -> Duration.ofNanos(Math.round(s * 1e9)))
            .toArray(Duration[]::new);

    private final MeterRegistry registry;
    private final Map<Outcome, Counter> totals = new EnumMap<>(Outcome.class);
    private final Counter errors;
    private final Timer time;
    private final AtomicInteger active = new AtomicInteger();

    ReconcileMeters(MeterRegistry registry, String controller, int maxConcurrentReconciles) {
        this.registry = registry;
        for (Outcome o : Outcome.values()) {
            totals.put(o, Counter.builder("controller_runtime_reconcile_total")
                    .description("Total number of reconciliations per controller")
                    .tags("controller", controller, "result", o.name().toLowerCase(Locale.ROOT))
                    .register(registry));
        }
        errors = Counter.builder("controller_runtime_reconcile_errors_total")
                .description("Total number of reconciliation errors per controller")
                .tag("controller", controller).register(registry);
        time = Timer.builder("controller_runtime_reconcile_time_seconds")
                .description("Length of time per reconciliation per controller")
                .tag("controller", controller).serviceLevelObjectives(BUCKETS).register(registry);
        Gauge.builder("controller_runtime_active_workers", active, AtomicInteger::get)
                .description("Number of currently used workers per controller")
                .tag("controller", controller).register(registry);
        Gauge.builder("controller_runtime_max_concurrent_reconciles", () -> maxConcurrentReconciles)
                .description("Maximum number of concurrent reconciles per controller")
                .tag("controller", controller).register(registry);
    }

    @Override
    public long started() {
        active.incrementAndGet();
        return registry.config().clock().monotonicTime();
    }

    @Override
    public void finished(long mark, Outcome outcome) {
        time.record(registry.config().clock().monotonicTime() - mark, TimeUnit.NANOSECONDS);
        active.decrementAndGet();
        totals.get(outcome).increment();
        if (outcome == Outcome.ERROR) {
            errors.increment();
        }
    }
}
