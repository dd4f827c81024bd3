package io.kuberaysim.sim.chaos;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.api.sim.FaultType;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.ray.GoDuration;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.EventRecorder;
import io.kuberaysim.controller.runtime.cache.SharedInformer;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.reconcile.Request;
import io.kuberaysim.controller.runtime.reconcile.Result;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Runs the FaultSchedules: each generation of a schedule starts its own series of firing times (every
 * {@code interval}, or exponentially spaced at {@code ratePerMinute}) from the moment it is seen, after
 * {@code startAfter} and until {@code stopAfter}. Each firing picks {@code targets} of the matching candidates (sorted
 * by namespace and name) with the chaos stream keyed by the schedule's uid and the firing's number, hands them to the
 * {@link FaultInjector}, and counts them in the schedule's status. A firing that finds no candidate records a
 * Warning {@code NoTargets} Event on the schedule instead of failing silently.
 */
final class FaultScheduler {
    private final KubeClient client;
    private final Clock clock;
    private final ControllerManager manager;
    private final ChaosRandom random;
    private final FaultInjector injector;
    private final EventRecorder events;
    private final Map<String, Series> series = new HashMap<>(); // namespace/name → its firing times

    /** The firings of one generation of a schedule (by uid): number {@code n} is due at {@code next}. */
    private record Series(String uid, long generation, Instant base, int n, Instant next) {
    }

    FaultScheduler(ControllerManager manager, ChaosRandom random, FaultInjector injector) {
        this.manager = manager;
        this.client = manager.client().as(FaultInjector.COMPONENT);
        this.clock = manager.clock();
        this.random = random;
        this.injector = injector;
        this.events = manager.legacyEventRecorder(FaultInjector.COMPONENT, FaultInjector.COMPONENT);
    }

    void register(ControllerManager manager) {
        manager.controller("sim-fault-schedule").forType(ResourceTypes.FAULTSCHEDULES).complete(this::reconcile);
    }

    synchronized Result reconcile(Request request) {
        StoredObject schedule = client.get(ResourceTypes.FAULTSCHEDULES, request.namespace(), request.name());
        String key = request.namespace() + "/" + request.name();
        if (schedule == null || schedule.isDeleting()) {
            series.remove(key);
            return Result.done();
        }
        JsonNode spec = schedule.object().path("spec");
        Instant now = clock.now();
        Series s = series.get(key);
        if (s == null || !s.uid().equals(schedule.uid()) || s.generation() != schedule.generation()) {
            Instant base = now;
            Duration startAfter = duration(spec, "startAfter");
            s = new Series(schedule.uid(), schedule.generation(), base, 0,
                    base.plus(startAfter == null ? Duration.ZERO : startAfter).plus(gap(schedule, spec, 0)));
        }
        if (spec.path("suspend").asBoolean(false)) {
            series.put(key, s);
            return Result.done();
        }
        Duration stopAfter = duration(spec, "stopAfter");
        Instant stopAt = stopAfter == null ? null : s.base().plus(stopAfter);
        int injected = 0;
        String last = null;
        while (!now.isBefore(s.next()) && (stopAt == null || !s.next().isAfter(stopAt))) {
            List<String> lines = fire(schedule, spec, s.n());
            injected += lines.size();
            if (!lines.isEmpty()) {
                last = lines.get(lines.size() - 1);
            }
            s = new Series(s.uid(), s.generation(), s.base(), s.n() + 1,
                    s.next().plus(gap(schedule, spec, s.n() + 1)));
        }
        series.put(key, s);
        if (injected > 0) {
            recordStatus(schedule, injected, last, now);
        }
        if (stopAt != null && s.next().isAfter(stopAt)) {
            return Result.done();
        }
        return Result.requeueAfter(Duration.between(now, s.next()));
    }

    /** One firing: picks its targets and injects the fault; returns the lines of the faults injected. */
    private List<String> fire(StoredObject schedule, JsonNode spec, int n) {
        SplittableRandom r = random.stream("schedule", schedule.uid(), n);
        JsonNode fault = spec.path("fault");
        String type = Json.text(fault, "type");
        FaultType kind = FaultType.valueOf(type);
        List<String> lines = new ArrayList<>();
        if (kind.target() == null) {
            String line = injector.inject(schedule, fault, schedule, r);
            if (line != null) {
                lines.add(line);
            }
            return lines;
        }
        List<StoredObject> candidates = new ArrayList<>();
        for (StoredObject o : manager.informer(kind.target()).list(schedule.namespace(), null)) {
            if (SpecSelectors.match(spec, o) && FaultInjector.eligible(type, o)) {
                candidates.add(o);
            }
        }
        if (candidates.isEmpty()) {
            events.event(schedule, EventRecorder.WARNING, "NoTargets", "Inject", "schedule " + schedule.name()
                    + " matched no " + kind.target().kind() + " for " + type
                    + describeSelector(spec));
            return lines;
        }
        int count = Math.min(spec.path("targets").asInt(1), candidates.size());
        for (int i = 0; i < count; i++) {
            int pick = i + r.nextInt(candidates.size() - i);
            StoredObject target = candidates.get(pick);
            candidates.set(pick, candidates.get(i));
            candidates.set(i, target);
            String line = injector.inject(schedule, fault, target, r);
            if (line != null) {
                lines.add(line);
            } else {
                events.event(schedule, EventRecorder.WARNING, "FaultNotInjected", "Inject", "schedule "
                        + schedule.name() + " could not inject " + type + " into " + kind.target().kind() + " "
                        + target.name() + ": it no longer takes it");
            }
        }
        return lines;
    }

    private static String describeSelector(JsonNode spec) {
        String sel = Json.text(spec, "selector");
        String ann = Json.text(spec, "annotationSelector");
        StringBuilder sb = new StringBuilder();
        if (sel != null && !sel.isEmpty()) {
            sb.append(" (selector ").append(sel).append(')');
        }
        if (ann != null && !ann.isEmpty()) {
            sb.append(" (annotationSelector ").append(ann).append(')');
        }
        return sb.toString();
    }

    /** Time from firing {@code n - 1} (or the start) to firing {@code n}. */
    private Duration gap(StoredObject schedule, JsonNode spec, int n) {
        Duration every = duration(spec, "interval");
        if (every != null) {
            return every;
        }
        double perMinute = spec.path("ratePerMinute").asDouble(1);
        double u = random.stream("gap", schedule.uid(), n).nextDouble();
        long millis = Math.round(-Math.log(1 - u) / perMinute * 60_000);
        return Duration.ofMillis(Math.max(1, millis));
    }

    private static Duration duration(JsonNode spec, String field) {
        String text = Json.text(spec, field);
        return text == null ? null : GoDuration.parse(text);
    }

    private void recordStatus(StoredObject schedule, int injected, String last, Instant now) {
        StoredObject current = client.get(ResourceTypes.FAULTSCHEDULES, schedule.namespace(), schedule.name());
        if (current == null) {
            return;
        }
        ObjectNode next = current.copy();
        ObjectNode status = next.path("status") instanceof ObjectNode o ? o : next.putObject("status");
        status.put("injected", status.path("injected").asInt(0) + injected);
        status.put("lastInjectionTime", now.truncatedTo(ChronoUnit.SECONDS).toString());
        status.put("lastFault", last);
        try {
            client.updateStatus(ResourceTypes.FAULTSCHEDULES, next);
        } catch (ApiException e) {
            if (e.code() != 404) {
                throw e;
            }
        }
    }
}
