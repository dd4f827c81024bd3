package io.kuberaysim.sim.chaos;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.demo.Timeline;
import io.kuberaysim.testing.SimulationHarness;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.List;

import static io.kuberaysim.sim.chaos.PodLifecycleRuleTest.phase;
import static io.kuberaysim.sim.chaos.PodLifecycleRuleTest.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** FaultSchedules inject faults at their times into targets picked from the chaos stream, and say so. */
class FaultScheduleTest {

    static String schedule(String name, String spec) {
        return """
                apiVersion: sim.kuberay.io/v1alpha1
                kind: FaultSchedule
                metadata: {name: %s}
                spec:
                %s""".formatted(name, spec.indent(2));
    }

    private static List<StoredObject> chaosEvents(SimulationHarness h, String reason) {
        return h.client().list(ResourceTypes.EVENTS, "default", null).stream()
                .filter(e -> reason.equals(Json.text(e.object(), "reason"))
                        && ChaosSimulation.EVENT_SOURCE.equals(Json.text(e.object(), "source", "component")))
                .toList();
    }

    @Test
    void deletePodEveryIntervalRecordsAnEventATimelineLineAndTheCount() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster();
             Timeline timeline = new Timeline(h.registry().store(), h.clock())) {
            for (String p : List.of("w1", "w2", "w3")) {
                h.create(ResourceTypes.PODS, "default", pod(p, "role: worker", "", "Always"));
            }
            h.create(ResourceTypes.PODS, "default", pod("head", "role: head", "", "Always"));
            h.create(ResourceTypes.FAULTSCHEDULES, "default", schedule("kill-workers", """
                    interval: 10s
                    stopAfter: 25s
                    selector: role=worker
                    fault: {type: DeletePod}
                    """));
            h.advance(Duration.ofSeconds(9));
            assertThat(h.client().list(ResourceTypes.PODS, "default", null)).hasSize(4);
            h.advance(Duration.ofSeconds(2));
            assertThat(h.client().list(ResourceTypes.PODS, "default", "role=worker")).hasSize(2);
            h.advance(Duration.ofSeconds(30));
            assertThat(h.client().list(ResourceTypes.PODS, "default", "role=worker"))
                    .as("two firings before stopAfter").hasSize(1);
            assertThat(phase(h, "head")).isEqualTo("Running");

            List<String> faults = timeline.lines().stream().filter(l -> l.contains("fault:")).toList();
            assertThat(faults).hasSize(2);
            assertThat(faults.get(0)).matches("\\[ {2}10\\.0s] fault: deleted Pod w[123] \\(schedule kill-workers\\)");
            assertThat(chaosEvents(h, "FaultInjected")).hasSize(2)
                    .allSatisfy(e -> assertThat(Json.text(e.object(), "involvedObject", "kind")).isEqualTo("Pod"));
            JsonNode status = h.client().get(ResourceTypes.FAULTSCHEDULES, "default", "kill-workers").object()
                    .path("status");
            assertThat(status.path("injected").asInt()).isEqualTo(2);
            assertThat(status.path("lastFault").asString()).startsWith("deleted Pod w");
        }
    }

    @Test
    void theSameSeedPicksTheSameTargetsAtTheSameTimes() {
        assertThat(randomKills()).isEqualTo(randomKills());
    }

    private static List<String> randomKills() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster();
             Timeline timeline = new Timeline(h.registry().store(), h.clock())) {
            for (int i = 0; i < 8; i++) {
                h.create(ResourceTypes.PODS, "default", pod("w" + i, "role: worker", "", "Always"));
            }
            h.create(ResourceTypes.FAULTSCHEDULES, "default", schedule("random", """
                    ratePerMinute: 6
                    selector: role=worker
                    fault: {type: CrashContainer, exitCode: 137}
                    """));
            h.advance(Duration.ofMinutes(2));
            List<String> lines = timeline.lines().stream().filter(l -> l.contains("fault:")).toList();
            assertThat(lines).isNotEmpty();
            return lines;
        }
    }

    @Test
    void crashRestartsTheContainersAsTheRestartPolicySays() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            h.create(ResourceTypes.PODS, "default", pod("always", "crash: 'yes'", "", "Always"));
            h.create(ResourceTypes.PODS, "default", pod("never", "crash: 'yes'", "", "Never"));
            h.create(ResourceTypes.FAULTSCHEDULES, "default", schedule("crash", """
                    interval: 5s
                    stopAfter: 5s
                    targets: 2
                    selector: crash=yes
                    fault: {type: CrashContainer, exitCode: 137}
                    """));
            h.advance(Duration.ofSeconds(6));
            JsonNode always = h.client().get(ResourceTypes.PODS, "default", "always").object().path("status");
            assertThat(always.path("phase").asString()).isEqualTo("Running");
            assertThat(always.path("containerStatuses").path(0).path("restartCount").asInt()).isEqualTo(1);
            assertThat(always.path("containerStatuses").path(0).path("lastState").path("terminated")
                    .path("exitCode").asInt()).isEqualTo(137);
            assertThat(phase(h, "never")).isEqualTo("Failed");
        }
    }

    @Test
    void nodeNotReadyForADurationTaintsItAndItsPodsAreNotReadyUntilItIsReadyAgain() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            h.create(ResourceTypes.PODS, "default", pod("a", "", "", "Always"));
            h.advance(Duration.ofSeconds(3));
            String node = Json.text(h.client().get(ResourceTypes.PODS, "default", "a").object(), "spec", "nodeName");
            h.create(ResourceTypes.FAULTSCHEDULES, "default", schedule("node-flap", """
                    interval: 1s
                    stopAfter: 1s
                    selector: kubernetes.io/hostname=%s
                    fault: {type: NodeNotReady, duration: {fixed: 30s}}
                    """.formatted(node)));
            h.advance(Duration.ofSeconds(2));
            assertThat(ready(h, node)).isEqualTo("Unknown");
            assertThat(h.client().get(ResourceTypes.NODES, null, node).object().path("spec").path("taints").toString())
                    .contains("node.kubernetes.io/unreachable");
            JsonNode a = h.client().get(ResourceTypes.PODS, "default", "a").object();
            assertThat(Json.text(a, "status", "phase")).isEqualTo("Running");
            assertThat(a.path("status").path("conditions").toString()).contains("{\"type\":\"Ready\",\"status\":\"False\"");
            h.advance(Duration.ofSeconds(30));
            assertThat(ready(h, node)).isEqualTo("True");
            assertThat(h.client().get(ResourceTypes.NODES, null, node).object().path("spec").has("taints")).isFalse();
            a = h.client().get(ResourceTypes.PODS, "default", "a").object();
            assertThat(a.path("status").path("conditions").toString()).contains("{\"type\":\"Ready\",\"status\":\"True\"");
        }
    }

    static String ready(SimulationHarness h, String node) {
        for (JsonNode c : h.client().get(ResourceTypes.NODES, null, node).object().path("status").path("conditions")) {
            if ("Ready".equals(Json.text(c, "type"))) {
                return Json.text(c, "status");
            }
        }
        return null;
    }

    @Test
    void aScheduleThatMatchesNothingRecordsAWarning() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            h.create(ResourceTypes.FAULTSCHEDULES, "default", schedule("nothing", """
                    interval: 5s
                    selector: app=missing
                    fault: {type: DeletePod}
                    """));
            h.advance(Duration.ofSeconds(5));
            List<StoredObject> warnings = chaosEvents(h, "NoTargets");
            assertThat(warnings).singleElement().satisfies(e -> {
                assertThat(Json.text(e.object(), "type")).isEqualTo("Warning");
                assertThat(Json.text(e.object(), "message"))
                        .isEqualTo("schedule nothing matched no Pod for DeletePod (selector app=missing)");
                assertThat(Json.text(e.object(), "involvedObject", "kind")).isEqualTo("FaultSchedule");
            });
        }
    }

    @Test
    void badSchedulesAreRefusedNamingTheField() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            assertInvalid(h, "interval: 10s\nfault: {type: ApiErrors, probability: 1.5, duration: {fixed: 5s}}",
                    "spec.fault.probability");
            assertInvalid(h, "interval: 10s\nfault: {type: Meteor}", "spec.fault.type");
            assertInvalid(h, "interval: -5s\nfault: {type: DeletePod}", "spec.interval");
            assertInvalid(h, "interval: soon\nfault: {type: DeletePod}", "spec.interval");
            // faster than once a second would keep the virtual clock's loop busy for ever
            assertInvalid(h, "interval: 1ms\nfault: {type: DeletePod}", "spec.interval");
            assertInvalid(h, "ratePerMinute: 1000000000\nfault: {type: DeletePod}", "spec.ratePerMinute");
            assertInvalid(h, "interval: 10s\nselector: 'a in (b'\nfault: {type: DeletePod}", "spec.selector");
            assertInvalid(h, "fault: {type: DeletePod}", "spec.interval");
            assertInvalid(h, "interval: 5s\nfault: {type: NodeNotReady, duration: {min: 5s}}",
                    "spec.fault.duration.max");
            assertThat(h.client().list(ResourceTypes.FAULTSCHEDULES, "default", null)).isEmpty();
        }
    }

    private static void assertInvalid(SimulationHarness h, String spec, String field) {
        assertThatThrownBy(() -> h.create(ResourceTypes.FAULTSCHEDULES, "default", schedule("bad", spec)))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.code()).isEqualTo(422);
                    assertThat(e.getMessage()).contains(field);
                });
    }
}
