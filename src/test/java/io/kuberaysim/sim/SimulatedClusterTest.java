package io.kuberaysim.sim;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.PatchType;
import io.kuberaysim.apiserver.registry.ListOptions;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.testing.SimulationHarness;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SimulatedClusterTest {

    private static String pod(String name, String cpu, String annotations, String restartPolicy) {
        return """
                metadata: {name: %s, annotations: {%s}}
                spec:
                  restartPolicy: %s
                  containers:
                  - name: main
                    image: rayproject/ray:2.41.0
                    resources: {requests: {cpu: "%s", memory: 1Gi}}
                """.formatted(name, annotations, restartPolicy, cpu);
    }

    private static StoredObject get(SimulationHarness h, String name) {
        return h.client().get(ResourceTypes.PODS, "default", name);
    }

    private static String phase(SimulationHarness h, String name) {
        return Json.text(get(h, name).object(), "status", "phase");
    }

    private static JsonNode condition(StoredObject o, String type) {
        for (JsonNode c : o.object().path("status").path("conditions")) {
            if (type.equals(Json.text(c, "type"))) {
                return c;
            }
        }
        return null;
    }

    @Test
    void nodesAreRegistered() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            List<StoredObject> nodes = h.client().list(ResourceTypes.NODES, null, null);
            assertThat(nodes).extracting(StoredObject::name)
                    .containsExactly("sim-node-0", "sim-node-1", "sim-node-2", "sim-node-3");
            JsonNode n = nodes.get(0).object();
            assertThat(Json.text(n, "status", "capacity", "cpu")).isEqualTo("16");
            assertThat(Json.text(n, "status", "allocatable", "memory")).isEqualTo("64Gi");
            assertThat(Json.text(n, "status", "nodeInfo", "kubeletVersion")).isEqualTo("v1.32.0");
            assertThat(Json.text(condition(nodes.get(0), "Ready"), "status")).isEqualTo("True");
            assertThat(nodes.get(0).labels()).containsEntry("kubernetes.io/hostname", "sim-node-0");
        }
    }

    @Test
    void podIsScheduledAndStartsAfterTheStartupDelay() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            h.create(ResourceTypes.PODS, "default", pod("a", "1", "", "Always"));
            StoredObject a = get(h, "a");
            assertThat(Json.text(a.object(), "spec", "nodeName")).isEqualTo("sim-node-0");
            assertThat(phase(h, "a")).isEqualTo("Pending");
            assertThat(a.object().path("status").path("containerStatuses").path(0).path("state").path("waiting")
                    .path("reason").asString()).isEqualTo("ContainerCreating");
            assertThat(Json.text(condition(a, "PodScheduled"), "status")).isEqualTo("True");

            h.advance(Duration.ofMillis(1900));
            assertThat(phase(h, "a")).isEqualTo("Pending");
            h.advance(Duration.ofMillis(100));
            a = get(h, "a");
            assertThat(phase(h, "a")).isEqualTo("Running");
            assertThat(Json.text(a.object(), "status", "podIP")).isEqualTo("10.244.0.1");
            assertThat(Json.text(a.object(), "status", "hostIP")).isEqualTo("172.18.0.2");
            assertThat(Json.text(condition(a, "Ready"), "status")).isEqualTo("True");
            JsonNode cs = a.object().path("status").path("containerStatuses").path(0);
            assertThat(cs.path("ready").asBoolean()).isTrue();
            assertThat(cs.path("state").path("running").path("startedAt").asString()).isEqualTo("2025-01-01T00:00:02Z");

            // the second pod goes to the least allocated node
            h.create(ResourceTypes.PODS, "default", pod("b", "1", "", "Always"));
            assertThat(Json.text(get(h, "b").object(), "spec", "nodeName")).isEqualTo("sim-node-1");
        }
    }

    @Test
    void aPodNamingAnotherSchedulerIsLeftForItsBinding() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            h.create(ResourceTypes.PODS, "default", pod("custom", "1", "", "Always")
                    .replace("spec:\n", "spec:\n  schedulerName: my-scheduler\n"));
            h.advance(Duration.ofSeconds(30));
            assertThat(Json.text(get(h, "custom").object(), "spec", "nodeName")).isNull();
            assertThat(condition(get(h, "custom"), "PodScheduled")).isNull();

            h.client().bind("default", "custom", "sim-node-2");
            h.advance(Duration.ofSeconds(3));
            assertThat(Json.text(get(h, "custom").object(), "spec", "nodeName")).isEqualTo("sim-node-2");
            assertThat(phase(h, "custom")).isEqualTo("Running");
        }
    }

    @Test
    void aPodBoundByOthersCountsOnItsNodeForTheNextPodAskingTheSame() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            h.create(ResourceTypes.PODS, "default", pod("x", "10", "", "Always"));
            assertThat(Json.text(get(h, "x").object(), "spec", "nodeName")).isEqualTo("sim-node-0");
            // bound by its author, not by the scheduler: it counts once the informer shows it
            h.create(ResourceTypes.PODS, "default", pod("preset", "12", "", "Always")
                    .replace("spec:\n", "spec:\n  nodeName: sim-node-1\n"));
            h.create(ResourceTypes.PODS, "default", pod("y", "10", "", "Always"));
            assertThat(Json.text(get(h, "y").object(), "spec", "nodeName")).isEqualTo("sim-node-2");
            h.create(ResourceTypes.PODS, "default", pod("z", "10", "", "Always"));
            assertThat(Json.text(get(h, "z").object(), "spec", "nodeName")).isEqualTo("sim-node-3");
            h.create(ResourceTypes.PODS, "default", pod("w", "10", "", "Always"));
            assertThat(Json.text(get(h, "w").object(), "spec", "nodeName")).isNull();
            assertThat(Json.text(condition(get(h, "w"), "PodScheduled"), "message"))
                    .isEqualTo("0/4 nodes are available: 4 Insufficient cpu. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod.");
        }
    }

    private static List<StoredObject> failedScheduling(SimulationHarness h, String pod) {
        return h.client().list(ResourceTypes.EVENTS, "default", null).stream()
                .filter(e -> "FailedScheduling".equals(Json.text(e.object(), "reason"))
                        && pod.equals(Json.text(e.object(), "involvedObject", "name")))
                .toList();
    }

    private static int occurrences(List<StoredObject> events) {
        return events.stream().mapToInt(e -> Math.max(e.object().path("count").asInt(1),
                e.object().path("series").path("count").asInt(1))).sum();
    }

    @Test
    void anUnschedulablePodIsTriedAgainWhenSomethingCanHelpOrAfterFiveMinutesNotOnItsOwnStatusOrHeartbeats() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            h.create(ResourceTypes.PODS, "default", pod("huge", "100", "", "Always"));
            h.advance(Duration.ofMinutes(4)); // its own PodScheduled write, Node leases and status heartbeats
            assertThat(failedScheduling(h, "huge")).hasSize(1);
            assertThat(occurrences(failedScheduling(h, "huge"))).isEqualTo(1);

            h.advance(Duration.ofMinutes(2)); // the unschedulable queue's 5-minute flush
            assertThat(occurrences(failedScheduling(h, "huge"))).isEqualTo(2);

            // a label on a Node may help (node affinity): tried again at once, still no room
            h.client().patch(ResourceTypes.NODES, null, "sim-node-1", PatchType.MERGE,
                    Json.MAPPER.readTree("{\"metadata\":{\"labels\":{\"pool\":\"big\"}}}"));
            h.advance(Duration.ofSeconds(1));
            assertThat(occurrences(failedScheduling(h, "huge"))).isEqualTo(3);
            assertThat(Json.text(get(h, "huge").object(), "spec", "nodeName")).isNull();
        }
    }

    @Test
    void theFailedSchedulingMessageCountsReasonsAndPreemptionAsKubeSchedulerDoes() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            h.client().patch(ResourceTypes.NODES, null, "sim-node-3", PatchType.MERGE,
                    Json.MAPPER.readTree("{\"spec\":{\"taints\":[{\"key\":\"dedicated\",\"value\":\"gpu\","
                            + "\"effect\":\"NoSchedule\"}]}}"));
            h.create(ResourceTypes.PODS, "default", pod("huge", "100", "", "Always"));
            assertThat(Json.text(condition(get(h, "huge"), "PodScheduled"), "message")).isEqualTo(
                    "0/4 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 3 Insufficient cpu. "
                            + "preemption: 0/4 nodes are available: 1 Preemption is not helpful for scheduling, "
                            + "3 No preemption victims found for incoming pod.");
            h.create(ResourceTypes.PODS, "default", pod("polite", "100", "", "Always")
                    .replace("spec:\n", "spec:\n  preemptionPolicy: Never\n"));
            assertThat(Json.text(condition(get(h, "polite"), "PodScheduled"), "message")).endsWith(
                    "3 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.");
            for (int i = 0; i < 4; i++) {
                h.client().delete(ResourceTypes.NODES, null, "sim-node-" + i);
            }
            h.create(ResourceTypes.PODS, "default", pod("alone", "1", "", "Always"));
            h.advance(Duration.ofSeconds(1));
            assertThat(Json.text(condition(get(h, "alone"), "PodScheduled"), "message"))
                    .isEqualTo("no nodes available to schedule pods");
        }
    }

    @Test
    void unschedulablePodWaitsUntilCapacityFrees() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            h.create(ResourceTypes.PODS, "default", pod("huge", "100", "", "Always"));
            StoredObject huge = get(h, "huge");
            assertThat(Json.text(huge.object(), "spec", "nodeName")).isNull();
            JsonNode cond = condition(huge, "PodScheduled");
            assertThat(Json.text(cond, "status")).isEqualTo("False");
            assertThat(Json.text(cond, "reason")).isEqualTo("Unschedulable");
            assertThat(Json.text(cond, "message")).isEqualTo("0/4 nodes are available: 4 Insufficient cpu. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod.");
            List<StoredObject> events = h.client().list(ResourceTypes.EVENTS, "default", null);
            assertThat(events).anySatisfy(e -> {
                assertThat(Json.text(e.object(), "reason")).isEqualTo("FailedScheduling");
                assertThat(Json.text(e.object(), "type")).isEqualTo("Warning");
                assertThat(Json.text(e.object(), "message")).isEqualTo("0/4 nodes are available: 4 Insufficient cpu. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod.");
            });

            // fill every node, then a 10-CPU pod has to wait for one of them to go
            for (int i = 0; i < 4; i++) {
                h.create(ResourceTypes.PODS, "default", pod("filler-" + i, "12", "", "Always"));
            }
            h.create(ResourceTypes.PODS, "default", pod("waiting", "10", "", "Always"));
            assertThat(Json.text(get(h, "waiting").object(), "spec", "nodeName")).isNull();
            h.advance(Duration.ofSeconds(5));
            assertThat(phase(h, "waiting")).isEqualTo("Pending");

            h.client().delete(ResourceTypes.PODS, "default", "filler-2");
            h.settle();
            assertThat(get(h, "filler-2")).isNotNull(); // graceful: still terminating
            h.advance(Duration.ofSeconds(1));
            assertThat(get(h, "filler-2")).isNull();
            assertThat(Json.text(get(h, "waiting").object(), "spec", "nodeName")).isEqualTo("sim-node-2");
            h.advance(Duration.ofSeconds(2));
            assertThat(phase(h, "waiting")).isEqualTo("Running");
        }
    }

    @Test
    void runSecondsAndExitCodeEndContainersPerRestartPolicy() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            h.create(ResourceTypes.PODS, "default",
                    pod("ok", "1", "sim.kuberay.io/run-seconds: '10'", "Never"));
            h.create(ResourceTypes.PODS, "default",
                    pod("bad", "1", "sim.kuberay.io/run-seconds: '10', sim.kuberay.io/exit-code: '3'", "Never"));
            h.create(ResourceTypes.PODS, "default",
                    pod("again", "1", "sim.kuberay.io/run-seconds: '10'", "Always"));
            h.create(ResourceTypes.PODS, "default",
                    pod("unready", "1", "sim.kuberay.io/ready: 'false'", "Always"));
            h.advance(Duration.ofSeconds(11));
            assertThat(phase(h, "ok")).isEqualTo("Running");
            h.advance(Duration.ofSeconds(1));
            assertThat(phase(h, "ok")).isEqualTo("Succeeded");
            assertThat(phase(h, "bad")).isEqualTo("Failed");
            JsonNode term = get(h, "bad").object().path("status").path("containerStatuses").path(0).path("state")
                    .path("terminated");
            assertThat(term.path("exitCode").asInt()).isEqualTo(3);
            assertThat(term.path("reason").asString()).isEqualTo("Error");
            assertThat(phase(h, "again")).isEqualTo("Running");
            assertThat(get(h, "again").object().path("status").path("containerStatuses").path(0)
                    .path("restartCount").asInt()).isEqualTo(1);
            h.advance(Duration.ofSeconds(10));
            JsonNode again = get(h, "again").object().path("status").path("containerStatuses").path(0);
            assertThat(again.path("restartCount").asInt()).isEqualTo(1);
            assertThat(Json.text(again, "state", "waiting", "reason")).isEqualTo("CrashLoopBackOff");
            assertThat(phase(h, "unready")).isEqualTo("Running");
            assertThat(Json.text(condition(get(h, "unready"), "Ready"), "status")).isEqualTo("False");
        }
    }

    /** Each sampled second where the container's state changed: "t=<s> <state> restarts=<n> [message]". */
    private static List<String> crashLoop(SimulationHarness h, String name, int seconds) {
        List<String> seen = new ArrayList<>();
        String last = null;
        for (int t = 0; t <= seconds; t++) {
            JsonNode cs = get(h, name).object().path("status").path("containerStatuses").path(0);
            String state = cs.path("state").propertyNames().stream().findFirst().orElse("none");
            String now = state + " restarts=" + cs.path("restartCount").asInt()
                    + (state.equals("waiting") ? " " + Json.text(cs, "state", "waiting", "reason") + " "
                    + Json.text(cs, "state", "waiting", "message").replaceAll("\\(.*\\)", "(uid)") : "");
            if (!now.equals(last)) {
                seen.add("t=" + t + " " + now);
                last = now;
            }
            h.advance(Duration.ofSeconds(1));
        }
        return seen;
    }

    @Test
    void aContainerThatKeepsExitingBacksOffTenSecondsDoublingUpToFiveMinutes() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            h.create(ResourceTypes.PODS, "default",
                    pod("crasher", "1", "sim.kuberay.io/run-seconds: '10', sim.kuberay.io/exit-code: '1'", "Always"));
            h.advance(Duration.ofSeconds(2)); // started (the kubelet's 2 s)
            List<String> seen = crashLoop(h, "crasher", 1250); // ends waiting (t=1000 to 1300)
            String wait = "waiting restarts=%d CrashLoopBackOff back-off %s restarting failed container=main "
                    + "pod=crasher_default(uid)";
            assertThat(seen).startsWith(
                    "t=0 running restarts=0",
                    "t=10 running restarts=1",                   // the first restart is immediate
                    "t=20 " + wait.formatted(1, "10s"),
                    "t=30 running restarts=2",
                    "t=40 " + wait.formatted(2, "20s"),
                    "t=60 running restarts=3",
                    "t=70 " + wait.formatted(3, "40s"),
                    "t=110 running restarts=4",
                    "t=120 " + wait.formatted(4, "1m20s"),
                    "t=200 running restarts=5",
                    "t=210 " + wait.formatted(5, "2m40s"),
                    "t=370 running restarts=6",
                    "t=380 " + wait.formatted(6, "5m0s"),
                    "t=680 running restarts=7",
                    "t=690 " + wait.formatted(7, "5m0s"));
            StoredObject pod = get(h, "crasher");
            assertThat(Json.text(pod.object(), "status", "phase")).isEqualTo("Running");
            assertThat(Json.text(condition(pod, "Ready"), "status")).isEqualTo("False");
            JsonNode last = pod.object().path("status").path("containerStatuses").path(0).path("lastState")
                    .path("terminated");
            assertThat(last.path("exitCode").asInt()).isEqualTo(1);
            assertThat(Json.text(last, "reason")).isEqualTo("Error");
            List<StoredObject> events = h.client().list(ResourceTypes.EVENTS, "default", null);
            assertThat(events).anySatisfy(e -> {
                assertThat(Json.text(e.object(), "reason")).isEqualTo("BackOff");
                assertThat(Json.text(e.object(), "type")).isEqualTo("Warning");
                assertThat(Json.text(e.object(), "message"))
                        .isEqualTo("Back-off restarting failed container main in pod crasher_default("
                                + pod.uid() + ")");
            });
        }
    }

    @Test
    void aContainerThatRanLongerThanTenMinutesRestartsAtOnce() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            h.create(ResourceTypes.PODS, "default",
                    pod("steady", "1", "sim.kuberay.io/run-seconds: '700'", "Always"));
            h.advance(Duration.ofSeconds(2));
            List<String> seen = crashLoop(h, "steady", 2200);
            assertThat(seen).containsExactly("t=0 running restarts=0", "t=700 running restarts=1",
                    "t=1400 running restarts=2", "t=2100 running restarts=3");
        }
    }

    @Test
    void deletingANodeFailsItsPods() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            h.create(ResourceTypes.PODS, "default", pod("a", "1", "", "Always"));
            h.advance(Duration.ofSeconds(2));
            assertThat(phase(h, "a")).isEqualTo("Running");
            h.client().delete(ResourceTypes.NODES, null, "sim-node-0");
            h.settle();
            StoredObject a = get(h, "a");
            assertThat(phase(h, "a")).isEqualTo("Failed");
            assertThat(Json.text(a.object(), "status", "reason")).isEqualTo("NodeLost");
            // a new pod avoids the lost node
            h.create(ResourceTypes.PODS, "default", pod("b", "1", "", "Always"));
            assertThat(Json.text(get(h, "b").object(), "spec", "nodeName")).isEqualTo("sim-node-1");
        }
    }

    private static String job(String name, int backoffLimit, String exitCode) {
        return """
                apiVersion: batch/v1
                kind: Job
                metadata: {name: %s}
                spec:
                  backoffLimit: %d
                  template:
                    metadata:
                      annotations: {sim.kuberay.io/run-seconds: "5", sim.kuberay.io/exit-code: "%s"}
                    spec:
                      restartPolicy: Never
                      containers:
                      - name: submitter
                        image: rayproject/ray:2.41.0
                """.formatted(name, backoffLimit, exitCode);
    }

    private static boolean jobCondition(StoredObject job, String type) {
        for (JsonNode c : job.object().path("status").path("conditions")) {
            if (type.equals(Json.text(c, "type")) && "True".equals(Json.text(c, "status"))) {
                return true;
            }
        }
        return false;
    }

    @Test
    void jobRunsToComplete() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            h.create(ResourceTypes.JOBS, "default", job("ok", 2, "0"));
            List<StoredObject> pods = h.client().list(ResourceTypes.PODS, "default", "job-name=ok");
            assertThat(pods).hasSize(1);
            assertThat(pods.get(0).name()).matches("ok-[a-z0-9]{5}");
            StoredObject j = h.client().get(ResourceTypes.JOBS, "default", "ok");
            assertThat(j.object().path("status").path("active").asInt()).isEqualTo(1);
            assertThat(Json.text(j.object(), "status", "startTime")).isEqualTo("2025-01-01T00:00:00Z");
            h.advance(Duration.ofSeconds(7));
            j = h.client().get(ResourceTypes.JOBS, "default", "ok");
            assertThat(jobCondition(j, "Complete")).isTrue();
            assertThat(jobCondition(j, "SuccessCriteriaMet")).isTrue();
            assertThat(j.object().path("status").path("succeeded").asInt()).isEqualTo(1);
            assertThat(Json.text(j.object(), "status", "completionTime")).isEqualTo("2025-01-01T00:00:07Z");
        }
    }

    @Test
    void aJobWhosePodsAreRefusedReportsFailedCreateAndStartsThemOnceTheyMayBeCreated() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            h.create(ResourceTypes.JOBS, "default", job("needs-sa", 2, "0")
                    .replace("  restartPolicy: Never", "  restartPolicy: Never\n      serviceAccountName: submitter"));
            h.advance(Duration.ofSeconds(2));
            assertThat(h.client().list(ResourceTypes.PODS, "default", "job-name=needs-sa")).isEmpty();
            assertThat(h.client().list(ResourceTypes.EVENTS, "default", null)).anySatisfy(e -> {
                assertThat(Json.text(e.object(), "reason")).isEqualTo("FailedCreate");
                assertThat(Json.text(e.object(), "message")).matches("Error creating: pods \"needs-sa-[a-z0-9]{5}\" "
                        + "is forbidden: error looking up service account default/submitter: serviceaccount "
                        + "\"submitter\" not found");
            });

            h.create(ResourceTypes.SERVICEACCOUNTS, "default", "metadata: {name: submitter}\n");
            h.advance(Duration.ofSeconds(30));
            assertThat(h.client().list(ResourceTypes.PODS, "default", "job-name=needs-sa")).hasSize(1);
            assertThat(jobCondition(h.client().get(ResourceTypes.JOBS, "default", "needs-sa"), "Complete")).isTrue();
        }
    }

    @Test
    void jobFailsAfterBackoffLimitRetries() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            h.create(ResourceTypes.JOBS, "default", job("bad", 2, "1"));
            h.advance(Duration.ofSeconds(60));
            StoredObject j = h.client().get(ResourceTypes.JOBS, "default", "bad");
            assertThat(jobCondition(j, "Failed")).isTrue();
            assertThat(jobCondition(j, "FailureTarget")).isTrue();
            assertThat(jobCondition(j, "Complete")).isFalse();
            assertThat(j.object().path("status").path("failed").asInt()).isEqualTo(3);
            assertThat(h.client().list(ResourceTypes.PODS, "default", "job-name=bad")).hasSize(3);
            JsonNode failed = null;
            for (JsonNode c : j.object().path("status").path("conditions")) {
                if ("Failed".equals(Json.text(c, "type"))) {
                    failed = c;
                }
            }
            assertThat(Json.text(failed, "reason")).isEqualTo("BackoffLimitExceeded");
        }
    }

    /** Runs a scenario and returns every store change as "TYPE Kind ns/name rv". */
    private static List<String> scenario() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            List<String> stream = Collections.synchronizedList(new ArrayList<>());
            ObjectStore.Subscription sub = h.registry().store().watch(null, 0, e -> stream.add(e.type() + " "
                    + e.object().type().kind() + " " + e.object().namespace() + "/" + e.object().name() + " "
                    + e.resourceVersion()));
            h.create(ResourceTypes.JOBS, "default", job("j", 1, "1"));
            h.create(ResourceTypes.PODS, "default", pod("big", "100", "", "Always"));
            for (int i = 0; i < 6; i++) {
                h.create(ResourceTypes.PODS, "default", pod("p" + i, "5", "sim.kuberay.io/run-seconds: '" + (i + 3)
                        + "'", i % 2 == 0 ? "Never" : "Always"));
            }
            h.advance(Duration.ofSeconds(20));
            h.client().delete(ResourceTypes.PODS, "default", "p1");
            // inputs from the test thread are ordered against the loop only when it is idle between them
            h.settle();
            h.client().delete(ResourceTypes.NODES, null, "sim-node-3");
            h.advance(Duration.ofSeconds(20));
            sub.close();
            return new ArrayList<>(stream);
        }
    }

    @Test
    void twoRunsOfTheSameScenarioProduceIdenticalEventStreams() {
        List<String> first = scenario();
        List<String> second = scenario();
        assertThat(first).hasSizeGreaterThan(50);
        assertThat(second).containsExactlyElementsOf(first);
    }
}
