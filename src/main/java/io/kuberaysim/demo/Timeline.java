package io.kuberaysim.demo;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.apiserver.storage.WatchEvent;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.sim.chaos.ChaosSimulation;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * Turns store events into the seed's timeline lines ({@code [   2.0s] updated RayCluster x status ready=2/2
 * state=ready}): creations and deletions of the objects the operator manages, and RayCluster/RayJob status
 * changes a user would notice, made by the control plane (the scenario's own writes are its input). Pod
 * status churn and core Events are left out, as in the seed.
 */
public final class Timeline implements AutoCloseable {
    private static final Set<ResourceType> SHOWN = Set.of(ResourceTypes.PODS, ResourceTypes.SERVICES,
            ResourceTypes.JOBS, ResourceTypes.RAYCLUSTERS, ResourceTypes.RAYJOBS, ResourceTypes.RAYSERVICES);

    private final Clock clock;
    private final Instant start;
    private final int capacity;
    private final ArrayDeque<String> lines = new ArrayDeque<>();
    /** Lines dropped from the front to stay within the capacity; the number of the oldest line kept. */
    private long dropped;
    private final ObjectStore.Subscription subscription;

    /** A timeline that keeps every line (the demo's run is short). */
    public Timeline(ObjectStore store, Clock clock) {
        this(store, clock, Integer.MAX_VALUE);
    }

    /** A timeline that keeps the last {@code capacity} lines (a server runs for ever). */
    public Timeline(ObjectStore store, Clock clock, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.clock = clock;
        this.start = clock.now();
        this.capacity = capacity;
        this.subscription = store.watch(null, store.revision(), this::onEvent);
    }

    /** Lines recorded so far (the last {@code capacity}). */
    public synchronized List<String> lines() {
        return List.copyOf(lines);
    }

    /**
     * Lines from number {@code from} on (numbered from 0 since the start, dropped lines included), at most
     * {@code max}: a reader that passes the previous page's {@link Page#next()} gets only what is new.
     */
    public synchronized Page since(long from, int max) {
        long first = Math.max(from, dropped);
        long end = dropped + lines.size();
        List<String> out = new ArrayList<>();
        long i = dropped;
        for (String line : lines) {
            if (i >= first && out.size() < max) {
                out.add(line);
            }
            i++;
        }
        return new Page(first > end ? end : first, Math.min(end, first + out.size()), out);
    }

    /**
     * A run of timeline lines: {@code first} is the number of its first line (more than the number asked for when
     * older lines were dropped), {@code next} the number to ask for next.
     */
    public record Page(long first, long next, List<String> lines) {
    }

    private synchronized void onEvent(WatchEvent e) {
        StoredObject o = e.object();
        // only what the control plane did: the scenario's own writes (made off the loop) are the input
        if (!clock.inLoop() || !(SHOWN.contains(o.type()) || o.type().equals(ResourceTypes.EVENTS))) {
            return;
        }
        String line = o.type().equals(ResourceTypes.EVENTS) ? fault(e) : describe(e);
        if (line != null) {
            double seconds = Duration.between(start, clock.now()).toMillis() / 1000.0;
            lines.addLast(String.format(Locale.ROOT, "[%6.1fs] %s", seconds, line));
            if (lines.size() > capacity) {
                lines.removeFirst();
                dropped++;
            }
        }
    }

    /**
     * An Event recording an injected fault: {@code fault: deleted Pod x (schedule kill-workers)}; a schedule that
     * found no target: {@code fault skipped: schedule kill-workers matched no Pod ...}. Other Events are left out.
     */
    private static String fault(WatchEvent e) {
        JsonNode ev = e.object().object();
        if (!ChaosSimulation.EVENT_SOURCE.equals(Json.text(ev, "source", "component"))
                || e.type() == WatchEvent.Type.DELETED) {
            return null;
        }
        if (e.type() == WatchEvent.Type.MODIFIED && e.previous() != null
                && e.previous().object().path("count").asInt() == ev.path("count").asInt()) {
            return null;
        }
        return ("Warning".equals(Json.text(ev, "type")) ? "fault skipped: " : "fault: ") + Json.text(ev, "message");
    }

    private static String describe(WatchEvent e) {
        StoredObject o = e.object();
        String what = role(o) + o.type().kind() + " " + o.name();
        return switch (e.type()) {
            case ADDED -> "created " + what;
            case DELETED -> "deleted " + what;
            case MODIFIED -> statusChange(e);
            default -> null;
        };
    }

    /** "head ", "worker ", "serve ", "submitter " or "" as the seed names objects. */
    private static String role(StoredObject o) {
        String nodeType = o.labels().get("ray.io/node-type");
        if (nodeType != null) {
            return nodeType + " ";
        }
        if (o.type().equals(ResourceTypes.SERVICES) && o.name().endsWith("-serve-svc")) {
            return "serve ";
        }
        if ((o.type().equals(ResourceTypes.JOBS) || o.type().equals(ResourceTypes.PODS))
                && "RayJob".equals(o.labels().get("ray.io/originated-from-crd"))) {
            return "submitter ";
        }
        return "";
    }

    private static String statusChange(WatchEvent e) {
        StoredObject o = e.object();
        JsonNode before = e.previous() == null ? null : e.previous().object().get("status");
        JsonNode after = o.object().get("status");
        if (o.type().equals(ResourceTypes.RAYCLUSTERS)) {
            String now = clusterSummary(after);
            if (before == null ? after == null : Objects.equals(clusterSummary(before), now)) {
                return specChange(e);
            }
            return "updated RayCluster " + o.name() + " status " + now;
        }
        if (o.type().equals(ResourceTypes.RAYJOBS)) {
            String now = jobSummary(after);
            if (Objects.equals(before == null ? null : jobSummary(before), now) || after == null) {
                return null;
            }
            return "updated RayJob " + o.name() + " status " + now;
        }
        return null;
    }

    private static String specChange(WatchEvent e) {
        if (e.previous() == null) {
            return null;
        }
        long gen = e.object().metadata().path("generation").asLong();
        long prev = e.previous().metadata().path("generation").asLong();
        if (gen == prev) {
            return null;
        }
        StringBuilder sb = new StringBuilder("updated RayCluster ").append(e.object().name()).append(" spec");
        for (JsonNode g : e.object().object().path("spec").path("workerGroupSpecs")) {
            sb.append(' ').append(g.path("groupName").asString()).append(".replicas=")
                    .append(g.path("replicas").asInt());
        }
        return sb.toString();
    }

    private static String clusterSummary(JsonNode status) {
        if (status == null) {
            return null;
        }
        String state = Json.text(status, "state");
        return "ready=" + status.path("readyWorkerReplicas").asInt(0) + "/"
                + status.path("desiredWorkerReplicas").asInt(0) + " state="
                + (state == null || state.isEmpty() ? "provisioning" : state);
    }

    private static String jobSummary(JsonNode status) {
        if (status == null) {
            return null;
        }
        String deployment = Json.text(status, "jobDeploymentStatus");
        String job = Json.text(status, "jobStatus");
        return "deployment=" + (deployment == null || deployment.isEmpty() ? "New" : deployment)
                + " job=" + (job == null || job.isEmpty() ? "-" : job);
    }

    @Override
    public void close() {
        subscription.close();
    }
}
