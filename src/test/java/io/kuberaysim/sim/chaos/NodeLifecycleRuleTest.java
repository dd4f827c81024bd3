package io.kuberaysim.sim.chaos;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.testing.SimulationHarness;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.kuberaysim.sim.chaos.FaultScheduleTest.ready;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** NodeLifecycleRules: time to Ready for new Nodes, recurring NotReady periods; Nodes no rule selects stay as they are. */
class NodeLifecycleRuleTest {

    @Test
    void aNodeCreatedWithKubectlBecomesReadyAfterTheRulesDelay() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            h.create(ResourceTypes.NODELIFECYCLERULES, null, """
                    apiVersion: sim.kuberay.io/v1alpha1
                    kind: NodeLifecycleRule
                    metadata: {name: slow-joins}
                    spec:
                      selector: pool=late
                      readyDelay: {fixed: 20s}
                    """);
            h.create(ResourceTypes.NODES, null, "metadata: {name: late-node, labels: {pool: late}}");
            h.create(ResourceTypes.NODES, null, "metadata: {name: other-node}");
            h.advance(Duration.ofSeconds(19));
            assertThat(ready(h, "late-node")).isNull();
            h.advance(Duration.ofSeconds(2));
            assertThat(ready(h, "late-node")).isEqualTo("True");
            StoredObject node = h.client().get(ResourceTypes.NODES, null, "late-node");
            assertThat(Json.text(node.object(), "status", "capacity", "cpu")).isEqualTo("16");
            assertThat(ready(h, "other-node")).as("no rule selects it").isNull();
        }
    }

    /** A Node flipping faster than once a second would keep the virtual clock's loop busy for ever. */
    @Test
    void notReadyPeriodsShorterThanASecondAreRefused() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            for (String every : List.of("{fixed: 1ns}", "{min: 10ms, max: 5s}", "{mean: 2s, jitter: 1500ms}")) {
                assertThatThrownBy(() -> h.create(ResourceTypes.NODELIFECYCLERULES, null, """
                        apiVersion: sim.kuberay.io/v1alpha1
                        kind: NodeLifecycleRule
                        metadata: {name: frantic}
                        spec:
                          notReadyEvery: %s
                          notReadyFor: {fixed: 1s}
                        """.formatted(every))).isInstanceOfSatisfying(ApiException.class, e -> {
                            assertThat(e.code()).isEqualTo(422);
                            assertThat(e.getMessage()).contains("spec.notReadyEvery.").contains("must be at least 1s");
                        });
            }
            assertThat(h.client().list(ResourceTypes.NODELIFECYCLERULES, null, null)).isEmpty();
        }
    }

    @Test
    void notReadyPeriodsComeAndGoAndTheSeedDecidesWhen() {
        List<String> first = transitions();
        assertThat(first).isEqualTo(transitions());
        assertThat(first).anyMatch(t -> t.startsWith("sim-node-1 Unknown at "))
                .anyMatch(t -> t.startsWith("sim-node-1 True at "))
                .noneMatch(t -> t.startsWith("sim-node-0"));
    }

    private static List<String> transitions() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            h.create(ResourceTypes.NODELIFECYCLERULES, null, """
                    apiVersion: sim.kuberay.io/v1alpha1
                    kind: NodeLifecycleRule
                    metadata: {name: flaky}
                    spec:
                      selector: kubernetes.io/hostname=sim-node-1
                      notReadyEvery: {mean: 60s, jitter: 30s}
                      notReadyFor: {min: 5s, max: 15s}
                    """);
            List<String> out = new java.util.ArrayList<>();
            String last = "True";
            for (int s = 0; s < 600; s++) {
                h.advance(Duration.ofSeconds(1));
                for (String n : List.of("sim-node-0", "sim-node-1")) {
                    String now = ready(h, n);
                    if (n.equals("sim-node-0") && !"True".equals(now)) {
                        out.add(n + " " + now);
                    }
                    if (n.equals("sim-node-1") && !now.equals(last)) {
                        out.add(n + " " + now + " at " + s);
                        last = now;
                    }
                }
            }
            return out;
        }
    }
}
