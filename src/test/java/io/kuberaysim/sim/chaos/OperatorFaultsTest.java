package io.kuberaysim.sim.chaos;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.controller.ray.dashboard.ClusterKey;
import io.kuberaysim.testing.SeedManifests;
import io.kuberaysim.testing.SimulationHarness;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;

import static io.kuberaysim.sim.chaos.FaultScheduleTest.schedule;
import static org.assertj.core.api.Assertions.assertThat;

/** The faults that reach into the Ray side (jobs, Serve, dashboards) and the Nodes, with the operator running. */
class OperatorFaultsTest {

    private static String job(String name, int seconds) {
        return SeedManifests.exampleJob().replace("name: example-job", "name: " + name + "\n  annotations: "
                + "{sim.kuberay.io/job-duration-seconds: \"" + seconds + "\"}");
    }

    private static JsonNode status(SimulationHarness h, String job) {
        return h.client().get(ResourceTypes.RAYJOBS, "default", job).object().path("status");
    }

    private static void runUntilRunning(SimulationHarness h, String job) {
        for (int i = 0; i < 60 && !"RUNNING".equals(status(h, job).path("jobStatus").asString()); i++) {
            h.advance(Duration.ofSeconds(1));
        }
        assertThat(status(h, job).path("jobStatus").asString()).isEqualTo("RUNNING");
    }

    @Test
    void failRayJobFailsTheRunningJob() {
        try (SimulationHarness h = SimulationHarness.withOperator()) {
            h.create(ResourceTypes.RAYJOBS, "default", job("doomed", 600));
            runUntilRunning(h, "doomed");
            h.create(ResourceTypes.FAULTSCHEDULES, "default", schedule("fail-jobs", """
                    interval: 1s
                    stopAfter: 1s
                    fault: {type: FailRayJob}
                    """));
            h.advance(Duration.ofSeconds(30));
            assertThat(status(h, "doomed").path("jobStatus").asString()).isEqualTo("FAILED");
            assertThat(status(h, "doomed").path("jobDeploymentStatus").asString()).isEqualTo("Failed");
        }
    }

    @Test
    void slowRayJobMakesTheJobRunLonger() {
        try (SimulationHarness h = SimulationHarness.withOperator()) {
            h.create(ResourceTypes.RAYJOBS, "default", job("slow", 10));
            runUntilRunning(h, "slow");
            h.create(ResourceTypes.FAULTSCHEDULES, "default", schedule("slow-jobs", """
                    interval: 1s
                    stopAfter: 1s
                    fault: {type: SlowRayJob, duration: {fixed: 60s}}
                    """));
            h.advance(Duration.ofSeconds(30));
            assertThat(status(h, "slow").path("jobDeploymentStatus").asString()).isEqualTo("Running");
            h.advance(Duration.ofSeconds(60));
            assertThat(status(h, "slow").path("jobStatus").asString()).isEqualTo("SUCCEEDED");
        }
    }

    @Test
    void dashboardUnreachableForADurationThenBack() {
        try (SimulationHarness h = SimulationHarness.withOperator()) {
            h.create(ResourceTypes.RAYCLUSTERS, "default", SeedManifests.demoRayCluster());
            h.advance(Duration.ofSeconds(10));
            ClusterKey key = new ClusterKey("default", "demo-raycluster");
            assertThat(h.dashboard().isReachable(key)).isTrue();
            h.create(ResourceTypes.FAULTSCHEDULES, "default", schedule("dashboards", """
                    interval: 1s
                    stopAfter: 1s
                    fault: {type: DashboardUnreachable, duration: {fixed: 20s}}
                    """));
            h.advance(Duration.ofSeconds(2));
            assertThat(h.dashboard().isReachable(key)).isFalse();
            h.advance(Duration.ofSeconds(20));
            assertThat(h.dashboard().isReachable(key)).isTrue();
        }
    }

    @Test
    void cordonAndDeleteNodes() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            h.create(ResourceTypes.FAULTSCHEDULES, "default", schedule("cordon", """
                    interval: 1s
                    stopAfter: 2s
                    selector: kubernetes.io/hostname in (sim-node-0, sim-node-1)
                    fault: {type: CordonNode}
                    """));
            h.create(ResourceTypes.FAULTSCHEDULES, "default", schedule("delete", """
                    interval: 1s
                    stopAfter: 1s
                    selector: kubernetes.io/hostname=sim-node-3
                    fault: {type: DeleteNode}
                    """));
            h.advance(Duration.ofSeconds(3));
            for (String n : new String[] {"sim-node-0", "sim-node-1"}) {
                assertThat(h.client().get(ResourceTypes.NODES, null, n).object().path("spec").path("unschedulable")
                        .asBoolean()).as(n).isTrue();
            }
            assertThat(h.client().get(ResourceTypes.NODES, null, "sim-node-2").object().path("spec")
                    .path("unschedulable").asBoolean(false)).isFalse();
            assertThat(h.client().get(ResourceTypes.NODES, null, "sim-node-3")).isNull();
        }
    }

    @Test
    void failServeAppTurnsTheActiveClustersApplicationsUnhealthy() {
        try (SimulationHarness h = SimulationHarness.withOperator()) {
            h.create(ResourceTypes.RAYSERVICES, "default", SeedManifests.rayService());
            h.advance(Duration.ofSeconds(30));
            JsonNode before = h.client().get(ResourceTypes.RAYSERVICES, "default", "rayservice-sample").object()
                    .path("status").path("activeServiceStatus").path("applicationStatuses").path("fruit-app");
            assertThat(before.path("status").asString()).isEqualTo("RUNNING");
            h.create(ResourceTypes.FAULTSCHEDULES, "default", schedule("fail-serve", """
                    interval: 1s
                    stopAfter: 1s
                    fault: {type: FailServeApp}
                    """));
            h.advance(Duration.ofSeconds(10));
            JsonNode after = h.client().get(ResourceTypes.RAYSERVICES, "default", "rayservice-sample").object()
                    .path("status").path("activeServiceStatus").path("applicationStatuses").path("fruit-app");
            assertThat(after.path("status").asString()).isEqualTo("UNHEALTHY");
            assertThat(Json.text(h.client().get(ResourceTypes.FAULTSCHEDULES, "default", "fail-serve").object(),
                    "status", "lastFault")).startsWith("made the Serve applications of RayService rayservice-sample");
        }
    }
}
