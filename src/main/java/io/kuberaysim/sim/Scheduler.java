package io.kuberaysim.sim;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.api.Tolerations;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.runtime.Controller;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.EventRecorder;
import io.kuberaysim.controller.runtime.cache.InformerHandler;
import io.kuberaysim.controller.runtime.cache.SharedInformer;
import io.kuberaysim.controller.runtime.clock.Timestamps;
import io.kuberaysim.controller.runtime.reconcile.Request;
import io.kuberaysim.controller.runtime.reconcile.Result;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A kube-scheduler for the simulated nodes: binds each Pod without {@code spec.nodeName} whose
 * {@code spec.schedulerName} is {@code default-scheduler} to the least
 * allocated node (ties by name) that passes the filters (not cordoned, NoSchedule/NoExecute taints tolerated, Ready,
 * nodeSelector, enough free
 * cpu/memory/{@code nvidia.com/gpu}/pods), through {@code pods/binding} as kube-scheduler's default binder (one
 * write sets the node and PodScheduled=True). A Pod that fits nowhere gets PodScheduled=False reason
 * Unschedulable and a FailedScheduling Warning with kube-scheduler's aggregated message, and is tried again
 * whenever capacity frees up (a pod bound to a node goes away or finishes, a node appears or changes).
 *
 * <p>Usage per node is kept incrementally from the pod informer plus the pods this scheduler bound but the
 * informer has not shown yet ("assumed" pods, as kube-scheduler does), so a burst of pods never overcommits.
 */
final class Scheduler {
    static final String NAME = "default-scheduler";
    private static final int MIN_FEASIBLE_NODES_TO_FIND = 100;
    private static final int MIN_FEASIBLE_NODES_PERCENTAGE = 5;
    private static final int MAX_CANONICAL_REQUESTS = 1024;
    /** kube-scheduler's error when there is no node at all. */
    static final String NO_NODES = "no nodes available to schedule pods";
    /** An unschedulable Pod is tried again after podMaxInUnschedulablePodsDuration, if nothing moved it sooner. */
    private static final java.time.Duration UNSCHEDULABLE_FLUSH = java.time.Duration.ofMinutes(5);

    private final KubeClient client;
    private final SharedInformer pods;
    private final SharedInformer nodes;
    private final EventRecorder events;
    private final Map<String, Placement> placements = new HashMap<>(); // pod key → where it counts
    private final Map<String, Resources> used = new HashMap<>();      // node → sum of placements
    private final TreeSet<String> waiting = new TreeSet<>();           // unschedulable pod keys
    private final Map<String, NodeState> nodeStates = new HashMap<>(); // node name → flags and fits, see NodeState
    /**
     * The node informer's list and each position's state, kept until a Node is added, changed or deleted: every Pod
     * walks a hundred nodes or more, and listing them and finding each one's state by name cost more than the filters.
     */
    private StoredObject[] nodeList;
    private NodeState[] nodeListStates;
    private final Map<Resources, Resources> canonicalRequests = new HashMap<>(); // see canonical
    private int nextStartNodeIndex;
    private Controller controller;

    /**
     * A node version's parsed {@code status.allocatable}; null amounts when it cannot be read (such a node takes no
     * Pods, and does not stop the others being used).
     */
    private record Allocatable(Resources amounts) {
    }

    private record Placement(String node, Resources requests) {
    }

    /** The resource filter's reasons and the score of some requests on a node, at its current usage. */
    private record Fit(List<String> why, BigDecimal score) {
    }

    /**
     * What the filters read of one node version (cordoned, Ready) and the fits of the requests tried on it since its
     * usage last changed. On a large pool each Pod is tried on a hundred nodes or more, whose usage one binding
     * changes only on one: most answers are the same as for the Pod before (workers of a group ask the same).
     */
    private static final class NodeState {
        private static final int MAX_FITS = 8;
        final StoredObject node;
        final boolean unschedulable;
        final boolean ready;
        /** The NoSchedule and NoExecute taints, the only ones the filter reads (most nodes have none). */
        final List<JsonNode> blockingTaints;
        /** Read on first need, as the filter reaches it (an unreadable one is reported once per node version). */
        Allocatable allocatable;
        /** Requests (canonical instances, compared by identity) and their fits, replaced in turn when full. */
        private final Resources[] tried = new Resources[MAX_FITS];
        private final Fit[] fits = new Fit[MAX_FITS];
        private int next;

        NodeState(StoredObject node) {
            this.node = node;
            this.unschedulable = node.object().path("spec").path("unschedulable").asBoolean(false);
            this.ready = nodeReady(node);
            List<JsonNode> taints = new ArrayList<>();
            for (JsonNode taint : node.object().path("spec").path("taints")) {
                String effect = Json.text(taint, "effect");
                if (Tolerations.NO_SCHEDULE.equals(effect) || Tolerations.NO_EXECUTE.equals(effect)) {
                    taints.add(taint);
                }
            }
            this.blockingTaints = taints.isEmpty() ? List.of() : taints;
        }

        Fit fit(Resources requests) {
            for (int i = 0; i < MAX_FITS; i++) {
                if (tried[i] == requests) {
                    return fits[i];
                }
            }
            return null;
        }

        void remember(Resources requests, Fit fit) {
            tried[next] = requests;
            fits[next] = fit;
            next = (next + 1) % MAX_FITS;
        }

        void usageChanged() {
            java.util.Arrays.fill(tried, null);
            java.util.Arrays.fill(fits, null);
        }
    }

    Scheduler(ControllerManager manager) {
        this.client = manager.client().as("kube-scheduler");
        this.pods = manager.informer(ResourceTypes.PODS);
        this.nodes = manager.informer(ResourceTypes.NODES);
        this.events = manager.eventRecorder(NAME, "kube-scheduler");
    }

    void register(ControllerManager manager) {
        pods.addHandler(new InformerHandler() {
            @Override
            public void onAdd(StoredObject o) {
                track(o);
            }

            @Override
            public void onUpdate(StoredObject oldObj, StoredObject newObj) {
                track(newObj);
            }

            @Override
            public void onDelete(StoredObject o) {
                untrack(key(o));
            }
        });
        controller = manager.controller("scheduler")
                .forType(ResourceTypes.PODS, (o, n) -> unbound(n) && podUpdated(o, n))
                .complete(this::reconcile);
        nodes.addHandler(new InformerHandler() {
            @Override
            public void onAdd(StoredObject node) {
                nodesChanged();
                retryWaiting();
            }

            @Override
            public void onUpdate(StoredObject oldNode, StoredObject newNode) {
                nodesChanged();
                if (mayFitMore(oldNode, newNode)) {
                    retryWaiting();
                }
            }

            @Override
            public void onDelete(StoredObject node) {
                nodesChanged();
            }
        });
    }

    /**
     * kube-scheduler's {@code isPodUpdated}: a change of the Pod other than its status, resourceVersion,
     * managedFields or finalizers (the scheduler's own PodScheduled condition does not send it round again).
     */
    static boolean podUpdated(StoredObject oldPod, StoredObject newPod) {
        if (!java.util.Objects.equals(oldPod.object().get("spec"), newPod.object().get("spec"))) {
            return true;
        }
        JsonNode a = oldPod.metadata();
        JsonNode b = newPod.metadata();
        for (String field : List.of("labels", "annotations", "ownerReferences", "deletionTimestamp", "name",
                "generateName", "uid")) {
            if (!java.util.Objects.equals(a.get(field), b.get(field))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a Node change can let a waiting Pod fit (the events the default plugins' queueing hints answer): new
     * allocatable, labels, taints, schedulability or readiness. A status heartbeat retries nobody.
     */
    private static boolean mayFitMore(StoredObject oldNode, StoredObject newNode) {
        JsonNode a = oldNode.object();
        JsonNode b = newNode.object();
        return !java.util.Objects.equals(a.path("status").get("allocatable"), b.path("status").get("allocatable"))
                || !oldNode.labels().equals(newNode.labels())
                || !java.util.Objects.equals(a.path("spec").get("taints"), b.path("spec").get("taints"))
                || a.path("spec").path("unschedulable").asBoolean(false)
                        != b.path("spec").path("unschedulable").asBoolean(false)
                || nodeReady(oldNode) != nodeReady(newNode);
    }

    /** An unbound Pod this scheduler is named for (others are left to the scheduler their schedulerName names). */
    private static boolean unbound(StoredObject pod) {
        if (Json.text(pod.object(), "spec", "nodeName") != null || pod.isDeleting()) {
            return false;
        }
        String scheduler = Json.text(pod.object(), "spec", "schedulerName");
        return scheduler == null || scheduler.equals(NAME);
    }

    private static String key(StoredObject o) {
        return o.namespace() + "/" + o.name();
    }

    private static boolean terminal(StoredObject pod) {
        String phase = Json.text(pod.object(), "status", "phase");
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    private synchronized void track(StoredObject pod) {
        String node = Json.text(pod.object(), "spec", "nodeName");
        if (node == null) {
            return; // unbound pods do not count, and a pod the scheduler assumed stays assumed
        }
        if (terminal(pod)) {
            untrack(key(pod));
            return;
        }
        Placement p = placements.get(key(pod));
        if (p == null || !p.node().equals(node)) {
            untrack(key(pod));
            try {
                place(key(pod), node, Resources.ofPod(pod.object()));
            } catch (IllegalArgumentException e) {
                // a bound Pod whose requests cannot be read takes nothing from its node
            }
        }
    }

    private synchronized void untrack(String key) {
        Placement p = placements.remove(key);
        if (p != null) {
            used.computeIfAbsent(p.node(), n -> new Resources()).addAll(p.requests(), -1);
            usageChanged(p.node());
            retryWaiting();
        }
        waiting.remove(key);
    }

    private void place(String key, String node, Resources requests) {
        placements.put(key, new Placement(node, requests));
        used.computeIfAbsent(node, n -> new Resources()).addAll(requests, 1);
        usageChanged(node);
    }

    private void usageChanged(String node) {
        NodeState s = nodeStates.get(node);
        if (s != null) {
            s.usageChanged();
        }
    }

    private synchronized void nodesChanged() {
        nodeList = null;
        nodeListStates = null;
    }

    private void retryWaiting() {
        if (controller != null) {
            waitingRequests().forEach(controller::enqueue);
        }
    }

    private synchronized List<Request> waitingRequests() {
        List<Request> out = new ArrayList<>();
        for (String k : waiting) {
            int slash = k.indexOf('/');
            out.add(new Request(k.substring(0, slash), k.substring(slash + 1)));
        }
        return out;
    }

    synchronized Result reconcile(Request request) {
        StoredObject pod = client.get(ResourceTypes.PODS, request.namespace(), request.name());
        String key = request.namespace() + "/" + request.name();
        if (pod == null || !unbound(pod)) {
            waiting.remove(key);
            return Result.done();
        }
        Resources requests = canonical(Resources.ofPod(pod.object()));
        JsonNode selector = Json.at(pod.object(), "spec", "nodeSelector");
        JsonNode tolerations = Json.at(pod.object(), "spec", "tolerations");
        String best = null;
        BigDecimal bestScore = null;
        Map<String, Integer> reasons = new TreeMap<>();
        if (nodeList == null) {
            nodeList = nodes.list(null, null).toArray(new StoredObject[0]);
            nodeListStates = new NodeState[nodeList.length];
        }
        int total = nodeList.length;
        int wanted = feasibleNodesToFind(total);
        int feasible = 0;
        int start = total == 0 ? 0 : nextStartNodeIndex % total;
        int examined = 0;
        int resolvable = 0;
        for (; examined < total && feasible < wanted; examined++) {
            int at = (start + examined) % total;
            StoredObject node = nodeList[at];
            NodeState state = nodeListStates[at];
            if (state == null || state.node != node) {
                state = nodeState(node);
                nodeListStates[at] = state;
            }
            List<String> why = filter(state, selector, tolerations, requests);
            if (!why.isEmpty()) {
                why.forEach(r -> reasons.merge(r, 1, Integer::sum));
                if (why.stream().allMatch(Scheduler::preemptionMayHelp)) {
                    resolvable++;
                }
                continue;
            }
            feasible++;
            BigDecimal score = fit(state, requests, state.allocatable.amounts()).score();
            if (bestScore == null || score.compareTo(bestScore) < 0
                    || score.compareTo(bestScore) == 0 && node.name().compareTo(best) < 0) {
                best = node.name();
                bestScore = score;
            }
        }
        if (total > 0) {
            nextStartNodeIndex = (start + examined) % total;
        }
        if (best == null) {
            String now = Timestamps.seconds(client.registry().now());
            String message = total == 0 ? NO_NODES : "0/" + total + " nodes are available: "
                    + histogram(reasons) + ". " + preemption(pod, total, resolvable);
            waiting.add(key);
            JsonNode existing = condition(pod, "PodScheduled");
            if (existing == null || !message.equals(Json.text(existing, "message"))
                    || !"False".equals(Json.text(existing, "status"))) {
                ObjectNode patch = Json.object();
                ArrayNode conds = patch.putObject("status").putArray("conditions");
                conds.addObject().put("type", "PodScheduled").put("status", "False").putNull("lastProbeTime")
                        .put("lastTransitionTime", now).put("reason", "Unschedulable").put("message", message);
                client.patchStatus(ResourceTypes.PODS, pod.namespace(), pod.name(), patch);
            }
            events.event(pod, EventRecorder.WARNING, "FailedScheduling", "Scheduling", message);
            return Result.requeueAfter(UNSCHEDULABLE_FLUSH);
        }
        waiting.remove(key);
        StoredObject bound = client.bind(pod.namespace(), pod.name(), best);
        place(key, best, requests); // assumed until the informer shows the binding
        events.event(bound, EventRecorder.NORMAL, "Scheduled", "Binding",
                "Successfully assigned " + key + " to " + best);
        return Result.done();
    }

    /** The filter reasons counted over the nodes, as kube's FitError lists them: "N reason", sorted as strings. */
    private static String histogram(Map<String, Integer> reasons) {
        List<String> parts = new ArrayList<>();
        reasons.forEach((reason, n) -> parts.add(n + " " + reason));
        java.util.Collections.sort(parts);
        return String.join(", ", parts);
    }

    /**
     * What the DefaultPreemption post-filter adds. Every Pod here has the same priority, so a node short of
     * resources has no victims, and a node filtered out for any other reason (taint, selector, unschedulable)
     * cannot be helped by preemption.
     */
    private static String preemption(StoredObject pod, int nodes, int resolvable) {
        if ("Never".equals(Json.text(pod.object(), "spec", "preemptionPolicy"))) {
            return "preemption: not eligible due to preemptionPolicy=Never.";
        }
        Map<String, Integer> outcome = new TreeMap<>();
        if (resolvable > 0) {
            outcome.put("No preemption victims found for incoming pod", resolvable);
        }
        if (nodes - resolvable > 0) {
            outcome.put("Preemption is not helpful for scheduling", nodes - resolvable);
        }
        return "preemption: 0/" + nodes + " nodes are available: " + histogram(outcome) + ".";
    }

    /** Reasons of the resource filter (NodeResourcesFit), the only ones here that evicting Pods could resolve. */
    private static boolean preemptionMayHelp(String reason) {
        return reason.startsWith("Insufficient ") || reason.equals("Too many pods");
    }

    static JsonNode condition(StoredObject o, String type) {
        for (JsonNode c : o.object().path("status").path("conditions")) {
            if (type.equals(Json.text(c, "type"))) {
                return c;
            }
        }
        return null;
    }

    static boolean nodeReady(StoredObject node) {
        JsonNode ready = condition(node, "Ready");
        return ready != null && "True".equals(Json.text(ready, "status"));
    }

    /** Why the pod cannot go to the node (the first failing filter's reasons, as the framework reports). */
    private List<String> filter(NodeState state, JsonNode selector, JsonNode tolerations, Resources requests) {
        StoredObject node = state.node;
        if (state.unschedulable) {
            return List.of("node(s) were unschedulable");
        }
        for (JsonNode taint : state.blockingTaints) {
            if (!Tolerations.tolerated(tolerations, taint)) {
                String value = Json.text(taint, "value");
                return List.of("node(s) had untolerated taint {" + Json.text(taint, "key") + ": "
                        + (value == null ? "" : value) + "}");
            }
        }
        if (!state.ready) {
            // not tainted yet: the node lifecycle controller taints it on its next turn
            return List.of("node(s) had untolerated taint {node.kubernetes.io/not-ready: }");
        }
        if (selector != null && selector.isObject()) {
            for (var e : selector.properties()) {
                if (!e.getValue().asString().equals(node.labels().get(e.getKey()))) {
                    return List.of("node(s) didn't match Pod's node affinity/selector");
                }
            }
        }
        Resources allocatable = allocatable(state);
        if (allocatable == null) {
            return List.of("node(s) had invalid allocatable resources");
        }
        return fit(state, requests, allocatable).why();
    }

    private NodeState nodeState(StoredObject node) {
        NodeState s = nodeStates.get(node.name());
        if (s == null || s.node != node) {
            s = new NodeState(node);
            nodeStates.put(node.name(), s);
        }
        return s;
    }

    /**
     * The resource filter and score of {@code requests} (a {@link #canonical} instance) on the node, whose allocatable
     * is {@code allocatable}.
     */
    private Fit fit(NodeState state, Resources requests, Resources allocatable) {
        Fit fit = state.fit(requests);
        if (fit == null) {
            Resources inUse = used.getOrDefault(state.node.name(), Resources.NONE);
            fit = new Fit(resourceReasons(requests, inUse, allocatable), allocatedFraction(requests, inUse, allocatable));
            state.remember(requests, fit);
        }
        return fit;
    }

    /** The one instance of these requests, so nodes find their fits by identity (hashing them per node cost more). */
    private Resources canonical(Resources requests) {
        if (canonicalRequests.size() >= MAX_CANONICAL_REQUESTS) {
            canonicalRequests.clear();
        }
        return canonicalRequests.computeIfAbsent(requests, r -> r);
    }

    private static List<String> resourceReasons(Resources requests, Resources inUse, Resources allocatable) {
        List<String> why = new ArrayList<>();
        for (String r : Resources.CHECKED) {
            BigDecimal want = requests.get(r);
            if (want.signum() > 0 && inUse.get(r).add(want).compareTo(allocatable.get(r)) > 0) {
                why.add(r.equals(Resources.PODS) ? "Too many pods" : "Insufficient " + r);
            }
        }
        for (Map.Entry<String, BigDecimal> e : requests.asMap().entrySet()) {
            String r = e.getKey();
            if (!List.of(Resources.CHECKED).contains(r) && e.getValue().signum() > 0
                    && !r.equals("ephemeral-storage")
                    && inUse.get(r).add(e.getValue()).compareTo(allocatable.get(r)) > 0) {
                why.add("Insufficient " + r);
            }
        }
        return why;
    }

    /**
     * kube-scheduler's {@code numFeasibleNodesToFind} with the default {@code percentageOfNodesToScore}: all
     * nodes below 100, else an adaptive share (50 % minus 1 % per 125 nodes, at least 5 %) but never fewer than
     * 100. The search resumes after the last node examined, so pods spread over the whole pool; on large pools
     * this keeps scheduling one pod independent of the node count, as on a real cluster.
     */
    static int feasibleNodesToFind(int nodes) {
        if (nodes < MIN_FEASIBLE_NODES_TO_FIND) {
            return nodes;
        }
        int percentage = Math.max(MIN_FEASIBLE_NODES_PERCENTAGE, 50 - nodes / 125);
        return Math.max(MIN_FEASIBLE_NODES_TO_FIND, nodes * percentage / 100);
    }

    private Resources allocatable(NodeState state) {
        if (state.allocatable == null) {
            StoredObject node = state.node;
            try {
                state.allocatable = new Allocatable(Resources.of(Json.at(node.object(), "status", "allocatable")));
            } catch (IllegalArgumentException e) {
                state.allocatable = new Allocatable(null);
                events.event(node, EventRecorder.WARNING, "InvalidAllocatable", "Scheduling",
                        "status.allocatable cannot be read, no Pods are scheduled here: " + e.getMessage());
            }
        }
        return state.allocatable.amounts();
    }

    /** Mean fraction of cpu and memory allocated after placing the pod: lower is better (least allocated). */
    private static BigDecimal allocatedFraction(Resources requests, Resources inUse, Resources allocatable) {
        BigDecimal sum = BigDecimal.ZERO;
        for (String r : new String[] {Resources.CPU, Resources.MEMORY}) {
            BigDecimal cap = allocatable.get(r);
            if (cap.signum() > 0) {
                sum = sum.add(inUse.get(r).add(requests.get(r)).divide(cap, 12, java.math.RoundingMode.HALF_EVEN));
            }
        }
        return sum;
    }
}
