package io.kuberaysim.sim.invariants;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.apiserver.storage.WatchEvent;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.runtime.clock.Clock;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * KubeRay's invariants, checked on every change of the store while a run goes on, and at its end once faults have
 * stopped and the cluster has settled ({@link #checkSettled}). Continuously:
 * <ul>
 *   <li>{@code one-head-pod}: at most one live head Pod (not being deleted, not Succeeded/Failed) per RayCluster;</li>
 *   <li>{@code rayjob-terminal}: a RayJob whose jobDeploymentStatus was stored as Complete or Failed keeps it;</li>
 *   <li>{@code observed-generation}: status.observedGeneration of a Ray object never goes down;</li>
 *   <li>{@code serve-switch}: a RayService's serve Service is only ever switched to a RayCluster whose head Pod
 *   runs and is Ready.</li>
 * </ul>
 * Once settled: {@code owner-alive} (every Pod's controller owner exists with that uid), {@code workers-converge}
 * (each worker group of a RayCluster not being deleted has exactly its clamped replicas × numOfHosts live Pods) and
 * {@code ready-workers} (readyWorkerReplicas ≤ desiredWorkerReplicas). The last one is not checked on the way:
 * while a group scales down KubeRay's CalculateReadyReplicas still counts the terminating Pods, so a real operator
 * reports more ready workers than desired for a moment too.
 * The checker only reads what the store tells it, never the operator's own functions, so it checks the operator
 * rather than repeats it. Users add their own with {@link #addRule} (a scenario's {@code invariant} step).
 */
public final class InvariantChecker implements AutoCloseable {
    private final Clock clock;
    private final Instant start;
    private final ObjectStore.Subscription subscription;
    private final List<Violation> violations = new ArrayList<>();
    private final List<Rule> rules = new ArrayList<>();
    /** cluster key → its live head Pods. */
    private final Map<String, Set<String>> liveHeads = new HashMap<>();
    /** RayCluster keys whose head Pod runs and is Ready. */
    private final Set<String> readyHeads = new HashSet<>();

    public InvariantChecker(ObjectStore store, Clock clock) {
        this.clock = clock;
        this.start = clock.now();
        this.subscription = store.watch(null, store.revision(), this::onEvent);
    }

    /**
     * A user's invariant: {@code check} answers null while it holds, else what was seen; it is checked now and after
     * every change of {@code type}, on the control loop (where reads see a consistent store), and reported each time
     * it goes from holding to broken.
     */
    private static final class Rule {
        final String name;
        final ResourceType type;
        final Supplier<String> check;
        boolean broken;
        boolean queued;

        Rule(String name, ResourceType type, Supplier<String> check) {
            this.name = name;
            this.type = type;
            this.check = check;
        }
    }

    /** Adds a user's invariant (see {@link Rule}): it must hold from now to the end of the run. */
    public void addRule(String name, ResourceType type, Supplier<String> check) {
        Rule rule = new Rule(name, type, check);
        synchronized (this) {
            rules.add(rule);
        }
        evaluate(rule);
    }

    private void evaluate(Rule rule) {
        String seen;
        synchronized (this) {
            rule.queued = false;
        }
        seen = rule.check.get();
        synchronized (this) {
            if (seen != null && !rule.broken) {
                report(rule.name, seen, List.of());
            }
            rule.broken = seen != null;
        }
    }

    private void queueRules(ResourceType type) {
        for (Rule rule : rules) {
            if (rule.type.equals(type) && !rule.queued) {
                rule.queued = true;
                clock.execute(() -> evaluate(rule));
            }
        }
    }

    /** Every violation so far, in the order seen. */
    public synchronized List<Violation> violations() {
        return List.copyOf(violations);
    }

    private synchronized void onEvent(WatchEvent e) {
        StoredObject o = e.object();
        if (!rules.isEmpty()) {
            queueRules(o.type());
        }
        if (o.type().equals(ResourceTypes.PODS)) {
            heads(e);
        } else if (o.type().equals(ResourceTypes.RAYJOBS)) {
            terminal(e);
            observedGeneration(e);
        } else if (o.type().equals(ResourceTypes.RAYCLUSTERS)) {
            observedGeneration(e);
        } else if (o.type().equals(ResourceTypes.RAYSERVICES)) {
            observedGeneration(e);
        } else if (o.type().equals(ResourceTypes.SERVICES)) {
            serveSwitch(e);
        }
    }

    private void heads(WatchEvent e) {
        StoredObject pod = e.object();
        String cluster = pod.labels().get("ray.io/cluster");
        if (cluster == null || !"head".equals(pod.labels().get("ray.io/node-type"))) {
            return;
        }
        String key = pod.namespace() + "/" + cluster;
        Set<String> heads = liveHeads.computeIfAbsent(key, k -> new TreeSet<>());
        String phase = Json.text(pod.object(), "status", "phase");
        boolean live = e.type() != WatchEvent.Type.DELETED && !pod.isDeleting() && !"Succeeded".equals(phase)
                && !"Failed".equals(phase);
        boolean wasMany = heads.size() > 1;
        if (live && "Running".equals(phase) && ready(pod)) {
            readyHeads.add(key);
        } else {
            readyHeads.remove(key);
        }
        if (live) {
            heads.add(pod.name());
        } else {
            heads.remove(pod.name());
        }
        if (heads.size() > 1 && !wasMany) {
            List<String> objects = new ArrayList<>(List.of("RayCluster " + key));
            heads.forEach(h -> objects.add("Pod " + pod.namespace() + "/" + h));
            report("one-head-pod", "RayCluster " + key + " has " + heads.size() + " live head Pods", objects);
        }
        if (heads.isEmpty()) {
            liveHeads.remove(key);
        }
    }

    private void terminal(WatchEvent e) {
        if (e.type() != WatchEvent.Type.MODIFIED || e.previous() == null) {
            return;
        }
        String before = Json.text(e.previous().object(), "status", "jobDeploymentStatus");
        String after = Json.text(e.object().object(), "status", "jobDeploymentStatus");
        if (("Complete".equals(before) || "Failed".equals(before)) && !before.equals(after)) {
            report("rayjob-terminal", "RayJob " + key(e.object()) + " went from " + before + " to " + after,
                    List.of("RayJob " + key(e.object())));
        }
    }

    private void observedGeneration(WatchEvent e) {
        if (e.type() != WatchEvent.Type.MODIFIED || e.previous() == null) {
            return;
        }
        JsonNode before = e.previous().object().path("status").path("observedGeneration");
        JsonNode after = e.object().object().path("status").path("observedGeneration");
        if (before.isNumber() && after.isNumber() && after.asLong() < before.asLong()) {
            String what = e.object().type().kind() + " " + key(e.object());
            report("observed-generation", what + " status.observedGeneration went from " + before.asLong() + " to "
                    + after.asLong(), List.of(what));
        }
    }

    private static boolean ready(StoredObject pod) {
        for (JsonNode c : pod.object().path("status").path("conditions")) {
            if ("Ready".equals(Json.text(c, "type"))) {
                return "True".equals(Json.text(c, "status"));
            }
        }
        return false;
    }

    /**
     * A switch of a RayService's serve Service from one cluster to another must go to a cluster whose head Pod runs
     * and is Ready (KubeRay promotes the pending cluster once its head is ready and its Serve applications run; the
     * RayCluster's own state may still wait for slow workers).
     */
    private void serveSwitch(WatchEvent e) {
        StoredObject svc = e.object();
        if (e.type() != WatchEvent.Type.MODIFIED || e.previous() == null || !svc.name().endsWith("-serve-svc")
                || !svc.metadata().path("ownerReferences").toString().contains("\"kind\":\"RayService\"")) {
            return;
        }
        String target = Json.text(svc.object(), "spec", "selector", "ray.io/cluster");
        String before = Json.text(e.previous().object(), "spec", "selector", "ray.io/cluster");
        if (target == null || before == null || target.equals(before)) {
            return;
        }
        if (!readyHeads.contains(svc.namespace() + "/" + target)) {
            report("serve-switch", "serve Service " + key(svc) + " was switched from RayCluster " + before
                    + " to RayCluster " + target + " whose head Pod is not running and ready",
                    List.of("Service " + key(svc), "RayCluster " + svc.namespace() + "/" + target));
        }
    }

    /**
     * The invariants that hold only once faults have stopped and everything due has run (the garbage collector
     * included): call it at such a moment. Returns what it finds (not added to {@link #violations()}, which are the
     * ones seen while the run went on).
     */
    public synchronized List<Violation> checkSettled(KubeClient client) {
        List<Violation> found = new ArrayList<>();
        Set<String> uids = new HashSet<>();
        for (var type : List.of(ResourceTypes.RAYCLUSTERS, ResourceTypes.RAYJOBS, ResourceTypes.RAYSERVICES,
                ResourceTypes.JOBS, ResourceTypes.PODS, ResourceTypes.SERVICES)) {
            client.list(type, null, null).forEach(o -> uids.add(o.uid()));
        }
        List<StoredObject> pods = client.list(ResourceTypes.PODS, null, null);
        for (StoredObject pod : pods) {
            if (pod.isDeleting()) {
                continue; // the garbage collector (or someone) is already removing it
            }
            for (JsonNode ref : pod.metadata().path("ownerReferences")) {
                if (ref.path("controller").asBoolean(false) && !uids.contains(Json.text(ref, "uid"))) {
                    report(found, "owner-alive", "Pod " + key(pod) + " is owned by " + Json.text(ref, "kind") + " "
                            + Json.text(ref, "name") + " which is gone", List.of("Pod " + key(pod)));
                }
            }
        }
        for (StoredObject rc : client.list(ResourceTypes.RAYCLUSTERS, null, null)) {
            if (rc.isDeleting()) {
                continue;
            }
            JsonNode status = rc.object().path("status");
            JsonNode ready = status.path("readyWorkerReplicas");
            JsonNode desired = status.path("desiredWorkerReplicas");
            if (ready.isNumber() && desired.isNumber() && ready.asInt() > desired.asInt()) {
                report(found, "ready-workers", "RayCluster " + key(rc) + " reports " + ready.asInt()
                        + " ready workers of " + desired.asInt() + " desired", List.of("RayCluster " + key(rc)));
            }
            JsonNode spec = rc.object().path("spec");
            boolean suspended = spec.path("suspend").asBoolean(false);
            for (JsonNode g : spec.path("workerGroupSpecs")) {
                String group = Json.text(g, "groupName");
                int want = suspended ? 0 : clamped(g);
                long have = pods.stream().filter(p -> !p.isDeleting()
                        && rc.name().equals(p.labels().get("ray.io/cluster"))
                        && group != null && group.equals(p.labels().get("ray.io/group"))
                        && "worker".equals(p.labels().get("ray.io/node-type"))
                        && !"Failed".equals(Json.text(p.object(), "status", "phase"))
                        && !"Succeeded".equals(Json.text(p.object(), "status", "phase"))).count();
                if (have != want) {
                    report(found, "workers-converge", "worker group " + group + " of RayCluster " + key(rc) + " has " + have
                            + " live Pods, " + want + " desired", List.of("RayCluster " + key(rc)));
                }
            }
        }
        return found;
    }

    /** replicas clamped to [minReplicas, maxReplicas] (max wins when min > max), times numOfHosts; 0 suspended. */
    static int clamped(JsonNode group) {
        if (group.path("suspend").asBoolean(false)) {
            return 0;
        }
        int min = group.path("minReplicas").asInt(0);
        int max = group.has("maxReplicas") ? group.path("maxReplicas").asInt() : Integer.MAX_VALUE;
        int replicas = group.has("replicas") ? group.path("replicas").asInt() : min;
        int r = min > max ? max : Math.min(Math.max(replicas, min), max);
        int hosts = Math.max(1, group.path("numOfHosts").asInt(1));
        return (int) Math.min(Integer.MAX_VALUE, (long) r * hosts);
    }

    private void report(String invariant, String message, List<String> objects) {
        report(violations, invariant, message, objects);
    }

    private void report(List<Violation> into, String invariant, String message, List<String> objects) {
        into.add(new Violation(Duration.between(start, clock.now()), invariant, objects, message));
    }

    private static String key(StoredObject o) {
        return o.namespace() == null || o.namespace().isEmpty() ? o.name() : o.namespace() + "/" + o.name();
    }

    @Override
    public void close() {
        subscription.close();
    }
}
