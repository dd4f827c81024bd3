package io.kuberaysim.sim;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.testing.SimulationHarness;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class InitContainersTest {
    static final String WORKER = """
            metadata:
              name: %s
              labels: {ray.io/cluster: %s, ray.io/node-type: worker}
            spec:
              initContainers: [{name: wait-gcs-ready, image: rayproject/ray:2.41.0}]
              containers: [{name: ray-worker, image: rayproject/ray:2.41.0}]
            """;

    private static StoredObject pod(SimulationHarness h, String name) {
        return h.client().get(ResourceTypes.PODS, "default", name);
    }

    private static JsonNode init(StoredObject pod) {
        return pod.object().at("/status/initContainerStatuses/0");
    }

    @Test
    void aWorkersWaitGcsReadyCompletesOnceItsHeadIsRunningAndReady() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            h.create(ResourceTypes.PODS, "default", """
                    metadata:
                      name: c-head
                      labels: {ray.io/cluster: c, ray.io/node-type: head}
                      annotations: {sim.kuberay.io/startup-seconds: "5"}
                    spec:
                      containers: [{name: ray-head, image: rayproject/ray:2.41.0}]
                    """);
            h.create(ResourceTypes.PODS, "default", WORKER.formatted("c-worker", "c"));
            h.create(ResourceTypes.PODS, "default", WORKER.formatted("orphan-worker", "no-such-cluster"));

            StoredObject created = pod(h, "c-worker");
            assertThat(init(created).at("/state/waiting/reason").asString()).isEqualTo("PodInitializing");
            assertThat(created.object().at("/status/containerStatuses/0/state/waiting/reason").asString())
                    .isEqualTo("PodInitializing");

            h.advance(Duration.ofSeconds(3)); // sandbox up, wait-gcs-ready polls the GCS of a head not yet ready
            StoredObject waiting = pod(h, "c-worker");
            assertThat(Json.text(waiting.object(), "status", "phase")).isEqualTo("Pending");
            assertThat(init(waiting).at("/state/running/startedAt").asString()).isEqualTo("2025-01-01T00:00:02Z");
            assertThat(waiting.object().at("/status/conditions/1/message").asString())
                    .isEqualTo("containers with incomplete status: [wait-gcs-ready]");

            h.advance(Duration.ofSeconds(2)); // the head runs at 5 s
            StoredObject running = pod(h, "c-worker");
            assertThat(Json.text(running.object(), "status", "phase")).isEqualTo("Running");
            assertThat(init(running).at("/state/terminated/reason").asString()).isEqualTo("Completed");
            assertThat(init(running).at("/state/terminated/finishedAt").asString()).isEqualTo("2025-01-01T00:00:05Z");
            assertThat(running.object().at("/status/containerStatuses/0/state/running/startedAt").asString())
                    .isEqualTo("2025-01-01T00:00:05Z");

            h.advance(Duration.ofMinutes(5)); // no head: it stays initializing
            StoredObject orphan = pod(h, "orphan-worker");
            assertThat(Json.text(orphan.object(), "status", "phase")).isEqualTo("Pending");
            assertThat(init(orphan).at("/state/running").isObject()).isTrue();
        }
    }

    @Test
    void otherInitContainersCompleteAtOnceBeforeTheContainersStart() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            h.create(ResourceTypes.PODS, "default", """
                    metadata: {name: plain}
                    spec:
                      initContainers: [{name: setup, image: busybox}]
                      containers: [{name: main, image: busybox}]
                    """);
            h.advance(Duration.ofSeconds(2));
            StoredObject pod = pod(h, "plain");
            assertThat(Json.text(pod.object(), "status", "phase")).isEqualTo("Running");
            assertThat(init(pod).at("/state/terminated/exitCode").asInt()).isZero();
            assertThat(pod.object().at("/status/containerStatuses/0/state/running/startedAt").asString())
                    .isEqualTo("2025-01-01T00:00:02Z");
        }
    }
}
