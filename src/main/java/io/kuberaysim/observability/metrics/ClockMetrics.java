package io.kuberaysim.observability.metrics;

import io.kuberaysim.controller.runtime.clock.Clock;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.time.Duration;

/**
 * The simulation clock: {@code kuberay_sim_clock_time_seconds} (its current time, Unix seconds — virtual time on a
 * virtual clock) and {@code kuberay_sim_clock_elapsed_seconds} (since it started), labelled with its mode.
 */
public final class ClockMetrics {
    private ClockMetrics() {
    }

    public static void register(MeterRegistry registry, Clock clock) {
        Gauge.builder("kuberay_sim_clock_time_seconds", clock, c -> c.now().toEpochMilli() / 1000.0)
                .description("Current time of the simulation clock in seconds since the Unix epoch "
                        + "(virtual time on a virtual clock)")
                .tag("mode", clock.mode()).register(registry);
        Gauge.builder("kuberay_sim_clock_elapsed_seconds", clock,
                        c -> Duration.between(c.startTime(), c.now()).toMillis() / 1000.0)
                .description("Seconds the simulation clock has moved since it started")
                .tag("mode", clock.mode()).register(registry);
    }
}
