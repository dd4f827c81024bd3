package io.kuberaysim.controller.runtime;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.registry.PatchType;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.logging.LogValues;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes core/v1 Events through the {@link KubeClient}. Like client-go's event correlator, an identical
 * event (same object uid, type, reason and message) within {@link #AGGREGATION_WINDOW} bumps
 * {@code count} and {@code lastTimestamp} of the existing Event instead of creating another one.
 * Event names are {@code <involvedName>.<16 hex digits>} taken from the clock (nanoseconds since the
 * epoch, kept strictly increasing per manager), so virtual-clock runs name their events identically.
 */
final class KubeEventRecorder implements EventRecorder {
    static final Duration AGGREGATION_WINDOW = Duration.ofMinutes(10);
    private static final Logger log = LoggerFactory.getLogger(KubeEventRecorder.class);

    private final KubeClient client;
    private final Clock clock;
    private final String component;
    private final AtomicLong lastSuffix;
    /** client-go's correlator cache size ({@code maxLruCacheEntries}). */
    static final int CORRELATION_CACHE_SIZE = 4096;
    /**
     * Recent correlations, least recently used first, bounded like client-go's LRU: evicting the eldest entry
     * on insert keeps every event O(1) however many objects emit events within the window.
     */
    private final Map<String, Seen> seen = new LinkedHashMap<>(256, 0.75f, true) { // guarded by this
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Seen> eldest) {
            return size() > CORRELATION_CACHE_SIZE;
        }
    };

    private record Seen(String namespace, String name, long count, Instant last) {
    }

    KubeEventRecorder(KubeClient client, Clock clock, String component, AtomicLong lastSuffix) {
        this.client = client;
        this.clock = clock;
        this.component = component;
        this.lastSuffix = lastSuffix;
    }

    @Override
    public void event(StoredObject involved, String type, String reason, String action, String message) {
        try {
            record(involved, type, reason, action, message);
        } catch (RuntimeException e) {
            log.warn("could not record event {} {} on {}: {}", type, LogValues.escape(reason), involved,
                    LogValues.escape(e.getMessage()));
        }
    }

    private synchronized void record(StoredObject involved, String type, String reason, String action,
            String message) {
        Instant now = clock.now().truncatedTo(ChronoUnit.SECONDS);
        String stamp = now.toString();
        String correlation = involved.uid() + '\0' + type + '\0' + reason + '\0' + message;
        Seen previous = seen.get(correlation);
        if (previous != null && !previous.last().plus(AGGREGATION_WINDOW).isBefore(now)) {
            ObjectNode patch = Json.object();
            patch.put("count", previous.count() + 1);
            patch.put("lastTimestamp", stamp);
            try {
                client.patch(ResourceTypes.EVENTS, previous.namespace(), previous.name(), PatchType.MERGE, patch);
                seen.put(correlation, new Seen(previous.namespace(), previous.name(), previous.count() + 1, now));
                return;
            } catch (ApiException e) {
                if (e.code() != 404) {
                    throw e;
                }
                // The Event was deleted (or expired): start a new one.
            }
        }
        String namespace = involved.namespace().isEmpty() ? "default" : involved.namespace();
        String name = involved.name() + "." + String.format("%016x", nextSuffix(clock.now()));
        ObjectNode ev = ObjectSkeleton.of("v1", "Event", namespace, name);
        ObjectNode meta = ObjectSkeleton.metadata(ev);
        ObjectNode ref = ev.putObject("involvedObject");
        ref.put("kind", involved.type().kind());
        if (!involved.namespace().isEmpty()) {
            ref.put("namespace", involved.namespace());
        }
        ref.put("name", involved.name());
        if (involved.uid() != null) {
            ref.put("uid", involved.uid());
        }
        ref.put("apiVersion", involved.type().apiVersion());
        if (involved.resourceVersion() > 0) {
            ref.put("resourceVersion", Long.toString(involved.resourceVersion()));
        }
        ev.put("reason", reason);
        ev.put("message", message);
        ev.putObject("source").put("component", component);
        ev.put("firstTimestamp", stamp);
        ev.put("lastTimestamp", stamp);
        ev.put("count", 1);
        ev.put("type", type);
        ev.putNull("eventTime");
        ev.put("action", action);
        ev.put("reportingComponent", component);
        ev.put("reportingInstance", "");
        client.createBuilt(ResourceTypes.EVENTS, namespace, ev);
        seen.put(correlation, new Seen(namespace, name, 1, now));
    }

    private long nextSuffix(Instant now) {
        long nanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        return lastSuffix.updateAndGet(prev -> Math.max(prev + 1, nanos));
    }
}
