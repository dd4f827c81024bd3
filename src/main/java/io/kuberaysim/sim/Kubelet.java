package io.kuberaysim.sim;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.DeleteOptions;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.ray.GoDuration;
import io.kuberaysim.controller.runtime.Controller;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.EventRecorder;
import io.kuberaysim.controller.runtime.cache.SharedInformer;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.clock.Timestamps;
import io.kuberaysim.controller.runtime.reconcile.Request;
import io.kuberaysim.controller.runtime.reconcile.Result;
import io.kuberaysim.sim.chaos.ContainerCrashes;
import io.kuberaysim.sim.chaos.PodLifecycleRules;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The kubelets of every simulated node, as one level-based controller on bound Pods.
 *
 * <p>A bound Pod is Pending (containers waiting, reason ContainerCreating) until its startup delay has
 * passed since it was scheduled, then Running with a podIP from 10.244.0.0/16 (handed out in order),
 * container statuses and Ready=True (unless {@code sim.kuberay.io/ready: "false"}). With
 * {@code sim.kuberay.io/run-seconds} its containers exit after that long with
 * {@code sim.kuberay.io/exit-code}; then restartPolicy decides: Never → Succeeded/Failed, Always →
 * restart, OnFailure → restart on a non-zero code, else Succeeded; restarts after the first wait in
 * CrashLoopBackOff ({@link RestartBackOff}). A Pod being deleted gracefully is
 * removed after the termination delay (at most its grace period), also on a NotReady node. A Pod whose node is
 * gone fails with reason NodeLost; on a NotReady node nothing changes (its kubelet is down: the node lifecycle
 * controller and taint-based eviction act instead) until the node is Ready again. Every status write goes through
 * the status subresource.
 */
final class Kubelet {
    private static final String CONFIG_ERROR = "CreateContainerConfigError";
    /** The kubelet's pod worker syncs a Pod whose sync failed again after this long. */
    private static final Duration CONFIG_RETRY = Duration.ofSeconds(10);
    /** The volume manager's longest wait between two mount attempts. */
    private static final Duration MOUNT_RETRY_MAX = Duration.ofSeconds(122);
    private final KubeClient client;
    private final Clock clock;
    private final SimulationSettings settings;
    private final SharedInformer pods;
    private final SharedInformer nodes;
    private final EventRecorder events;
    private final InitContainers inits;
    private final PodLifecycleRules rules;
    private final ContainerCrashes crashes;
    private final Map<String, String> podIps = new HashMap<>(); // pod uid → IP
    private final Map<String, Instant> firstSeen = new HashMap<>();
    private final Map<String, Instant> initializedAt = new HashMap<>(); // pod uid → init containers done
    private final Map<String, RestartBackOff> backOffs = new HashMap<>(); // pod uid → crash-loop back-off
    private final ConfigReferences references;
    private final Map<String, Integer> mountAttempts = new HashMap<>(); // pod uid → failed mounts so far
    private final Map<String, Instant> mountedAt = new HashMap<>(); // pod uid → volumes mounted after failures
    private final Map<String, Instant> configBlockedSince = new HashMap<>(); // pod uid → first config error
    private int nextIp = 1;

    Kubelet(ControllerManager manager, SimulationSettings settings, PodLifecycleRules rules, ContainerCrashes crashes) {
        this.rules = rules;
        this.crashes = crashes;
        this.client = manager.client().as("kubelet");
        this.clock = manager.clock();
        this.settings = settings;
        this.pods = manager.informer(ResourceTypes.PODS);
        this.nodes = manager.informer(ResourceTypes.NODES);
        this.events = manager.legacyEventRecorder("kubelet", "kubelet");
        this.inits = new InitContainers(pods);
        this.references = new ConfigReferences(manager.informer(ResourceTypes.CONFIGMAPS),
                manager.informer(ResourceTypes.SECRETS));
    }

    void register(ControllerManager manager) {
        Controller controller = manager.controller("kubelet")
                .forType(ResourceTypes.PODS)
                .watches(ResourceTypes.NODES, this::podsOn)
                .watches(ResourceTypes.PODS, head -> inits.waitingOn(head).stream()
                        .map(p -> new Request(p.namespace(), p.name())).toList())
                .complete(this::reconcile);
        crashes.onCrash(controller::enqueue);
    }

    private List<Request> podsOn(StoredObject node) {
        List<Request> out = new ArrayList<>();
        for (StoredObject p : pods.list(null, null)) {
            if (node.name().equals(Json.text(p.object(), "spec", "nodeName"))) {
                out.add(new Request(p.namespace(), p.name()));
            }
        }
        return out;
    }

    private static String ts(Instant t) {
        return Timestamps.seconds(t);
    }

    private static Instant parse(String t) {
        return t == null ? null : Timestamps.parse(t);
    }

    private static long annotation(StoredObject pod, String key, long fallback) {
        String v = Json.text(pod.object(), "metadata", "annotations", key);
        if (v == null) {
            return fallback;
        }
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    synchronized Result reconcile(Request request) {
        StoredObject pod = client.get(ResourceTypes.PODS, request.namespace(), request.name());
        if (pod == null) {
            return Result.done();
        }
        String nodeName = Json.text(pod.object(), "spec", "nodeName");
        if (nodeName == null) {
            return Result.done();
        }
        Instant now = clock.now();
        String phase = Json.text(pod.object(), "status", "phase");
        boolean terminal = "Succeeded".equals(phase) || "Failed".equals(phase);
        if (pod.isDeleting()) {
            return terminate(pod, now);
        }
        StoredObject node = nodes.get(null, nodeName);
        if (!terminal && node == null) {
            nodeLost(pod, nodeName, now);
            return Result.done();
        }
        if (!terminal && !Scheduler.nodeReady(node)) {
            return Result.done(); // the node's kubelet is down: nothing changes until the node is Ready again
        }
        if (terminal) {
            return Result.done();
        }
        Instant scheduledAt = scheduledAt(pod, now);
        // a Pod's own annotation wins over the lifecycle rules, which win over the settings
        long startupOverride = annotation(pod, SimulationSettings.STARTUP_SECONDS, -1);
        Duration ruleStartup = startupOverride >= 0 ? null : rules.startupDelay(pod);
        Instant startAt = startupOverride >= 0 ? scheduledAt.plusSeconds(startupOverride)
                : scheduledAt.plus(ruleStartup != null ? ruleStartup : settings.startup());
        String hostIp = hostIp(node);
        if (now.isBefore(startAt)) {
            ObjectNode pending = pending(pod, hostIp, scheduledAt);
            if (!pending.equals(pod.object().get("status"))) {
                writeStatus(pod, pending);
            }
            return Result.requeueAfter(Duration.between(now, startAt));
        }
        if (!"Running".equals(phase)) {
            List<String> unmounted = references.mountErrors(pod);
            if (!unmounted.isEmpty()) {
                return waitForVolumes(pod, hostIp, scheduledAt, unmounted);
            }
            if (mountAttempts.containsKey(pod.uid())) {
                startAt = mountedAt.computeIfAbsent(pod.uid(), u -> now); // the sandbox starts once volumes mount
            }
            int total = InitContainers.of(pod).size();
            int done = inits.done(pod);
            List<JsonNode> initContainers = InitContainers.of(pod);
            for (int i = 0; i < Math.min(done + 1, total); i++) {
                String error = references.containerError(pod, initContainers.get(i));
                if (error != null) {
                    ObjectNode blocked = initializing(pod, hostIp, scheduledAt, startAt, i);
                    configError((ObjectNode) blocked.path("initContainerStatuses").get(i), error);
                    return retryConfig(pod, blocked, error, now);
                }
            }
            if (done < total) {
                // an init container still runs (wait-gcs-ready until the head is ready): the head's changes re-check
                ObjectNode initializing = initializing(pod, hostIp, scheduledAt, startAt, done);
                if (!initializing.equals(pod.object().get("status"))) {
                    writeStatus(pod, initializing);
                }
                return Result.done();
            }
            // init containers that had to wait finished now, the containers start now; otherwise all at startAt
            boolean waited = pod.object().path("status").path("initContainerStatuses").toString()
                    .contains("\"running\"") || configBlockedSince.containsKey(pod.uid());
            Instant containersStart = waited ? now : startAt;
            ObjectNode unconfigured = unconfigured(pod, hostIp, scheduledAt, startAt, now);
            if (unconfigured != null) {
                return retryConfig(pod, unconfigured, null, now);
            }
            initializedAt.put(pod.uid(), containersStart);
            writeStatus(pod, running(pod, hostIp, scheduledAt, containersStart, 0, null,
                    readySince(pod, containersStart, now)));
            events.event(pod, EventRecorder.NORMAL, "Started", "Start", "Started container "
                    + Json.text(pod.object().path("spec").path("containers").path(0), "name"));
            pod = client.get(ResourceTypes.PODS, request.namespace(), request.name());
        }
        JsonNode cs = firstContainerStatus(pod);
        if (RestartBackOff.WAITING_REASON.equals(Json.text(cs, "state", "waiting", "reason"))) {
            crashes.take(pod.uid()); // nothing runs to crash
            return afterBackOff(pod, cs, hostIp, scheduledAt, now);
        }
        Instant runningSince = parse(Json.text(cs, "state", "running", "startedAt"));
        if (runningSince == null) {
            runningSince = startAt;
        }
        int restarts = cs == null ? 0 : cs.path("restartCount").asInt(0);
        Integer crash = crashes.take(pod.uid());
        Result readiness = Result.done();
        if (crash == null) {
            Instant readyAt = readyAt(pod, runningSince);
            // back on a Node that was unreachable, the kubelet reports Ready again over the node controller's False
            boolean resumed = cs.path("ready").asBoolean(false) && !podReady(pod);
            if (readyAt != null && (!cs.path("ready").asBoolean(false) || resumed)) {
                if (now.isBefore(readyAt)) {
                    readiness = Result.requeueAfter(Duration.between(now, readyAt));
                } else {
                    ObjectNode last = cs.path("lastState") instanceof ObjectNode o && !o.isEmpty() ? o : null;
                    writeStatus(pod, running(pod, hostIp, scheduledAt, runningSince, restarts, last,
                            resumed ? now : readyAt));
                    pod = client.get(ResourceTypes.PODS, request.namespace(), request.name());
                }
            }
            Duration runTime = runTime(pod, restarts);
            if (runTime == null) {
                return readiness;
            }
            Instant exitAt = runningSince.plus(runTime);
            if (now.isBefore(exitAt)) {
                Duration untilExit = Duration.between(now, exitAt);
                return !readiness.requeueAfter().isZero() && readiness.requeueAfter().compareTo(untilExit) < 0
                        ? readiness : Result.requeueAfter(untilExit);
            }
        }
        int exitCode = crash != null ? crash : exitCode(pod);
        String policy = Json.text(pod.object(), "spec", "restartPolicy");
        boolean restart = "Always".equals(policy) || policy == null || ("OnFailure".equals(policy) && exitCode != 0);
        ObjectNode lastState = Json.object();
        lastState.putObject("terminated").put("exitCode", exitCode).put("reason", exitCode == 0 ? "Completed" : "Error")
                .put("startedAt", ts(runningSince)).put("finishedAt", ts(now))
                .put("containerID", ContainerIdentities.containerId(pod.uid(), Json.text(cs, "name"), restarts));
        if (restart) {
            RestartBackOff backOff = backOffs.get(pod.uid());
            if (backOff == null || backOff.expiredAt(now)) {
                backOffs.put(pod.uid(), RestartBackOff.first(now));
                return restart(pod, hostIp, scheduledAt, now, restarts, lastState);
            }
            writeStatus(pod, backingOff(pod, hostIp, scheduledAt, restarts, lastState, backOff));
            events.event(pod, EventRecorder.WARNING, "BackOff", "Start", "Back-off restarting failed container "
                    + Json.text(pod.object().path("spec").path("containers").path(0), "name") + " in pod "
                    + podRef(pod));
            return Result.requeueAfter(backOff.delay());
        }
        writeStatus(pod, finished(pod, hostIp, scheduledAt, startAt, runningSince, now, exitCode));
        return Result.done();
    }

    /**
     * Volumes that cannot be mounted (a missing ConfigMap or Secret): the Pod stays in ContainerCreating, each
     * failure is a FailedMount event, and the volume manager tries again with its exponential back-off (0.5 s
     * doubling up to 2 min 2 s).
     */
    private Result waitForVolumes(StoredObject pod, String hostIp, Instant scheduledAt, List<String> unmounted) {
        ObjectNode pending = pending(pod, hostIp, scheduledAt);
        if (!pending.equals(pod.object().get("status"))) {
            writeStatus(pod, pending);
        }
        for (String message : unmounted) {
            events.event(pod, EventRecorder.WARNING, "FailedMount", "Mount", message);
        }
        int attempt = mountAttempts.merge(pod.uid(), 1, Integer::sum);
        long millis = attempt >= 9 ? MOUNT_RETRY_MAX.toMillis() : Math.min(500L << (attempt - 1),
                MOUNT_RETRY_MAX.toMillis());
        return Result.requeueAfter(Duration.ofMillis(millis));
    }

    /**
     * The Pod's containers once its sandbox and init containers are done, when some cannot be configured (an
     * environment variable from a missing ConfigMap, Secret or key): those wait in CreateContainerConfigError, the
     * others run, and the Pod stays Pending; null when every container can be configured.
     */
    private ObjectNode unconfigured(StoredObject pod, String hostIp, Instant scheduledAt, Instant startAt,
                                    Instant now) {
        List<String> blocked = new ArrayList<>();
        Map<String, String> errors = new HashMap<>();
        for (JsonNode c : pod.object().path("spec").path("containers")) {
            String error = references.containerError(pod, c);
            if (error != null) {
                blocked.add(Json.text(c, "name"));
                errors.put(Json.text(c, "name"), error);
            }
        }
        if (blocked.isEmpty()) {
            return null;
        }
        Instant since = configBlockedSince.getOrDefault(pod.uid(), now);
        ObjectNode status = running(pod, hostIp, scheduledAt, since, 0, null, readySince(pod, since, now));
        status.put("phase", "Pending");
        for (JsonNode c : status.path("conditions")) {
            String type = Json.text(c, "type");
            if ("Ready".equals(type) || "ContainersReady".equals(type)) {
                ((ObjectNode) c).put("status", "False").put("lastTransitionTime", ts(startAt))
                        .put("reason", "ContainersNotReady")
                        .put("message", "containers with unready status: [" + String.join(" ", blocked) + "]");
            }
        }
        for (JsonNode s : status.path("containerStatuses")) {
            String error = errors.get(Json.text(s, "name"));
            if (error != null) {
                configError((ObjectNode) s, error);
            }
        }
        return status;
    }

    /** A container status the kubelet could not create: waiting in CreateContainerConfigError, never started. */
    private static void configError(ObjectNode containerStatus, String error) {
        containerStatus.put("imageID", "").remove("containerID");
        containerStatus.put("ready", false).put("started", false);
        containerStatus.putObject("state").putObject("waiting").put("reason", CONFIG_ERROR).put("message", error);
    }

    /**
     * Writes a status with containers in CreateContainerConfigError, records the kubelet's {@code Failed} event
     * for each, and syncs the Pod again after the pod worker's back-off: the ConfigMap or Secret may exist by then.
     */
    private Result retryConfig(StoredObject pod, ObjectNode status, String initError, Instant now) {
        configBlockedSince.putIfAbsent(pod.uid(), now);
        if (!status.equals(pod.object().get("status"))) {
            writeStatus(pod, status);
        }
        if (initError != null) {
            events.event(pod, EventRecorder.WARNING, "Failed", "Start", "Error: " + initError);
        }
        for (JsonNode s : status.path("containerStatuses")) {
            if (CONFIG_ERROR.equals(Json.text(s, "state", "waiting", "reason"))) {
                events.event(pod, EventRecorder.WARNING, "Failed", "Start",
                        "Error: " + Json.text(s, "state", "waiting", "message"));
            }
        }
        return Result.requeueAfter(CONFIG_RETRY);
    }

    /** The containers run again from {@code now} (their {@code restarts + 1}-th run) after {@code lastState}. */
    private Result restart(StoredObject pod, String hostIp, Instant scheduledAt, Instant now, int restarts,
                           ObjectNode lastState) {
        Instant readyAt = readyAt(pod, now);
        writeStatus(pod, running(pod, hostIp, scheduledAt, now, restarts + 1, lastState,
                readyAt != null && !now.isBefore(readyAt) ? readyAt : null));
        Duration next = runTime(pod, restarts + 1);
        if (readyAt != null && now.isBefore(readyAt)) {
            Duration untilReady = Duration.between(now, readyAt);
            next = next == null || untilReady.compareTo(next) < 0 ? untilReady : next;
        }
        return next == null ? Result.done() : Result.requeueAfter(next.compareTo(Duration.ofSeconds(1)) < 0
                ? Duration.ofSeconds(1) : next);
    }

    /** In CrashLoopBackOff: waits out the back-off from the last exit, then restarts with the next back-off. */
    private Result afterBackOff(StoredObject pod, JsonNode cs, String hostIp, Instant scheduledAt, Instant now) {
        ObjectNode lastState = cs.path("lastState") instanceof ObjectNode o ? o.deepCopy() : Json.object();
        Instant exitedAt = parse(Json.text(lastState, "terminated", "finishedAt"));
        RestartBackOff backOff = backOffs.get(pod.uid());
        if (backOff != null && exitedAt != null && now.isBefore(exitedAt.plus(backOff.delay()))) {
            return Result.requeueAfter(Duration.between(now, exitedAt.plus(backOff.delay())));
        }
        backOffs.put(pod.uid(), backOff == null ? RestartBackOff.first(now) : backOff.next(now));
        return restart(pod, hostIp, scheduledAt, now, cs.path("restartCount").asInt(0), lastState);
    }

    /** Phase Running, the containers waiting in CrashLoopBackOff after {@code lastState}; not Ready. */
    private ObjectNode backingOff(StoredObject pod, String hostIp, Instant scheduledAt, int restartCount,
                                  ObjectNode lastState, RestartBackOff backOff) {
        Instant exitedAt = parse(Json.text(lastState, "terminated", "finishedAt"));
        ObjectNode status = running(pod, hostIp, scheduledAt, exitedAt, restartCount, lastState, null);
        for (JsonNode s : status.path("containerStatuses")) {
            ObjectNode c = (ObjectNode) s;
            c.put("started", false);
            c.putObject("state").putObject("waiting").put("reason", RestartBackOff.WAITING_REASON)
                    .put("message", "back-off " + GoDuration.format(backOff.delay()) + " restarting failed container="
                            + Json.text(c, "name") + " pod=" + podRef(pod));
        }
        return status;
    }

    /** How the kubelet names a Pod in messages: {@code name_namespace(uid)}. */
    private static String podRef(StoredObject pod) {
        return pod.name() + "_" + pod.namespace() + "(" + pod.uid() + ")";
    }

    /** When the Pod's containers started at {@code startedAt} become Ready; null = never (ready: "false"). */
    private Instant readyAt(StoredObject pod, Instant startedAt) {
        if ("false".equals(Json.text(pod.object(), "metadata", "annotations", SimulationSettings.READY))) {
            return null;
        }
        Duration delay = rules.readinessDelay(pod);
        return delay == null ? startedAt : startedAt.plus(delay);
    }

    /** {@link #readyAt} when it has come by {@code now}, else null (not Ready yet). */
    private Instant readySince(StoredObject pod, Instant startedAt, Instant now) {
        Instant at = readyAt(pod, startedAt);
        return at != null && !now.isBefore(at) ? at : null;
    }

    /** How long the containers' {@code run}-th run lasts (annotation, else rule); null = for ever. */
    private Duration runTime(StoredObject pod, int run) {
        long runSeconds = annotation(pod, SimulationSettings.RUN_SECONDS, -1);
        return runSeconds >= 0 ? Duration.ofSeconds(runSeconds) : rules.runTime(pod, run);
    }

    private int exitCode(StoredObject pod) {
        long code = annotation(pod, SimulationSettings.EXIT_CODE, -1);
        if (code >= 0) {
            return (int) code;
        }
        Integer rule = rules.exitCode(pod);
        return rule == null ? 0 : rule;
    }

    private Instant scheduledAt(StoredObject pod, Instant now) {
        JsonNode cond = Scheduler.condition(pod, "PodScheduled");
        if (cond != null && "True".equals(Json.text(cond, "status"))) {
            Instant t = parse(Json.text(cond, "lastTransitionTime"));
            if (t != null) {
                return t;
            }
        }
        return firstSeen.computeIfAbsent(pod.uid(), u -> now);
    }

    private Result terminate(StoredObject pod, Instant now) {
        Instant deletionTs = parse(Json.text(pod.object(), "metadata", "deletionTimestamp"));
        long grace = pod.object().path("metadata").path("deletionGracePeriodSeconds").asLong(30);
        Instant requested = deletionTs.minusSeconds(grace);
        Duration wait = settings.termination().compareTo(Duration.ofSeconds(grace)) < 0
                ? settings.termination() : Duration.ofSeconds(grace);
        Instant removeAt = requested.plus(wait);
        if (now.isBefore(removeAt)) {
            return Result.requeueAfter(Duration.between(now, removeAt));
        }
        client.delete(ResourceTypes.PODS, pod.namespace(), pod.name(),
                new DeleteOptions(null, 0L, pod.uid(), null, false, null));
        podIps.remove(pod.uid());
        firstSeen.remove(pod.uid());
        initializedAt.remove(pod.uid());
        backOffs.remove(pod.uid());
        mountAttempts.remove(pod.uid());
        mountedAt.remove(pod.uid());
        configBlockedSince.remove(pod.uid());
        return Result.done();
    }

    private static boolean podReady(StoredObject pod) {
        JsonNode ready = Scheduler.condition(pod, "Ready");
        return ready != null && "True".equals(Json.text(ready, "status"));
    }

    private void nodeLost(StoredObject pod, String nodeName, Instant now) {
        ObjectNode status = pod.copy().path("status") instanceof ObjectNode s ? s : Json.object();
        status.put("phase", "Failed");
        status.put("reason", "NodeLost");
        status.put("message", "Node " + nodeName + " which was running pod " + pod.name() + " is unresponsive");
        for (JsonNode c : status.path("conditions")) {
            if (c instanceof ObjectNode o && ("Ready".equals(Json.text(o, "type"))
                    || "ContainersReady".equals(Json.text(o, "type")))) {
                o.put("status", "False");
                o.put("lastTransitionTime", ts(now));
            }
        }
        writeStatus(pod, status);
    }

    private String hostIp(StoredObject node) {
        for (JsonNode a : node.object().path("status").path("addresses")) {
            if ("InternalIP".equals(Json.text(a, "type"))) {
                return Json.text(a, "address");
            }
        }
        return "10.0.0.1";
    }

    private String podIp(StoredObject pod) {
        return podIps.computeIfAbsent(pod.uid(), u -> {
            int n = nextIp;
            nextIp = nextIp >= 65534 ? 1 : nextIp + 1;
            return "10.244." + (n >> 8) + "." + (n & 255);
        });
    }

    private static JsonNode firstContainerStatus(StoredObject pod) {
        return pod.object().path("status").path("containerStatuses").path(0);
    }


    private ObjectNode base(StoredObject pod, String hostIp, Instant scheduledAt) {
        ObjectNode status = Json.object();
        status.put("hostIP", hostIp);
        status.putArray("hostIPs").addObject().put("ip", hostIp);
        status.put("startTime", ts(scheduledAt));
        String qos = Json.text(pod.object(), "status", "qosClass");
        if (qos != null) {
            status.put("qosClass", qos);
        }
        return status;
    }

    private static void condition(ArrayNode conds, String type, boolean value, Instant at) {
        conds.addObject().put("type", type).put("status", value ? "True" : "False").putNull("lastProbeTime")
                .put("lastTransitionTime", ts(at));
    }

    private ObjectNode pending(StoredObject pod, String hostIp, Instant scheduledAt) {
        ObjectNode status = base(pod, hostIp, scheduledAt);
        status.put("phase", "Pending");
        ArrayNode conds = status.putArray("conditions");
        condition(conds, "PodReadyToStartContainers", false, scheduledAt);
        boolean hasInits = !InitContainers.of(pod).isEmpty();
        condition(conds, "Initialized", !hasInits, scheduledAt);
        if (hasInits) {
            ((ObjectNode) conds.get(1)).put("reason", "ContainersNotInitialized")
                    .put("message", "containers with incomplete status: " + InitContainers.remaining(pod, 0));
        }
        for (String t : new String[] {"Ready", "ContainersReady"}) {
            condition(conds, t, false, scheduledAt);
            ((ObjectNode) conds.get(conds.size() - 1)).put("reason", "ContainersNotReady")
                    .put("message", "containers with unready status: " + containerNames(pod));
        }
        condition(conds, "PodScheduled", true, scheduledAt);
        if (hasInits) {
            status.set("initContainerStatuses", InitContainers.statuses(pod, 0, false, scheduledAt, scheduledAt));
        }
        waitingContainers(status, pod, hasInits ? "PodInitializing" : "ContainerCreating");
        return status;
    }

    /** The status of a Pod whose sandbox is up: {@code phase}, with the Pod IP. */
    private ObjectNode withSandbox(StoredObject pod, String hostIp, Instant scheduledAt, String phase) {
        ObjectNode status = base(pod, hostIp, scheduledAt);
        status.put("phase", phase);
        String ip = podIp(pod);
        status.put("podIP", ip);
        status.putArray("podIPs").addObject().put("ip", ip);
        return status;
    }

    /** Pending while init container {@code done} runs (the sandbox is up since {@code startAt}). */
    private ObjectNode initializing(StoredObject pod, String hostIp, Instant scheduledAt, Instant startAt, int done) {
        ObjectNode status = withSandbox(pod, hostIp, scheduledAt, "Pending");
        ArrayNode conds = status.putArray("conditions");
        condition(conds, "PodReadyToStartContainers", true, startAt);
        condition(conds, "Initialized", false, scheduledAt);
        ((ObjectNode) conds.get(1)).put("reason", "ContainersNotInitialized")
                .put("message", "containers with incomplete status: " + InitContainers.remaining(pod, done));
        for (String t : new String[] {"Ready", "ContainersReady"}) {
            condition(conds, t, false, scheduledAt);
            ((ObjectNode) conds.get(conds.size() - 1)).put("reason", "ContainersNotReady")
                    .put("message", "containers with unready status: " + containerNames(pod));
        }
        condition(conds, "PodScheduled", true, scheduledAt);
        status.set("initContainerStatuses", InitContainers.statuses(pod, done, true, startAt, startAt));
        waitingContainers(status, pod, "PodInitializing");
        return status;
    }

    private static void waitingContainers(ObjectNode status, StoredObject pod, String reason) {
        ArrayNode statuses = status.putArray("containerStatuses");
        for (JsonNode c : pod.object().path("spec").path("containers")) {
            ObjectNode s = statuses.addObject();
            s.put("name", Json.text(c, "name")).put("image", Json.text(c, "image")).put("imageID", "")
                    .put("ready", false).put("restartCount", 0).put("started", false);
            s.putObject("state").putObject("waiting").put("reason", reason);
            s.putObject("lastState");
        }
    }

    /** The pod's init containers, all completed, once its containers run (or ran). */
    private void completedInits(ObjectNode status, StoredObject pod, Instant startedAt) {
        if (!InitContainers.of(pod).isEmpty()) {
            Instant done = initializedAt.getOrDefault(pod.uid(), startedAt);
            status.set("initContainerStatuses", InitContainers.statuses(pod, InitContainers.of(pod).size(), true,
                    done, done));
        }
    }

    private String containerNames(StoredObject pod) {
        List<String> names = new ArrayList<>();
        pod.object().path("spec").path("containers").forEach(c -> names.add(Json.text(c, "name")));
        return "[" + String.join(" ", names) + "]";
    }

    /** Running since {@code startedAt}; Ready since {@code readySince}, or not Ready when it is null. */
    private ObjectNode running(StoredObject pod, String hostIp, Instant scheduledAt, Instant startedAt,
            int restartCount, ObjectNode lastState, Instant readySince) {
        boolean ready = readySince != null;
        ObjectNode status = withSandbox(pod, hostIp, scheduledAt, "Running");
        ArrayNode conds = status.putArray("conditions");
        condition(conds, "PodReadyToStartContainers", true, startedAt);
        condition(conds, "Initialized", true, scheduledAt);
        condition(conds, "Ready", ready, ready ? readySince : startedAt);
        condition(conds, "ContainersReady", ready, ready ? readySince : startedAt);
        if (!ready) {
            for (int i = 2; i < 4; i++) {
                ((ObjectNode) conds.get(i)).put("reason", "ContainersNotReady")
                        .put("message", "containers with unready status: " + containerNames(pod));
            }
        }
        condition(conds, "PodScheduled", true, scheduledAt);
        completedInits(status, pod, startedAt);
        ArrayNode statuses = status.putArray("containerStatuses");
        for (JsonNode c : pod.object().path("spec").path("containers")) {
            ObjectNode s = statuses.addObject();
            s.put("name", Json.text(c, "name")).put("image", Json.text(c, "image"))
                    .put("imageID", ContainerIdentities.imageId(Json.text(c, "image")))
                    .put("containerID", ContainerIdentities.containerId(pod.uid(), Json.text(c, "name"), restartCount))
                    .put("ready", ready).put("restartCount", restartCount).put("started", true);
            s.putObject("state").putObject("running").put("startedAt", ts(startedAt));
            s.set("lastState", lastState == null ? Json.object() : lastState.deepCopy());
        }
        return status;
    }

    private ObjectNode finished(StoredObject pod, String hostIp, Instant scheduledAt, Instant startAt,
            Instant runningSince, Instant now, int exitCode) {
        ObjectNode status = withSandbox(pod, hostIp, scheduledAt, exitCode == 0 ? "Succeeded" : "Failed");
        ArrayNode conds = status.putArray("conditions");
        condition(conds, "PodReadyToStartContainers", false, now);
        condition(conds, "Initialized", true, scheduledAt);
        for (String t : new String[] {"Ready", "ContainersReady"}) {
            condition(conds, t, false, now);
            ((ObjectNode) conds.get(conds.size() - 1)).put("reason", "PodCompleted");
        }
        condition(conds, "PodScheduled", true, scheduledAt);
        completedInits(status, pod, startAt);
        ArrayNode statuses = status.putArray("containerStatuses");
        JsonNode previous = pod.object().path("status").path("containerStatuses");
        int i = 0;
        for (JsonNode c : pod.object().path("spec").path("containers")) {
            int restarts = previous.path(i++).path("restartCount").asInt(0);
            ObjectNode s = statuses.addObject();
            s.put("name", Json.text(c, "name")).put("image", Json.text(c, "image"))
                    .put("imageID", ContainerIdentities.imageId(Json.text(c, "image")))
                    .put("containerID", ContainerIdentities.containerId(pod.uid(), Json.text(c, "name"), restarts))
                    .put("ready", false).put("restartCount", restarts).put("started", false);
            s.putObject("state").putObject("terminated").put("exitCode", exitCode)
                    .put("reason", exitCode == 0 ? "Completed" : "Error")
                    .put("startedAt", ts(runningSince)).put("finishedAt", ts(now))
                    .put("containerID", ContainerIdentities.containerId(pod.uid(), Json.text(c, "name"), restarts));
            s.putObject("lastState");
        }
        return status;
    }


    /**
     * PUT of the Pod's status: only the status and the resourceVersion precondition count on the status subresource,
     * so the body carries no copy of the rest of the Pod (the real kubelet sends a status patch).
     */
    private void writeStatus(StoredObject pod, ObjectNode status) {
        ObjectNode next = Json.object();
        next.put("apiVersion", pod.apiVersion()).put("kind", pod.kind());
        next.putObject("metadata").put("name", pod.name()).put("namespace", pod.namespace())
                .put("resourceVersion", Long.toString(pod.resourceVersion()));
        next.set("status", status);
        client.updateStatusBuilt(ResourceTypes.PODS, next);
    }
}
