package io.kuberaysim.sim.chaos;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.runtime.Controller;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.EventRecorder;
import io.kuberaysim.controller.runtime.cache.SharedInformer;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.reconcile.Request;
import io.kuberaysim.controller.runtime.reconcile.Result;
import io.kuberaysim.sim.SimulationSettings;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The Ready condition of the simulated Nodes, where NodeLifecycleRules or NodeNotReady faults say something about
 * it. A Node a rule selects and that is not Ready yet becomes Ready {@code readyDelay} after its creation; with
 * {@code notReadyEvery}/{@code notReadyFor} it goes NotReady (Ready=Unknown, NodeStatusUnknown, as the node
 * lifecycle controller marks a node whose kubelet stopped posting status) for drawn periods, one after the other; a
 * NodeNotReady fault does the same for its window. Nodes no rule or fault touches are never written.
 */
public final class NodeLifecycle {
    private static final String STOPPED = "NodeStatusUnknown";

    private final KubeClient client;
    private final Clock clock;
    private final SharedInformer rules;
    private final ChaosRandom random;
    private final SimulationSettings settings;
    private final EventRecorder events;
    private final Map<String, Instant> outages = new HashMap<>(); // node uid → NotReady until (faults)
    private final Map<String, Cycle> cycles = new HashMap<>(); // node uid → its NotReady periods from its rule
    private Controller controller;

    /** The rule's NotReady period number {@code n}: from {@code start} to {@code end}. */
    private record Cycle(String rule, int n, Instant start, Instant end) {
    }

    NodeLifecycle(ControllerManager manager, ChaosRandom random, SimulationSettings settings) {
        this.client = manager.client().as("kuberay-sim-chaos");
        this.clock = manager.clock();
        this.rules = manager.informer(ResourceTypes.NODELIFECYCLERULES);
        this.random = random;
        this.settings = settings;
        this.events = manager.legacyEventRecorder("node-controller", "kuberay-sim-chaos");
    }

    void register(ControllerManager manager) {
        controller = manager.controller("sim-node-lifecycle")
                .forType(ResourceTypes.NODES)
                .watches(ResourceTypes.NODELIFECYCLERULES, rule -> manager.informer(ResourceTypes.NODES)
                        .list(null, null).stream().map(n -> new Request(null, n.name())).toList())
                .complete(this::reconcile);
    }

    /** A NodeNotReady fault: the Node is NotReady until {@code until} (at least). */
    synchronized void outage(StoredObject node, Instant until) {
        outages.merge(node.uid(), until, (a, b) -> a.isAfter(b) ? a : b);
        controller.enqueue(new Request(null, node.name()));
    }

    synchronized Result reconcile(Request request) {
        StoredObject node = client.get(ResourceTypes.NODES, null, request.name());
        if (node == null || node.isDeleting()) {
            return Result.done();
        }
        Instant now = clock.now();
        JsonNode rule = rule(node);
        Instant wake = null;
        boolean down = false;
        Instant outage = outages.get(node.uid());
        if (outage != null) {
            if (now.isBefore(outage)) {
                down = true;
                wake = outage;
            } else {
                outages.remove(node.uid());
            }
        }
        JsonNode spec = rule == null ? null : rule.path("spec");
        if (spec != null && spec.has("notReadyEvery") && spec.has("notReadyFor")) {
            Cycle c = cycle(node, Json.text(rule, "metadata", "name"), spec, now);
            if (now.isBefore(c.start())) {
                wake = earliest(wake, c.start());
            } else {
                down = true;
                wake = earliest(wake, c.end());
            }
        } else {
            cycles.remove(node.uid());
        }
        JsonNode ready = readyCondition(node);
        String readyStatus = ready == null ? null : Json.text(ready, "status");
        if (down) {
            if ("True".equals(readyStatus)) {
                writeReady(node, false, now);
                events.event(node, EventRecorder.NORMAL, "NodeNotReady", "NodeNotReady",
                        "Node " + node.name() + " status is now: NodeNotReady");
            }
        } else if (ready == null || !"True".equals(readyStatus)) {
            boolean ours = ready != null && STOPPED.equals(Json.text(ready, "reason"));
            if (ours) {
                writeReady(node, true, now);
                events.event(node, EventRecorder.NORMAL, "NodeReady", "NodeReady",
                        "Node " + node.name() + " status is now: NodeReady");
            } else if (spec != null && spec.has("readyDelay")) {
                Duration delay = ChaosRandom.draw(spec.get("readyDelay"), random.stream("node", node.uid(), "ready"));
                Instant at = created(node).plus(delay);
                if (now.isBefore(at)) {
                    wake = earliest(wake, at);
                } else {
                    writeReady(node, true, now);
                    events.event(node, EventRecorder.NORMAL, "NodeReady", "NodeReady",
                            "Node " + node.name() + " status is now: NodeReady");
                }
            }
        }
        return wake == null ? Result.done() : Result.requeueAfter(Duration.between(now, wake));
    }

    /** The current (or next) NotReady period of the Node under {@code rule}; drawn once per period. */
    private Cycle cycle(StoredObject node, String rule, JsonNode spec, Instant now) {
        Cycle c = cycles.get(node.uid());
        if (c == null || !c.rule().equals(rule)) {
            c = next(node, rule, spec, 0, now);
        }
        while (!now.isBefore(c.end())) {
            c = next(node, rule, spec, c.n() + 1, c.end());
        }
        cycles.put(node.uid(), c);
        return c;
    }

    private Cycle next(StoredObject node, String rule, JsonNode spec, int n, Instant from) {
        Instant start = from.plus(ChaosRandom.draw(spec.get("notReadyEvery"),
                random.stream("node", node.uid(), rule, "every", n)));
        Duration length = ChaosRandom.draw(spec.get("notReadyFor"), random.stream("node", node.uid(), rule, "for", n));
        // a zero-length period would never end the loop above
        return new Cycle(rule, n, start, start.plus(length.isZero() ? Duration.ofMillis(1) : length));
    }

    private JsonNode rule(StoredObject node) {
        for (StoredObject r : rules.list(null, null)) {
            if (SpecSelectors.match(r.object().path("spec"), node)) {
                return r.object();
            }
        }
        return null;
    }

    private static Instant earliest(Instant a, Instant b) {
        return a == null || b.isBefore(a) ? b : a;
    }

    private static Instant created(StoredObject node) {
        String ts = Json.text(node.object(), "metadata", "creationTimestamp");
        return ts == null ? Instant.EPOCH : Instant.parse(ts);
    }

    private static JsonNode readyCondition(StoredObject node) {
        for (JsonNode c : node.object().path("status").path("conditions")) {
            if ("Ready".equals(Json.text(c, "type"))) {
                return c;
            }
        }
        return null;
    }

    /** Ready=True as the kubelet posts it, or Ready=Unknown as the node lifecycle controller marks a silent node. */
    private void writeReady(StoredObject node, boolean ready, Instant now) {
        ObjectNode next = node.copy();
        ObjectNode status = next.path("status") instanceof ObjectNode s ? s : next.putObject("status");
        if (!status.has("capacity")) {
            ObjectNode capacity = status.putObject("capacity");
            capacity.put("cpu", settings.nodeCpu()).put("memory", settings.nodeMemory())
                    .put("pods", Integer.toString(settings.nodePods()));
            status.set("allocatable", capacity.deepCopy());
        }
        ArrayNode conditions = status.path("conditions") instanceof ArrayNode a ? a : status.putArray("conditions");
        List<JsonNode> others = new ArrayList<>();
        conditions.forEach(c -> {
            if (!"Ready".equals(Json.text(c, "type"))) {
                others.add(c);
            }
        });
        conditions.removeAll();
        others.forEach(conditions::add);
        String t = now.truncatedTo(ChronoUnit.SECONDS).toString();
        ObjectNode c = conditions.addObject().put("type", "Ready").put("status", ready ? "True" : "Unknown")
                .put("lastHeartbeatTime", t).put("lastTransitionTime", t);
        if (ready) {
            c.put("reason", "KubeletReady").put("message", "kubelet is posting ready status");
        } else {
            c.put("reason", STOPPED).put("message", "Kubelet stopped posting node status.");
        }
        client.updateStatus(ResourceTypes.NODES, next);
    }
}
