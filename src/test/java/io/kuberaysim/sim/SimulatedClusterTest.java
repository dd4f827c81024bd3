package io.kuberaysim.sim;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
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
    void unschedulablePodWaitsUntilCapacityFrees() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            h.create(ResourceTypes.PODS, "default", pod("huge", "100", "", "Always"));
            StoredObject huge = get(h, "huge");
            assertThat(Json.text(huge.object(), "spec", "nodeName")).isNull();
            JsonNode cond = condition(huge, "PodScheduled");
            assertThat(Json.text(cond, "status")).isEqualTo("False");
            assertThat(Json.text(cond, "reason")).isEqualTo("Unschedulable");
            assertThat(Json.text(cond, "message")).isEqualTo("0/4 nodes are available: 4 Insufficient cpu.");
            List<StoredObject> events = h.client().list(ResourceTypes.EVENTS, "default", null);
            assertThat(events).anySatisfy(e -> {
                assertThat(Json.text(e.object(), "reason")).isEqualTo("FailedScheduling");
                assertThat(Json.text(e.object(), "type")).isEqualTo("Warning");
                assertThat(Json.text(e.object(), "message")).isEqualTo("0/4 nodes are available: 4 Insufficient cpu.");
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
            assertThat(get(h, "again").object().path("status").path("containerStatuses").path(0)
                    .path("restartCount").asInt()).isEqualTo(2);
            assertThat(phase(h, "unready")).isEqualTo("Running");
            assertThat(Json.text(condition(get(h, "unready"), "Ready"), "status")).isEqualTo("False");
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
