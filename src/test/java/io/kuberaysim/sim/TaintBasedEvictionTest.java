package io.kuberaysim.sim;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.testing.SeedManifests;
import io.kuberaysim.testing.SimulationHarness;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Node that stops being Ready, as on a real cluster: the node lifecycle controller taints it, DefaultTolerationSeconds
 * gave every Pod 300 s of toleration, and taint-based eviction deletes the Pods when it runs out; the scheduler keeps
 * new Pods off the tainted Node. All on the virtual clock.
 */
class TaintBasedEvictionTest {

    private static String pod(String name, String tolerations) {
        return """
                metadata: {name: %s}
                spec:
                  tolerations: %s
                  containers:
                  - name: main
                    image: rayproject/ray:2.41.0
                    resources: {requests: {cpu: "1", memory: 1Gi}}
                """.formatted(name, tolerations);
    }

    private static StoredObject get(SimulationHarness h, String name) {
        return h.client().get(ResourceTypes.PODS, "default", name);
    }

    private static String condition(StoredObject o, String type) {
        JsonNode c = Scheduler.condition(o, type);
        return c == null ? null : Json.text(c, "status");
    }

    /**
     * The Node's Ready condition as the node lifecycle controller leaves a silent node (or a kubelet a sick one); the
     * reason is not the chaos simulation's, which would set it back.
     */
    private static void setReady(SimulationHarness h, String node, String status) {
        ObjectNode n = h.client().get(ResourceTypes.NODES, null, node).copy();
        for (JsonNode c : n.path("status").path("conditions")) {
            if ("Ready".equals(Json.text(c, "type"))) {
                ((ObjectNode) c).put("status", status).put("reason", status.equals("True") ? "KubeletReady"
                        : status.equals("Unknown") ? "NodeStatusNeverUpdated" : "KubeletNotReady");
            }
        }
        h.client().updateStatus(ResourceTypes.NODES, n);
        h.settle();
    }

    private static List<String> taints(SimulationHarness h, String node) {
        List<String> out = new ArrayList<>();
        for (JsonNode t : h.client().get(ResourceTypes.NODES, null, node).object().path("spec").path("taints")) {
            out.add(Json.text(t, "key") + ":" + Json.text(t, "effect") + (t.has("timeAdded") ? "@" : ""));
        }
        return out;
    }

    private static List<String> events(SimulationHarness h, String reason) {
        List<String> out = new ArrayList<>();
        for (StoredObject e : h.client().list(ResourceTypes.EVENTS, "default", null)) {
            if (reason.equals(Json.text(e.object(), "reason"))) {
                out.add(Json.text(e.object(), "involvedObject", "name") + ": " + Json.text(e.object(), "message"));
            }
        }
        return out;
    }

    @Test
    void everyPodGetsThe300SecondTolerationsUnlessItHasItsOwn() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            h.create(ResourceTypes.PODS, "default", pod("plain", "[]"));
            assertThat(get(h, "plain").object().path("spec").path("tolerations").toString()).isEqualTo("["
                    + "{\"key\":\"node.kubernetes.io/not-ready\",\"operator\":\"Exists\",\"effect\":\"NoExecute\","
                    + "\"tolerationSeconds\":300},"
                    + "{\"key\":\"node.kubernetes.io/unreachable\",\"operator\":\"Exists\",\"effect\":\"NoExecute\","
                    + "\"tolerationSeconds\":300}]");
            h.create(ResourceTypes.PODS, "default", pod("own",
                    "[{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 5}]"));
            JsonNode own = get(h, "own").object().path("spec").path("tolerations");
            assertThat(own).hasSize(2);
            assertThat(own.get(0).path("tolerationSeconds").asInt()).isEqualTo(5);
            assertThat(own.get(1).path("key").asString()).isEqualTo("node.kubernetes.io/not-ready");
        }
    }

    @Test
    void anUnreachableNodeIsTaintedItsPodsTurnNotReadyAndAreEvictedAfter300Seconds() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            h.create(ResourceTypes.PODS, "default", pod("a", "[]"));
            h.advance(Duration.ofSeconds(3));
            String node = Json.text(get(h, "a").object(), "spec", "nodeName");
            assertThat(condition(get(h, "a"), "Ready")).isEqualTo("True");

            setReady(h, node, "Unknown");
            assertThat(taints(h, node)).containsExactly("node.kubernetes.io/unreachable:NoSchedule",
                    "node.kubernetes.io/unreachable:NoExecute@");
            StoredObject a = get(h, "a");
            assertThat(Json.text(a.object(), "status", "phase")).isEqualTo("Running");
            assertThat(condition(a, "Ready")).isEqualTo("False");
            assertThat(events(h, "NodeNotReady")).contains("a: Node is not ready");

            h.create(ResourceTypes.PODS, "default", pod("b", "[]"));
            assertThat(Json.text(get(h, "b").object(), "spec", "nodeName")).isNotNull().isNotEqualTo(node);

            h.advance(Duration.ofSeconds(299));
            assertThat(get(h, "a").isDeleting()).isFalse();
            h.advance(Duration.ofSeconds(1));
            a = get(h, "a");
            assertThat(a.isDeleting()).isTrue();
            assertThat(condition(a, "DisruptionTarget")).isEqualTo("True");
            assertThat(Json.text(Scheduler.condition(a, "DisruptionTarget"), "reason"))
                    .isEqualTo("DeletionByTaintManager");
            assertThat(events(h, "TaintManagerEviction")).containsExactly("a: Marking for deletion Pod default/a");
            h.advance(Duration.ofSeconds(31));
            assertThat(get(h, "a")).isNull();
        }
    }

    @Test
    void aNodeReadyAgainInTimeLosesItsTaintsAndItsPodsAreReadyAgain() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            h.create(ResourceTypes.PODS, "default", pod("a", "[]"));
            h.advance(Duration.ofSeconds(3));
            String node = Json.text(get(h, "a").object(), "spec", "nodeName");

            setReady(h, node, "Unknown");
            h.advance(Duration.ofSeconds(60));
            setReady(h, node, "True");
            assertThat(taints(h, node)).isEmpty();
            assertThat(condition(get(h, "a"), "Ready")).isEqualTo("True");
            assertThat(events(h, "TaintManagerEviction")).containsExactly("a: Cancelling deletion of Pod default/a");
            h.advance(Duration.ofSeconds(600));
            assertThat(get(h, "a").isDeleting()).isFalse();
        }
    }

    @Test
    void aNotReadyNodeGetsTheNotReadyTaintsAndAPodWithoutTolerationSecondsStays() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            String onNode0 = "spec:\n  nodeSelector: {kubernetes.io/hostname: sim-node-0}\n";
            h.create(ResourceTypes.PODS, "default", pod("stays",
                    "[{key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute}]")
                    .replace("spec:\n", onNode0));
            h.create(ResourceTypes.PODS, "default", pod("short",
                    "[{key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 10}]"
            ).replace("spec:\n", onNode0));
            h.advance(Duration.ofSeconds(3));
            assertThat(Json.text(get(h, "stays").object(), "spec", "nodeName")).isEqualTo("sim-node-0");
            assertThat(Json.text(get(h, "short").object(), "spec", "nodeName")).isEqualTo("sim-node-0");

            setReady(h, "sim-node-0", "False");
            assertThat(taints(h, "sim-node-0")).containsExactly("node.kubernetes.io/not-ready:NoSchedule",
                    "node.kubernetes.io/not-ready:NoExecute@");
            assertThat(condition(get(h, "stays"), "Ready")).as("only unreachable Nodes' Pods are marked")
                    .isEqualTo("True");
            h.advance(Duration.ofSeconds(10));
            assertThat(get(h, "short").isDeleting()).isTrue();
            h.advance(Duration.ofSeconds(600));
            assertThat(get(h, "stays").isDeleting()).isFalse();
        }
    }

    @Test
    void theSchedulerKeepsPodsOffTaintedNodesUnlessTheyTolerateTheTaint() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            for (int i = 0; i < 4; i++) {
                ObjectNode n = h.client().get(ResourceTypes.NODES, null, "sim-node-" + i).copy();
                ((ObjectNode) n.get("spec")).putArray("taints").addObject().put("key", "dedicated")
                        .put("value", "ray").put("effect", "NoSchedule");
                h.client().update(ResourceTypes.NODES, n);
            }
            h.settle();
            h.create(ResourceTypes.PODS, "default", pod("plain", "[]"));
            JsonNode scheduled = Scheduler.condition(get(h, "plain"), "PodScheduled");
            assertThat(Json.text(scheduled, "message"))
                    .isEqualTo("0/4 nodes are available: 4 node(s) had untolerated taint {dedicated: ray}. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.");
            h.create(ResourceTypes.PODS, "default", pod("tolerant",
                    "[{key: dedicated, operator: Equal, value: ray, effect: NoSchedule}]"));
            assertThat(Json.text(get(h, "tolerant").object(), "spec", "nodeName")).isNotNull();
        }
    }

    @Test
    void kubeRayRecreatesAHeadEvictedFromAnUnreachableNode() {
        try (SimulationHarness h = SimulationHarness.withOperator()) {
            h.create(ResourceTypes.RAYCLUSTERS, "default", SeedManifests.demoRayCluster());
            h.advance(Duration.ofSeconds(3));
            StoredObject head = get(h, "demo-raycluster-head");
            String node = Json.text(head.object(), "spec", "nodeName");

            setReady(h, node, "Unknown");
            h.advance(Duration.ofSeconds(299));
            assertThat(get(h, "demo-raycluster-head").uid()).isEqualTo(head.uid());
            for (int i = 0; i < 60; i++) {
                h.advance(Duration.ofSeconds(1));
            }
            StoredObject recreated = get(h, "demo-raycluster-head");
            assertThat(recreated).isNotNull();
            assertThat(recreated.uid()).isNotEqualTo(head.uid());
            assertThat(Json.text(recreated.object(), "spec", "nodeName")).isNotEqualTo(node);
            assertThat(condition(recreated, "Ready")).isEqualTo("True");
        }
    }
}
