package io.kuberaysim.controller.runtime;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.conversion.EventsV1Conversion;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.registry.PatchType;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.runtime.clock.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Records Events as client-go's events.k8s.io/v1 recorder ({@code k8s.io/client-go/tools/events}) does, which
 * controller-runtime's {@code GetEventRecorder} returns and KubeRay's reconcilers and kube-scheduler use:
 * {@code eventTime} (microseconds), {@code reportingController} = the component, {@code reportingInstance} =
 * {@code <component>-<host>}, no deprecated source, timestamps or count. An isomorphic event (same type, action,
 * reason, reporting controller and instance, regarding object including its resourceVersion; the note does
 * not count) starts a {@code series} on its second occurrence (count 2, written at once); later occurrences
 * only count in memory until the series ends: after {@link #FINISH_TIME} without an occurrence the final count
 * is written. client-go checks that on a 6-minute timer; here the check runs when the next event is recorded,
 * so virtual-clock runs stay deterministic. Event names are {@code <regarding>.<hex nanos>} as for the legacy
 * recorder, kept strictly increasing per manager.
 */
final class EventsV1Recorder implements EventRecorder {
    /** client-go's {@code finishTime}: a series with no occurrence for this long is finished. */
    static final Duration FINISH_TIME = Duration.ofMinutes(6);
    /** Host part of reportingInstance (client-go uses os.Hostname(), the operator Pod's name). */
    static final String HOST = "kuberay-sim";
    private static final int CACHE_SIZE = 4096;
    private static final DateTimeFormatter MICRO_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);
    private static final Logger log = LoggerFactory.getLogger(EventsV1Recorder.class);
    private static final EventsV1Conversion CONVERSION = new EventsV1Conversion();

    private final KubeClient client;
    private final Clock clock;
    private final String controller;
    private final String instance;
    private final AtomicLong lastSuffix;
    /** The last eventTime text: on the virtual clock many events share an instant (guarded by this). */
    private Instant formattedAt;
    private String formatted;
    private final Map<String, Cached> cache = new LinkedHashMap<>(256, 0.75f, true) { // guarded by this
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Cached> eldest) {
            return size() > CACHE_SIZE;
        }
    };

    /** One recorded event: where it is stored, when it happened, its series (count 0 = no series yet). */
    private static final class Cached {
        final String namespace;
        String name;
        final Instant eventTime;
        int count;
        Instant lastObserved;
        boolean unwritten;

        Cached(String namespace, String name, Instant eventTime) {
            this.namespace = namespace;
            this.name = name;
            this.eventTime = eventTime;
        }
    }

    EventsV1Recorder(KubeClient client, Clock clock, String controller, AtomicLong lastSuffix) {
        this.client = client;
        this.clock = clock;
        this.controller = controller;
        this.instance = controller + "-" + HOST;
        this.lastSuffix = lastSuffix;
    }

    @Override
    public void event(StoredObject regarding, String type, String reason, String action, String message) {
        try {
            record(regarding, type, reason, action, message);
        } catch (RuntimeException e) {
            log.warn("could not record event {} {} on {}: {}", type, reason, regarding, e.getMessage());
        }
    }

    private synchronized void record(StoredObject regarding, String type, String reason, String action,
                                     String note) {
        Instant now = clock.now();
        finishSeries(now);
        String key = String.join("\0", type, action, reason, controller, instance, regarding.type().apiVersion(),
                regarding.type().kind(), regarding.namespace(), regarding.name(), String.valueOf(regarding.uid()),
                Long.toString(regarding.resourceVersion()));
        Cached seen = cache.get(key);
        if (seen != null) {
            seen.lastObserved = now;
            if (seen.count > 0) {
                seen.count++;
                seen.unwritten = true;
                return;
            }
            seen.count = 2;
            writeSeries(seen, regarding, type, reason, action, note);
            return;
        }
        Cached created = create(regarding, type, reason, action, note, now, null);
        cache.put(key, created);
    }

    /**
     * client-go's finishSeries: writes the final count of series that ended and forgets old singletons. The cache is
     * in access order and every access sets the entry's time to now, so the entries are in the order of their times:
     * the walk stops at the first one still recent (it used to visit all 4,096 on every event).
     */
    private void finishSeries(Instant now) {
        Instant cutoff = now.minus(FINISH_TIME);
        List<Cached> finished = new ArrayList<>();
        for (Iterator<Cached> it = cache.values().iterator(); it.hasNext(); ) {
            Cached c = it.next();
            Instant last = c.count > 0 ? c.lastObserved : c.eventTime;
            if (!last.isBefore(cutoff)) {
                break;
            }
            if (c.count > 0 && c.unwritten) {
                finished.add(c);
            }
            it.remove();
        }
        for (Cached c : finished) {
            try {
                client.patch(ResourceTypes.EVENTS, c.namespace, c.name, PatchType.MERGE, seriesPatch(c));
            } catch (ApiException e) {
                log.debug("could not finish event series {}/{}: {}", c.namespace, c.name, e.getMessage());
            }
        }
    }

    /** Patches the series onto the stored Event, or creates it again (with the series) if it was deleted. */
    private void writeSeries(Cached c, StoredObject regarding, String type, String reason, String action,
                             String note) {
        c.unwritten = false;
        try {
            client.patch(ResourceTypes.EVENTS, c.namespace, c.name, PatchType.MERGE, seriesPatch(c));
        } catch (ApiException e) {
            if (e.code() != 404) {
                throw e;
            }
            c.name = create(regarding, type, reason, action, note, c.eventTime, c).name;
        }
    }

    private String microTime(Instant t) {
        if (!t.equals(formattedAt)) {
            formatted = MICRO_TIME.format(t);
            formattedAt = t;
        }
        return formatted;
    }

    private ObjectNode seriesPatch(Cached c) {
        ObjectNode patch = Json.object();
        ObjectNode series = patch.putObject("series");
        series.put("count", c.count);
        series.put("lastObservedTime", microTime(c.lastObserved));
        return patch;
    }

    /** Writes a new Event; {@code series} (nullable) is carried when a series outlived its Event. */
    private Cached create(StoredObject regarding, String type, String reason, String action, String note,
                          Instant eventTime, Cached series) {
        String namespace = regarding.namespace().isEmpty() ? "default" : regarding.namespace();
        String name = regarding.name() + "." + Long.toHexString(nextSuffix(clock.now()));
        ObjectNode ev = ObjectSkeleton.of(ResourceTypes.EVENTS_K8S_IO.apiVersion(), "Event", namespace, name);
        ObjectNode meta = ObjectSkeleton.metadata(ev);
        ev.put("eventTime", microTime(eventTime));
        if (series != null) {
            ev.setAll(seriesPatch(series));
        }
        ev.put("reportingController", controller);
        ev.put("reportingInstance", instance);
        ev.put("action", action);
        ev.put("reason", reason);
        ObjectNode ref = ev.putObject("regarding");
        ref.put("kind", regarding.type().kind());
        if (!regarding.namespace().isEmpty()) {
            ref.put("namespace", regarding.namespace());
        }
        ref.put("name", regarding.name());
        if (regarding.uid() != null) {
            ref.put("uid", regarding.uid());
        }
        ref.put("apiVersion", regarding.type().apiVersion());
        if (regarding.resourceVersion() > 0) {
            ref.put("resourceVersion", Long.toString(regarding.resourceVersion()));
        }
        ev.put("note", note);
        ev.put("type", type);
        client.createBuilt(ResourceTypes.EVENTS, namespace, CONVERSION.toStored(ev));
        return new Cached(namespace, name, eventTime);
    }

    private long nextSuffix(Instant now) {
        long nanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        return lastSuffix.updateAndGet(prev -> Math.max(prev + 1, nanos));
    }
}
