package io.kuberaysim.observability.metrics;

import io.kuberaysim.controller.runtime.queue.QueueMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * client-go's workqueue metrics for one controller's queue, named and labelled as controller-runtime exposes them
 * ({@code name} and {@code controller} both carry the controller's name): depth, adds, retries, time in the queue,
 * work duration, unfinished work and the longest running processor, in real seconds of this process.
 */
final class WorkQueueMeters implements QueueMetrics {
    /** controller-runtime's buckets: 10 ns to 1000 s, by powers of ten. */
    private static final Duration[] BUCKETS = IntStream.range(0, 12)
            .mapToObj(i -> Duration.ofNanos((long) (10 * Math.pow(10, i)))).toArray(Duration[]::new);

    private final MeterRegistry registry;
    private final AtomicInteger depth = new AtomicInteger();
    private final Counter adds;
    private final Counter retries;
    private final Timer queueDuration;
    private final Timer workDuration;
    private final Map<Object, Long> addedAt = new ConcurrentHashMap<>();
    private final Map<Object, Long> processingSince = new ConcurrentHashMap<>();

    WorkQueueMeters(MeterRegistry registry, String name) {
        this.registry = registry;
        Tags tags = Tags.of("name", name, "controller", name);
        Gauge.builder("workqueue_depth", depth, AtomicInteger::get)
                .description("Current depth of workqueue").tags(tags).register(registry);
        adds = Counter.builder("workqueue_adds_total")
                .description("Total number of adds handled by workqueue").tags(tags).register(registry);
        retries = Counter.builder("workqueue_retries_total")
                .description("Total number of retries handled by workqueue").tags(tags).register(registry);
        queueDuration = Timer.builder("workqueue_queue_duration_seconds")
                .description("How long in seconds an item stays in workqueue before being requested")
                .tags(tags).serviceLevelObjectives(BUCKETS).register(registry);
        workDuration = Timer.builder("workqueue_work_duration_seconds")
                .description("How long in seconds processing an item from workqueue takes.")
                .tags(tags).serviceLevelObjectives(BUCKETS).register(registry);
        Gauge.builder("workqueue_unfinished_work_seconds", this, WorkQueueMeters::unfinishedSeconds)
                .description("How many seconds of work has been done that is in progress and hasn't been observed by "
                        + "work_duration. Large values indicate stuck threads. One can deduce the number of stuck "
                        + "threads by observing the rate at which this increases.")
                .tags(tags).register(registry);
        Gauge.builder("workqueue_longest_running_processor_seconds", this, WorkQueueMeters::longestRunningSeconds)
                .description("How many seconds has the longest running processor for workqueue been running.")
                .tags(tags).register(registry);
    }

    private long now() {
        return registry.config().clock().monotonicTime();
    }

    @Override
    public void added(Object item) {
        adds.increment();
        depth.incrementAndGet();
        addedAt.putIfAbsent(item, now());
    }

    @Override
    public void taken(Object item) {
        long now = now();
        depth.decrementAndGet();
        Long since = addedAt.remove(item);
        if (since != null) {
            queueDuration.record(now - since, TimeUnit.NANOSECONDS);
        }
        processingSince.put(item, now);
    }

    @Override
    public void done(Object item) {
        Long since = processingSince.remove(item);
        if (since != null) {
            workDuration.record(now() - since, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void retried(Object item) {
        retries.increment();
    }

    private double unfinishedSeconds() {
        long now = now();
        return processingSince.values().stream().mapToLong(since -> now - since).sum() / 1e9;
    }

    private double longestRunningSeconds() {
        long now = now();
        return processingSince.values().stream().mapToLong(since -> now - since).max().orElse(0) / 1e9;
    }
}
