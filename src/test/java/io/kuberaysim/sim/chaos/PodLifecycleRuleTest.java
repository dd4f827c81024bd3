package io.kuberaysim.sim.chaos;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.testing.SimulationHarness;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** PodLifecycleRules steer the simulated kubelet; a Pod's own annotations still win; no rule changes nothing. */
class PodLifecycleRuleTest {

    static String pod(String name, String labels, String annotations, String restartPolicy) {
        return """
                metadata: {name: %s, labels: {%s}, annotations: {%s}}
                spec:
                  restartPolicy: %s
                  containers:
                  - name: main
                    image: rayproject/ray:2.41.0
                    resources: {requests: {cpu: "1", memory: 1Gi}}
                """.formatted(name, labels, annotations, restartPolicy);
    }

    static String phase(SimulationHarness h, String name) {
        return Json.text(h.client().get(ResourceTypes.PODS, "default", name).object(), "status", "phase");
    }

    static boolean ready(SimulationHarness h, String name) {
        for (JsonNode c : h.client().get(ResourceTypes.PODS, "default", name).object().path("status")
                .path("conditions")) {
            if ("Ready".equals(Json.text(c, "type"))) {
                return "True".equals(Json.text(c, "status"));
            }
        }
        return false;
    }

    @Test
    void ruleSetsStartupReadinessRunTimeAndExitCodeOfThePodsItSelects() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            h.create(ResourceTypes.PODLIFECYCLERULES, "default", """
                    apiVersion: sim.kuberay.io/v1alpha1
                    kind: PodLifecycleRule
                    metadata: {name: slow-workers}
                    spec:
                      selector: role=worker
                      startupDelay: {fixed: 10s}
                      readinessDelay: {fixed: 5s}
                      runTime: {fixed: 30s}
                      exitCode: 3
                    """);
            h.create(ResourceTypes.PODS, "default", pod("w", "role: worker", "", "Never"));
            h.create(ResourceTypes.PODS, "default", pod("other", "role: head", "", "Never"));
            h.create(ResourceTypes.PODS, "default", pod("annotated", "role: worker",
                    "sim.kuberay.io/startup-seconds: '1'", "Never"));

            h.advance(Duration.ofSeconds(2));
            assertThat(phase(h, "other")).as("no rule: the 2 s default").isEqualTo("Running");
            assertThat(ready(h, "other")).isTrue();
            assertThat(phase(h, "annotated")).as("the annotation wins over the rule").isEqualTo("Running");
            assertThat(phase(h, "w")).isEqualTo("Pending");

            h.advance(Duration.ofSeconds(8));
            assertThat(phase(h, "w")).isEqualTo("Running");
            assertThat(ready(h, "w")).as("Ready only after the readiness delay").isFalse();
            h.advance(Duration.ofSeconds(5));
            assertThat(ready(h, "w")).isTrue();

            h.advance(Duration.ofSeconds(25));
            StoredObject w = h.client().get(ResourceTypes.PODS, "default", "w");
            assertThat(Json.text(w.object(), "status", "phase")).isEqualTo("Failed");
            assertThat(w.object().path("status").path("containerStatuses").path(0).path("state").path("terminated")
                    .path("exitCode").asInt()).isEqualTo(3);
            assertThat(phase(h, "other")).as("the rule's run time is not the head's").isEqualTo("Running");
        }
    }

    @Test
    void distributionsDrawTheSameTimesForTheSameSeedAndDifferentTimesPerPod() {
        List<String> first = startTimes();
        assertThat(startTimes()).isEqualTo(first);
        assertThat(first.stream().distinct().count()).as("uniform draws differ between Pods: " + first)
                .isGreaterThan(1);
    }

    private static List<String> startTimes() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            h.create(ResourceTypes.PODLIFECYCLERULES, "default", """
                    apiVersion: sim.kuberay.io/v1alpha1
                    kind: PodLifecycleRule
                    metadata: {name: uneven}
                    spec:
                      startupDelay: {min: 1s, max: 60s}
                    """);
            for (int i = 0; i < 5; i++) {
                h.create(ResourceTypes.PODS, "default", pod("p" + i, "", "", "Always"));
            }
            h.advance(Duration.ofSeconds(61));
            List<String> out = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                out.add(h.client().get(ResourceTypes.PODS, "default", "p" + i).object().path("status")
                        .path("containerStatuses").path(0).path("state").path("running").path("startedAt").asString());
            }
            return out;
        }
    }
}
