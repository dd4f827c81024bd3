package io.kuberaysim.sim.invariants;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.PatchType;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.testing.SeedManifests;
import io.kuberaysim.testing.SimulationHarness;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The checker stays quiet on a healthy run and names the time, invariant and objects when one breaks. */
class InvariantCheckerTest {

    @Test
    void aHealthyClusterAndJobBreakNothing() {
        try (SimulationHarness h = SimulationHarness.withOperator();
             InvariantChecker checker = new InvariantChecker(h.registry().store(), h.clock())) {
            h.create(ResourceTypes.RAYCLUSTERS, "default", SeedManifests.demoRayCluster());
            h.advance(Duration.ofSeconds(30));
            h.client().patch(ResourceTypes.RAYCLUSTERS, "default", "demo-raycluster", PatchType.JSON,
                    Json.MAPPER.readTree("[{\"op\":\"replace\",\"path\":\"/spec/workerGroupSpecs/0/replicas\","
                            + "\"value\":3}]"));
            h.advance(Duration.ofSeconds(60));
            assertThat(checker.checkSettled(h.client())).isEmpty();
            assertThat(checker.violations()).isEmpty();
        }
    }

    @Test
    void aSecondLiveHeadPodIsReportedWithItsTimeAndPods() {
        try (SimulationHarness h = SimulationHarness.withOperator();
             InvariantChecker checker = new InvariantChecker(h.registry().store(), h.clock())) {
            h.create(ResourceTypes.RAYCLUSTERS, "default", SeedManifests.demoRayCluster());
            h.advance(Duration.ofSeconds(5));
            StoredObject head = h.client().list(ResourceTypes.PODS, "default", "ray.io/node-type=head").get(0);
            ObjectNode twin = head.copy();
            ObjectNode meta = (ObjectNode) twin.get("metadata");
            meta.put("name", "an-impostor-head");
            meta.remove("uid");
            meta.remove("resourceVersion");
            meta.remove("ownerReferences");
            twin.remove("status");
            ((ObjectNode) twin.get("spec")).remove("nodeName");
            h.client().create(ResourceTypes.PODS, "default", twin);
            h.settle();
            assertThat(checker.violations()).singleElement().satisfies(v -> {
                assertThat(v.invariant()).isEqualTo("one-head-pod");
                assertThat(v.at()).isEqualTo(Duration.ofSeconds(5));
                assertThat(v.objects()).contains("RayCluster default/demo-raycluster", "Pod default/an-impostor-head",
                        "Pod default/" + head.name());
                assertThat(v.line()).startsWith("[   5.0s] invariant one-head-pod broken: RayCluster "
                        + "default/demo-raycluster has 2 live head Pods");
            });
        }
    }

    @Test
    void aTerminalRayJobThatChangesAgainIsReported() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster();
             InvariantChecker checker = new InvariantChecker(h.registry().store(), h.clock())) {
            h.create(ResourceTypes.RAYJOBS, "default", """
                    apiVersion: ray.io/v1
                    kind: RayJob
                    metadata: {name: done}
                    spec: {entrypoint: python job.py}
                    """);
            h.client().patchStatus(ResourceTypes.RAYJOBS, "default", "done",
                    Json.MAPPER.readTree("{\"status\":{\"jobDeploymentStatus\":\"Complete\"}}"));
            h.client().patchStatus(ResourceTypes.RAYJOBS, "default", "done",
                    Json.MAPPER.readTree("{\"status\":{\"jobDeploymentStatus\":\"Running\"}}"));
            assertThat(checker.violations()).extracting(Violation::invariant).containsExactly("rayjob-terminal");
            assertThat(checker.violations().get(0).message()).isEqualTo(
                    "RayJob default/done went from Complete to Running");
        }
    }

    @Test
    void workersThatNeverCameAreReportedOnceSettled() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster(); // no operator: nothing creates Pods
             InvariantChecker checker = new InvariantChecker(h.registry().store(), h.clock())) {
            h.create(ResourceTypes.RAYCLUSTERS, "default", SeedManifests.demoRayCluster());
            h.advance(Duration.ofSeconds(30));
            assertThat(checker.checkSettled(h.client())).extracting(Violation::invariant)
                    .containsExactly("workers-converge");
        }
    }
}
