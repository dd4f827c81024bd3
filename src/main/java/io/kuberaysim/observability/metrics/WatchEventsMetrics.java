package io.kuberaysim.observability.metrics;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.apiserver.http.WatchEventsListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** kube-apiserver's {@code apiserver_watch_events_total{group,version,kind}}: events sent to watch clients. */
public final class WatchEventsMetrics implements WatchEventsListener {
    private final MeterRegistry registry;
    private final Map<ResourceType, Counter> counters = new ConcurrentHashMap<>();

    public WatchEventsMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void sent(ResourceType type, int events) {
        counters.computeIfAbsent(type, t -> Counter.builder("apiserver_watch_events_total")
                .description("Number of events sent in watch clients")
                .tags("group", t.group(), "version", t.version(), "kind", t.kind())
                .register(registry)).increment(events);
    }
}
