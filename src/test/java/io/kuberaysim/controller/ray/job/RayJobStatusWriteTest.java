package io.kuberaysim.controller.ray.job;

import io.kuberaysim.api.ray.JobDeploymentStatus;
import io.kuberaysim.api.ray.JobStatus;
import io.kuberaysim.api.ray.RayClusterStatus;
import io.kuberaysim.api.ray.RayJobStatus;
import io.kuberaysim.client.KubeClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pins KubeRay's rayjob_controller.go {@code updateRayJobStatus}: when a RayJob's status is written, what
 * {@code endTime} and {@code observedGeneration} become, and how Go's encoding/json writes the status.
 */
class RayJobStatusWriteTest {
    private static final Instant WRITE = Instant.parse("2025-01-01T00:01:02.345Z");

    private static RayJobStatus running() {
        return new RayJobStatus(JobStatus.RUNNING, JobDeploymentStatus.RUNNING, null, "running", "job-1",
                "c-1", "c-1-head-svc.default.svc.cluster.local:8265", Instant.parse("2025-01-01T00:00:00Z"), null,
                null, 0, 0, cluster(2, Instant.parse("2025-01-01T00:00:30Z")), null, null);
    }

    private static RayClusterStatus cluster(int ready, Instant lastUpdate) {
        return new RayClusterStatus("ready", null, null, null, null, null, ready, ready, 2, 0, 4, null, null,
                lastUpdate, null, 3L, null);
    }

    // updateRayJobStatus writes only when JobStatus, JobDeploymentStatus, RayClusterStatus
    // (utils.InconsistentRayClusterStatus) or JobStatusCheckFailureStartTime changed
    @ParameterizedTest(name = "{0} -> written: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            message only                        | false
            reason only                         | false
            dashboard URL only                  | false
            cluster lastUpdateTime only         | false
            job status                          | true
            deployment status                   | true
            cluster ready workers               | true
            status check failure start time     | true
            """)
    void writtenOnlyWhenUpdateRayJobStatusWouldWrite(String change, boolean written) {
        RayJobStatus old = running();
        RayJobWorkingStatus next = RayJobWorkingStatus.of(old);
        switch (change) {
            case "message only" -> next.message = "something else";
            case "reason only" -> next.reason = "AppFailed";
            case "dashboard URL only" -> next.dashboardURL = "elsewhere:8265";
            case "cluster lastUpdateTime only" -> next.rayClusterStatus = cluster(2, WRITE);
            case "job status" -> next.jobStatus = JobStatus.SUCCEEDED;
            case "deployment status" -> next.jobDeploymentStatus = JobDeploymentStatus.SUSPENDING;
            case "cluster ready workers" -> next.rayClusterStatus = cluster(1, WRITE);
            case "status check failure start time" -> next.jobStatusCheckFailureStartTime = WRITE;
            default -> throw new IllegalArgumentException(change);
        }
        assertThat(next.inconsistentWith(old)).isEqualTo(written);
    }

    // updateRayJobStatus sets EndTime to now on every write whose JobDeploymentStatus is terminal
    // (IsJobDeploymentTerminal: Complete, Failed); a RayJob written as Retrying has none
    @ParameterizedTest(name = "{0}: endTime {1}")
    @CsvSource(delimiter = '|', textBlock = """
            Complete   | 2025-01-01T00:01:02Z
            Failed     | 2025-01-01T00:01:02Z
            Retrying   | -
            Suspending | -
            """)
    void endTimeIsTheTimeOfATerminalWrite(String deploymentStatus, String endTime) {
        RayJobWorkingStatus next = RayJobWorkingStatus.of(running());
        next.jobDeploymentStatus = deploymentStatus;

        RayJobStatus written = next.toStatus(WRITE);

        assertThat(written.endTime() == null ? "-" : written.endTime().toString()).isEqualTo(endTime);
    }

    // KubeRay's RayJob controller never sets status.observedGeneration (rayjob_controller.go has no write of it)
    @Test
    void observedGenerationIsNeverSet() {
        RayJobWorkingStatus next = RayJobWorkingStatus.of(RayJobWorkingStatus.EMPTY);
        next.jobDeploymentStatus = JobDeploymentStatus.INITIALIZING;

        assertThat(next.toStatus(WRITE).observedGeneration()).isNull();
    }

    // RayJobStatus as encoding/json writes it: rayJobInfo and rayClusterStatus are structs (never omitted; the
    // cluster's Quantities "0" and head {}), empty strings and zero int32 counts are omitempty
    @Test
    void writtenAsGoEncodesKubeRaysTypes() {
        RayJobWorkingStatus next = RayJobWorkingStatus.of(RayJobWorkingStatus.EMPTY);
        next.jobStatus = JobStatus.NEW;
        next.jobDeploymentStatus = JobDeploymentStatus.INITIALIZING;
        next.reason = "";

        JsonNode json = KubeClient.tree(next.toStatus(WRITE));

        assertThat(json.get("rayJobInfo").toString()).isEqualTo("{}");
        assertThat(json.get("rayClusterStatus").toString()).isEqualTo(
                "{\"desiredCPU\":\"0\",\"desiredMemory\":\"0\",\"desiredGPU\":\"0\",\"desiredTPU\":\"0\",\"head\":{}}");
        assertThat(json.has("reason")).isFalse();
        assertThat(json.get("succeeded").asInt()).isZero();
        assertThat(json.has("observedGeneration")).isFalse();

        RayJobWorkingStatus withCluster = RayJobWorkingStatus.of(RayJobWorkingStatus.EMPTY);
        withCluster.rayClusterStatus = new RayClusterStatus(null, null, null, null, null, null, 0, 0, 2, 0, 0,
                null, null, null, null, null, null);
        JsonNode cluster = KubeClient.tree(withCluster.toStatus(WRITE)).get("rayClusterStatus");
        assertThat(cluster.has("readyWorkerReplicas")).isFalse();
        assertThat(cluster.get("desiredWorkerReplicas").asInt()).isEqualTo(2);
    }
}
