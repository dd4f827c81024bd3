package io.kuberaysim.observability.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.DoubleStream;
import java.util.stream.IntStream;

/**
 * kube-apiserver's request metrics, with its names, labels and buckets: {@code apiserver_request_total},
 * {@code apiserver_request_duration_seconds}, {@code apiserver_current_inflight_requests},
 * {@code apiserver_longrunning_requests} and {@code apiserver_request_body_size_bytes}. Durations are real
 * seconds of this process. Meters are looked up once per label set and kept, so a request costs a map lookup
 * and an increment.
 */
public final class ApiServerRequestMetrics {
    static final String COMPONENT = "apiserver";

    /** kube-apiserver's buckets for apiserver_request_duration_seconds. */
    private static final Duration[] DURATION_BUCKETS = DoubleStream.of(0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8,
            1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60)
            .mapToObj(s -> Duration.ofNanos(Math.round(s * 1e9))).toArray(Duration[]::new);
    /** kube-apiserver's buckets for apiserver_request_body_size_bytes: 50 kB, then every 100 kB up to 3 MB. */
    private static final double[] BODY_BUCKETS = IntStream.range(0, 31).mapToDouble(i -> 50_000 + i * 100_000.0)
            .toArray();

    private final MeterRegistry registry;
    private final LongAdder readOnlyInFlight = new LongAdder();
    private final LongAdder mutatingInFlight = new LongAdder();
    private final Map<RequestInfo, Meters> meters = new ConcurrentHashMap<>();
    private final Map<RequestInfo, AtomicInteger> longRunning = new ConcurrentHashMap<>();
    /** By the request's labels, which compare cheaply (the summary's own labels are only resource and verb). */
    private final Map<RequestInfo, DistributionSummary> bodySizes = new ConcurrentHashMap<>();

    /** The duration histogram of one label set and its counters by response code, created as codes occur. */
    private final class Meters {
        final RequestInfo info;
        final Timer duration;
        final AtomicReferenceArray<Counter> byCode = new AtomicReferenceArray<>(600);

        Meters(RequestInfo info) {
            this.info = info;
            this.duration = Timer.builder("apiserver_request_duration_seconds")
                    .description("Response latency distribution in seconds for each verb, dry run value, group, "
                            + "version, resource, subresource, scope and component.")
                    .tags(labels(info)).serviceLevelObjectives(DURATION_BUCKETS)
                    .register(registry);
        }

        Counter count(int code) {
            if (code < 0 || code >= byCode.length()) {
                return counter(code);
            }
            Counter c = byCode.get(code);
            if (c == null) {
                c = counter(code);
                byCode.set(code, c); // a race registers the same meter twice; the registry returns the same one
            }
            return c;
        }

        private Counter counter(int code) {
            return Counter.builder("apiserver_request_total")
                    .description("Counter of apiserver requests broken out for each verb, dry run value, group, "
                            + "version, resource, scope, component, and HTTP response code.")
                    .tags(labels(info)).tag("code", Integer.toString(code))
                    .register(registry);
        }
    }

    public ApiServerRequestMetrics(MeterRegistry registry) {
        this.registry = registry;
        Gauge.builder("apiserver_current_inflight_requests", readOnlyInFlight, LongAdder::sum)
                .description("Number of requests this apiserver is serving now, per request kind "
                        + "(kube-apiserver reports the maximum of the last second)")
                .tag("request_kind", "readOnly").register(registry);
        Gauge.builder("apiserver_current_inflight_requests", mutatingInFlight, LongAdder::sum)
                .tag("request_kind", "mutating").register(registry);
    }

    /** The registry's monotonic time, for {@link #finished}. */
    long now() {
        return registry.config().clock().monotonicTime();
    }

    /** A request that is not long-running started. */
    void inFlight(RequestInfo info, int delta) {
        (info.mutating() ? mutatingInFlight : readOnlyInFlight).add(delta);
    }

    /** A long-running request (watch, pod log) started ({@code +1}) or ended ({@code -1}). */
    void longRunning(RequestInfo info, int delta) {
        longRunning.computeIfAbsent(info, i -> {
            AtomicInteger open = new AtomicInteger();
            Gauge.builder("apiserver_longrunning_requests", open, AtomicInteger::get)
                    .description("Gauge of all active long-running apiserver requests broken out by verb, group, "
                            + "version, resource, scope and component. Not all requests are tracked this way.")
                    .tags(Tags.of("verb", i.verb(), "group", i.group(), "version", i.version(),
                            "resource", i.resource(), "subresource", i.subresource(), "scope", i.scope(),
                            "component", COMPONENT))
                    .register(registry);
            return open;
        }).addAndGet(delta);
    }

    /** A request that began at {@link #now()} {@code start} was answered with {@code code}. */
    void finished(RequestInfo info, int code, long start) {
        long nanos = now() - start;
        Meters m = meters.get(info);
        if (m == null) {
            m = meters.computeIfAbsent(info, Meters::new);
        }
        m.count(code).increment();
        m.duration.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** The body of a create, update or patch had {@code bytes} bytes. */
    void bodySize(RequestInfo info, long bytes) {
        DistributionSummary summary = bodySizes.get(info);
        if (summary == null) {
            // label sets that differ in other labels share one summary: the registry returns the meter it has
            summary = bodySizes.computeIfAbsent(info, i -> DistributionSummary
                    .builder("apiserver_request_body_size")
                    .baseUnit("bytes")
                    .description("Apiserver request body size in bytes broken out by resource and verb.")
                    .tags("resource", i.type().groupResource(), "verb", i.bodyVerb())
                    .serviceLevelObjectives(BODY_BUCKETS)
                    .register(registry));
        }
        summary.record(bytes);
    }

    private static Tags labels(RequestInfo i) {
        return Tags.of("verb", i.verb(), "dry_run", i.dryRun(), "group", i.group(), "version", i.version(),
                "resource", i.resource(), "subresource", i.subresource(), "scope", i.scope(), "component", COMPONENT);
    }
}
