package io.kuberaysim.testkit;

import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.scenario.ScenarioResult;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The test kit as a user's test sees it: settings, injection, a fresh simulator per method, virtual-time waits. */
@KubeRaySimTest(nodes = 2, podStartupSeconds = 5)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubeRaySimTestKitTest {
    private static final String POD = """
            apiVersion: v1
            kind: Pod
            metadata: {name: web}
            spec:
              containers: [{name: c, image: busybox:1}]
            """;

    @Test
    @Order(1)
    void injectsASimulatorBuiltFromTheAnnotation(KubeRaySim sim) {
        assertThat(sim.client().list(ResourceTypes.NODES, null, null)).hasSize(2);
        assertThat(sim.elapsed()).isZero();
        sim.apply(POD);
        sim.advance(Duration.ofSeconds(4));
        assertThat(sim.get("pod", "web").orElseThrow().path("status").path("phase").asString()).isEqualTo("Pending");
        sim.advance(Duration.ofSeconds(1));
        assertThat(sim.get("pod", "web").orElseThrow().path("status").path("phase").asString()).isEqualTo("Running");
    }

    @Test
    @Order(2)
    void eachTestMethodGetsAFreshSimulator(KubeRaySim sim) {
        assertThat(sim.get("Pod", "web")).isEmpty();
        assertThat(sim.elapsed()).isZero();
    }

    @Test
    @Order(3)
    void awaitsInVirtualTimeAndRunsUntilIdle(KubeRaySim sim) throws IOException {
        sim.apply(Files.readString(Path.of("http-examples/example-cluster.yaml")));
        sim.awaitJsonPath("RayCluster", "example-cluster", ".status.state", "ready", Duration.ofMinutes(1));
        assertThat(sim.elapsed()).isEqualTo(Duration.ofSeconds(5));
        sim.awaitCondition(() -> sim.client().list(ResourceTypes.PODS, "default", "ray.io/cluster=example-cluster")
                .size() == 3, Duration.ofSeconds(1));
        sim.runUntilIdle();
        assertThat(sim.elapsed()).isGreaterThanOrEqualTo(Duration.ofSeconds(30));
    }

    @Test
    @Order(4)
    void aWaitThatTimesOutFailsTheTestWithWhatWasSeen(KubeRaySim sim) throws IOException {
        sim.apply(Files.readString(Path.of("http-examples/example-cluster.yaml")));
        assertThatThrownBy(() -> sim.awaitJsonPath("RayCluster", "example-cluster", ".status.state", "suspended",
                Duration.ofSeconds(20)))
                .isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("RayCluster example-cluster did not reach the expected state within 20.0 s "
                        + "of virtual time; last seen: {");
        assertThat(sim.elapsed()).isEqualTo(Duration.ofSeconds(20));
        assertThatThrownBy(() -> sim.awaitCondition(() -> false, Duration.ofSeconds(3)))
                .isInstanceOf(AssertionError.class)
                .hasMessage("condition not met within 3.0 s of virtual time");
    }

    @Test
    @Order(5)
    void withoutAServerThereIsNoUrlAndTheMessageSaysHowToGetOne(KubeRaySim sim) {
        assertThatThrownBy(sim::baseUrl).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("no server: use @KubeRaySimTest(server = true)");
        assertThatThrownBy(sim::kubeconfig).isInstanceOf(IllegalStateException.class);
    }

    @Test
    @Order(6)
    void runsAScenarioFile(KubeRaySim sim) {
        ScenarioResult r = sim.run(Path.of("scenarios/node-loss.yaml"));
        assertThat(r.failures()).as("the story assumes 4 nodes; this class has 2").isNotEmpty();
        assertThat(r.passed()).isFalse();
    }

    @Test
    @Order(7)
    void aScenarioFileCanDeclareInvariants(KubeRaySim sim, @TempDir Path dir) throws Exception {
        Path story = dir.resolve("invariant.yaml");
        Files.writeString(story, """
                name: config-stays
                steps:
                  - apply: {apiVersion: v1, kind: ConfigMap, metadata: {name: settings}, data: {mode: safe}}
                  - invariant: {kind: ConfigMap, name: settings, jsonPath: .data.mode, equals: safe}
                  - invariants: settled
                  - patch: {kind: ConfigMap, name: settings, patch: {data: {mode: fast}}}
                """);
        ScenarioResult r = sim.run(story);
        assertThat(r.passed()).isFalse();
        assertThat(r.timeline()).anySatisfy(e -> assertThat(e.text())
                .startsWith("invariant ConfigMap default/settings .data.mode == safe broken"));
    }
}
