package io.kuberaysim.e2e;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.api.ray.RayJob;
import io.kuberaysim.api.ray.RayJobStatus;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.ray.dashboard.ClusterKey;
import io.kuberaysim.sim.ray.RayDashboard;
import io.kuberaysim.testing.SeedManifests;
import io.kuberaysim.testing.SimulationHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static io.kuberaysim.e2e.OperatorE2e.NS;
import static io.kuberaysim.e2e.OperatorE2e.events;
import static io.kuberaysim.e2e.OperatorE2e.phase;
import static io.kuberaysim.e2e.OperatorE2e.pods;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * RayJobs on the real stack: the RayJob, RayCluster controllers and the submitter simulation over the simulated
 * scheduler, kubelet and Job controller, on the virtual clock with default timings (pods start 2 s after
 * scheduling, a graceful delete takes 1 s, a Ray job runs 1 s).
 */
class RayJobEndToEndTest {
    private final SimulationHarness h = SimulationHarness.withOperator();

    @AfterEach
    void close() {
        h.close();
    }

    /** The demo's example-job with {@code name}, extra annotations and spec lines. */
    static String manifest(String name, String annotations, String extraSpec) {
        String m = SeedManifests.exampleJob().replace("name: example-job", "name: " + name);
        if (annotations != null) {
            m = m.replace("  name: " + name + "\n", "  name: " + name + "\n  annotations:\n"
                    + annotations.indent(4));
        }
        if (extraSpec != null) {
            m = m.replace("spec:\n  entrypoint", "spec:\n" + extraSpec.indent(2) + "  entrypoint");
        }
        return m;
    }

    StoredObject create(String name, String annotations, String extraSpec) {
        return h.create(ResourceTypes.RAYJOBS, NS, manifest(name, annotations, extraSpec));
    }

    RayJobStatus status(String name) {
        StoredObject o = h.client().get(ResourceTypes.RAYJOBS, NS, name);
        return o == null ? null : KubeClient.read(o.object(), RayJob.class).status();
    }

    StoredObject cluster(String name) {
        return h.client().get(ResourceTypes.RAYCLUSTERS, NS, name);
    }

    void advanceSeconds(int n) {
        for (int i = 0; i < n; i++) {
            h.advance(Duration.ofSeconds(1));
        }
    }

    @Test
    void succeedsOnTheDefaultTimelineAndCleansUpTheClusterButKeepsTheSubmitter() {
        Instant t0 = h.clock().now();
        var clusterReady = new OperatorE2e.FirstTime(h, ResourceTypes.RAYCLUSTERS, t0,
                rc -> "ready".equals(Json.text(rc.object(), "status", "state")));
        var submitterRunning = new OperatorE2e.FirstTime(h, ResourceTypes.PODS, t0,
                p -> "example-job".equals(p.labels().get("job-name")) && "Running".equals(phase(p)));
        var complete = new OperatorE2e.FirstTime(h, ResourceTypes.RAYJOBS, t0,
                rj -> "Complete".equals(Json.text(rj.object(), "status", "jobDeploymentStatus")));
        create("example-job", null, null);
        String clusterName = status("example-job").rayClusterName();
        assertThat(clusterName).matches("example-job-[a-z0-9]{5}");

        advanceSeconds(5);
        assertThat(clusterReady.seconds()).isEqualTo(2.0);
        assertThat(submitterRunning.seconds()).isEqualTo(4.0);
        assertThat(complete.seconds()).isEqualTo(5.0);
        RayJobStatus st = status("example-job");
        assertThat(st.jobDeploymentStatus()).isEqualTo("Complete");
        assertThat(st.jobStatus()).isEqualTo("SUCCEEDED");
        assertThat(st.succeeded()).isEqualTo(1);
        assertThat(st.failed()).isZero();
        assertThat(st.startTime()).isEqualTo(t0);
        assertThat(st.endTime()).isEqualTo(t0.plusSeconds(5));
        assertThat(events(h, "DeletedRayCluster")).containsExactly("Normal Deleted cluster default/" + clusterName);

        advanceSeconds(1); // the kubelet's 1 s graceful termination of the Ray pods
        assertThat(cluster(clusterName)).isNull();
        assertThat(pods(h, "ray.io/cluster=" + clusterName)).isEmpty();
        assertThat(h.client().get(ResourceTypes.SERVICES, NS, clusterName + "-head-svc")).isNull();
        StoredObject submitter = h.client().get(ResourceTypes.JOBS, NS, "example-job");
        assertThat(submitter).isNotNull();
        assertThat(Json.at(submitter.object(), "status", "succeeded").asInt()).isEqualTo(1);
        assertThat(pods(h, "job-name=example-job")).singleElement()
                .satisfies(p -> assertThat(phase(p)).isEqualTo("Succeeded"));
    }

    @Test
    void failingJobIsRetriedOnANewClusterUntilTheBackoffLimit() {
        create("flaky", RayDashboard.RESULT_ANNOTATION + ": FAILED", "backoffLimit: 1");
        List<String> clusters = new ArrayList<>();
        for (int i = 0; i < 60 && !"Failed".equals(status("flaky").jobDeploymentStatus()); i++) {
            String c = status("flaky").rayClusterName();
            if (c != null && !clusters.contains(c)) {
                clusters.add(c);
            }
            h.advance(Duration.ofSeconds(1));
        }
        RayJobStatus st = status("flaky");
        assertThat(st.jobDeploymentStatus()).isEqualTo("Failed");
        assertThat(st.reason()).isEqualTo("AppFailed");
        assertThat(st.jobStatus()).isEqualTo("FAILED");
        assertThat(st.failed()).isEqualTo(2);
        assertThat(st.succeeded()).isZero();
        assertThat(clusters).hasSize(2).doesNotHaveDuplicates();
        advanceSeconds(2);
        assertThat(h.client().list(ResourceTypes.RAYCLUSTERS, NS, null)).isEmpty();
        assertThat(pods(h, "ray.io/is-ray-node=yes")).isEmpty();
    }

    @Test
    void activeDeadlineFailsALongJob() {
        create("slow", RayDashboard.DURATION_ANNOTATION + ": \"100\"", "activeDeadlineSeconds: 8\nbackoffLimit: 3");
        advanceSeconds(7);
        assertThat(status("slow").jobDeploymentStatus()).isEqualTo("Running");
        assertThat(status("slow").jobStatus()).isEqualTo("RUNNING");
        advanceSeconds(1);
        RayJobStatus st = status("slow");
        assertThat(st.jobDeploymentStatus()).isEqualTo("Failed");
        assertThat(st.reason()).isEqualTo("DeadlineExceeded");
        assertThat(st.failed()).isEqualTo(1);
        advanceSeconds(1);
        assertThat(cluster(st.rayClusterName())).isNull();
        assertThat(pods(h, "ray.io/cluster=" + st.rayClusterName())).isEmpty();
    }

    @Test
    void httpModeSubmitsWithoutASubmitterJob() {
        Instant t0 = h.clock().now();
        var complete = new OperatorE2e.FirstTime(h, ResourceTypes.RAYJOBS, t0,
                rj -> "Complete".equals(Json.text(rj.object(), "status", "jobDeploymentStatus")));
        create("http", null, "submissionMode: HTTPMode");
        advanceSeconds(2);
        RayJobStatus st = status("http");
        assertThat(st.jobDeploymentStatus()).isEqualTo("Running");
        assertThat(h.dashboard().jobs(new ClusterKey(NS, st.rayClusterName()))).singleElement()
                .satisfies(j -> assertThat(j.submissionId()).isEqualTo(st.jobId()));
        advanceSeconds(2);
        assertThat(complete.seconds()).isEqualTo(3.0); // no submitter pod to start: ready +2, job runs 1 s
        assertThat(status("http").jobStatus()).isEqualTo("SUCCEEDED");
        assertThat(h.client().list(ResourceTypes.JOBS, NS, null)).isEmpty();
        assertThat(pods(h, "job-name=http")).isEmpty();
        assertThat(cluster(st.rayClusterName())).isNull();
    }

    @Test
    void deletingARunningRayJobStopsTheJobAndRemovesEverythingItOwns() {
        create("del", RayDashboard.DURATION_ANNOTATION + ": \"100\"", "shutdownAfterJobFinishes: false");
        advanceSeconds(5);
        RayJobStatus st = status("del");
        assertThat(st.jobStatus()).isEqualTo("RUNNING");
        var key = new ClusterKey(NS, st.rayClusterName());
        List<String> seen = new ArrayList<>();
        h.dashboard().addListener((k, j) -> seen.add(j.submissionId() + ":" + j.status()));

        h.client().delete(ResourceTypes.RAYJOBS, NS, "del");
        h.settle();
        assertThat(seen).contains(st.jobId() + ":STOPPED");
        assertThat(h.client().get(ResourceTypes.RAYJOBS, NS, "del")).isNull();
        advanceSeconds(2);
        assertThat(cluster(st.rayClusterName())).isNull();
        assertThat(h.client().get(ResourceTypes.JOBS, NS, "del")).isNull();
        assertThat(pods(h, "ray.io/cluster=" + st.rayClusterName())).isEmpty();
        assertThat(pods(h, "job-name=del")).isEmpty();
        assertThat(h.dashboard().jobs(key)).isEmpty();
    }

    @Test
    void losingTheHeadLosesTheRayJobAndTheSubmitterRunsItAgainOnTheNewHead() {
        Instant t0 = h.clock().now();
        create("lost", RayDashboard.DURATION_ANNOTATION + ": \"20\"", null);
        advanceSeconds(6);
        RayJobStatus st = status("lost");
        assertThat(st.jobStatus()).isEqualTo("RUNNING");
        assertThat(st.rayJobInfo().startTime()).isEqualTo(t0.plusSeconds(4));
        String cluster = st.rayClusterName();
        var key = new ClusterKey(NS, cluster);
        String headNode = Json.text(h.client().get(ResourceTypes.PODS, NS, cluster + "-head").object(),
                "spec", "nodeName");

        h.client().delete(ResourceTypes.NODES, null, headNode); // at +6
        h.settle();
        assertThat(h.dashboard().jobs(key)).as("Ray keeps no job history across a head restart").isEmpty();
        assertThat(h.dashboard().isReachable(key)).isFalse();

        advanceSeconds(4); // the new head runs at +8 and the submitter submits the same job id again
        assertThat(h.dashboard().jobs(key)).singleElement()
                .satisfies(j -> assertThat(j.submissionId()).isEqualTo(st.jobId()));
        assertThat(status("lost").jobDeploymentStatus()).isEqualTo("Running");
        advanceSeconds(20);
        RayJobStatus done = status("lost");
        assertThat(done.jobDeploymentStatus()).isEqualTo("Complete");
        assertThat(done.jobStatus()).isEqualTo("SUCCEEDED");
        assertThat(done.rayJobInfo().startTime()).isAfter(t0.plusSeconds(6));
        assertThat(done.endTime()).isAfter(t0.plusSeconds(26));
        assertThat(done.failed()).isZero();
    }
}
