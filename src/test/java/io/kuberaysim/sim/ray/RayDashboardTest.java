package io.kuberaysim.sim.ray;

import io.kuberaysim.controller.ray.dashboard.ClusterKey;
import io.kuberaysim.controller.ray.dashboard.DashboardException;
import io.kuberaysim.controller.ray.dashboard.JobDetails;
import io.kuberaysim.controller.ray.dashboard.JobState;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RayDashboardTest {
    private final VirtualClock clock = new VirtualClock();
    private final Set<ClusterKey> down = new HashSet<>();
    private final RayDashboard dashboard = new RayDashboard(clock, k -> !down.contains(k));
    private final ClusterKey a = new ClusterKey("default", "a");
    private final ClusterKey b = new ClusterKey("default", "b");

    @AfterEach
    void close() {
        clock.close();
    }

    private JobState state(ClusterKey k, String id) {
        return dashboard.status(k, id).orElseThrow().status();
    }

    @Test
    void defaultJobRunsAtOnceAndSucceedsAfterOneSecond() {
        Instant t0 = clock.now();
        JobDetails submitted = dashboard.submit(a, "j1", "python x.py", Map.of(), null);
        assertThat(submitted.status()).isEqualTo(JobState.RUNNING);
        assertThat(submitted.startTime()).isEqualTo(t0.toEpochMilli());
        clock.advance(Duration.ofMillis(999));
        assertThat(state(a, "j1")).isEqualTo(JobState.RUNNING);
        clock.advance(Duration.ofMillis(1));
        JobDetails done = dashboard.status(a, "j1").orElseThrow();
        assertThat(done.status()).isEqualTo(JobState.SUCCEEDED);
        assertThat(done.message()).isEqualTo(RayDashboard.MSG_SUCCEEDED);
        assertThat(done.endTime()).isEqualTo(t0.plusSeconds(1).toEpochMilli());
    }

    @Test
    void annotationsInMetadataControlStartDelayDurationAndResult() {
        dashboard.submit(a, "j", "e", Map.of(RayDashboard.START_SECONDS_ANNOTATION, "2",
                RayDashboard.DURATION_ANNOTATION, "5", RayDashboard.RESULT_ANNOTATION, "FAILED"), null);
        assertThat(state(a, "j")).isEqualTo(JobState.PENDING);
        assertThat(dashboard.status(a, "j").orElseThrow().message()).isEqualTo(RayDashboard.MSG_PENDING);
        clock.advance(Duration.ofSeconds(2));
        assertThat(state(a, "j")).isEqualTo(JobState.RUNNING);
        clock.advance(Duration.ofSeconds(4));
        assertThat(state(a, "j")).isEqualTo(JobState.RUNNING);
        clock.advance(Duration.ofSeconds(1));
        JobDetails d = dashboard.status(a, "j").orElseThrow();
        assertThat(d.status()).isEqualTo(JobState.FAILED);
        assertThat(d.endTime() - d.startTime()).isEqualTo(5000);
    }

    @Test
    void duplicateSubmissionIdIsRejectedButOtherClustersHaveTheirOwnTable() {
        dashboard.submit(a, "same", "e", null, null);
        assertThatThrownBy(() -> dashboard.submit(a, "same", "e", null, null))
                .isInstanceOfSatisfying(DashboardException.class,
                        e -> assertThat(e.kind()).isEqualTo(DashboardException.Kind.ALREADY_EXISTS));
        dashboard.submit(b, "same", "e", null, null);
        assertThat(dashboard.jobs(a)).hasSize(1);
        assertThat(dashboard.jobs(b)).hasSize(1);
        assertThat(dashboard.status(b, "other")).isEmpty();
    }

    @Test
    void stopEndsARunningJobAndCannotStopTwice() {
        dashboard.submit(a, "j", "e", Map.of(RayDashboard.DURATION_ANNOTATION, "60"), null);
        assertThat(dashboard.stop(a, "j")).isTrue();
        assertThat(state(a, "j")).isEqualTo(JobState.STOPPED);
        assertThat(dashboard.stop(a, "j")).isFalse();
        clock.advance(Duration.ofSeconds(120));
        assertThat(state(a, "j")).isEqualTo(JobState.STOPPED);
        assertThatThrownBy(() -> dashboard.stop(a, "nope")).isInstanceOfSatisfying(DashboardException.class,
                e -> assertThat(e.kind()).isEqualTo(DashboardException.Kind.NOT_FOUND));
    }

    @Test
    void forgettingAClusterDropsItsJobsAndTheirTimers() {
        List<String> seen = new ArrayList<>();
        dashboard.addListener((k, j) -> seen.add(k.name() + ":" + j.submissionId() + ":" + j.status()));
        List<ClusterKey> gone = new ArrayList<>();
        dashboard.onClusterForgotten(gone::add);
        dashboard.submit(a, "j", "e", Map.of(RayDashboard.DURATION_ANNOTATION, "3"), null);
        dashboard.forgetCluster(a);
        clock.advance(Duration.ofSeconds(10));
        assertThat(dashboard.status(a, "j")).isEmpty();
        assertThat(seen).containsExactly("a:j:RUNNING");
        assertThat(gone).containsExactly(a);
    }

    @Test
    void listenersSeeEveryTransition() {
        List<JobState> seen = new ArrayList<>();
        dashboard.addListener((k, j) -> seen.add(j.status()));
        dashboard.submit(a, "j", "e", Map.of(RayDashboard.START_SECONDS_ANNOTATION, "1"), null);
        clock.advance(Duration.ofSeconds(5));
        assertThat(seen).containsExactly(JobState.PENDING, JobState.RUNNING, JobState.SUCCEEDED);
    }

    @Test
    void unreachableClusterAnswersNothing() {
        down.add(a);
        assertThatThrownBy(() -> dashboard.submit(a, "j", "e", null, null))
                .isInstanceOfSatisfying(DashboardException.class,
                        e -> assertThat(e.kind()).isEqualTo(DashboardException.Kind.UNREACHABLE));
        assertThatThrownBy(() -> dashboard.status(a, "j")).isInstanceOf(DashboardException.class);
    }

    @Test
    void malformedSimulationValuesFallBackToDefaults() {
        dashboard.submit(a, "j", "e", Map.of(RayDashboard.DURATION_ANNOTATION, "soon",
                RayDashboard.START_SECONDS_ANNOTATION, "-3"), null);
        assertThat(state(a, "j")).isEqualTo(JobState.RUNNING);
        clock.advance(Duration.ofSeconds(1));
        assertThat(state(a, "j")).isEqualTo(JobState.SUCCEEDED);
    }

    @Test
    void parsesDashboardAddresses() {
        assertThat(ClusterKey.fromDashboardAddress("rj-abcde-head-svc.team.svc.cluster.local:8265"))
                .contains(new ClusterKey("team", "rj-abcde"));
        assertThat(ClusterKey.fromDashboardAddress("http://c-head-svc.default.svc.cluster.local:8265/"))
                .contains(new ClusterKey("default", "c"));
        assertThat(ClusterKey.fromDashboardAddress("127.0.0.1:8265")).isEmpty();
        assertThat(ClusterKey.fromDashboardAddress(null)).isEmpty();
    }

    @Test
    void simulationMetadataKeepsOnlyTheSimulationKeys() {
        assertThat(RayDashboard.simulationMetadata(Map.of(RayDashboard.RESULT_ANNOTATION, "FAILED", "other", "x")))
                .containsExactly(Map.entry(RayDashboard.RESULT_ANNOTATION, "FAILED"));
    }
}
