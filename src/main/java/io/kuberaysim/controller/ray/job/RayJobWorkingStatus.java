package io.kuberaysim.controller.ray.job;

import io.kuberaysim.api.ray.RayClusterStatus;
import io.kuberaysim.api.ray.RayJobInfo;
import io.kuberaysim.api.ray.RayJobStatus;
import io.kuberaysim.controller.ray.WorkingStatus;

import java.time.Instant;
import java.util.Objects;

/**
 * The RayJob status one reconcile pass works on: a mutable copy of the old {@link RayJobStatus} that the state
 * machine edits, written as {@link WorkingStatus} says.
 */
final class RayJobWorkingStatus implements WorkingStatus<RayJobStatus> {
    static final RayJobStatus EMPTY = new RayJobStatus(null, null, null, null, null, null, null, null, null, null,
            null, null, null, null, null);

    String jobStatus;
    String jobDeploymentStatus;
    String reason;
    String message;
    String jobId;
    String rayClusterName;
    String dashboardURL;
    Instant startTime;
    Instant endTime;
    RayJobInfo rayJobInfo;
    Integer succeeded;
    Integer failed;
    RayClusterStatus rayClusterStatus;
    Instant jobStatusCheckFailureStartTime;
    private long generation;

    /** A working copy of {@code s} for a RayJob at {@code generation}. */
    static RayJobWorkingStatus of(RayJobStatus s, long generation) {
        RayJobWorkingStatus d = new RayJobWorkingStatus();
        d.generation = generation;
        d.jobStatus = s.jobStatus();
        d.jobDeploymentStatus = s.jobDeploymentStatus();
        d.reason = s.reason();
        d.message = s.message();
        d.jobId = s.jobId();
        d.rayClusterName = s.rayClusterName();
        d.dashboardURL = s.dashboardURL();
        d.startTime = s.startTime();
        d.endTime = s.endTime();
        d.rayJobInfo = s.rayJobInfo();
        d.succeeded = s.succeeded();
        d.failed = s.failed();
        d.rayClusterStatus = s.rayClusterStatus();
        d.jobStatusCheckFailureStartTime = s.jobStatusCheckFailureStartTime();
        return d;
    }

    @Override
    public boolean inconsistentWith(RayJobStatus old) {
        return !sameForWrite(old, toStatus(null));
    }

    /** The status to write; empty strings are left out, as Go's omitempty does. */
    @Override
    public RayJobStatus toStatus(Instant writeTime) {
        Long observedGeneration = generation;
        return new RayJobStatus(blank(jobStatus), blank(jobDeploymentStatus), blank(reason), blank(message),
                blank(jobId), blank(rayClusterName), blank(dashboardURL), startTime, endTime, rayJobInfo,
                succeeded == null ? 0 : succeeded, failed == null ? 0 : failed, rayClusterStatus,
                jobStatusCheckFailureStartTime, observedGeneration);
    }

    /**
     * Whether writing {@code next} over {@code old} would change nothing a user cares about: the cluster status is
     * compared the way KubeRay compares it (no desired resources, timestamps or generation), and
     * observedGeneration alone never causes a write.
     */
    static boolean sameForWrite(RayJobStatus old, RayJobStatus next) {
        return Objects.equals(blank(old.jobStatus()), next.jobStatus())
                && Objects.equals(blank(old.jobDeploymentStatus()), next.jobDeploymentStatus())
                && Objects.equals(blank(old.reason()), next.reason())
                && Objects.equals(blank(old.message()), next.message())
                && Objects.equals(blank(old.jobId()), next.jobId())
                && Objects.equals(blank(old.rayClusterName()), next.rayClusterName())
                && Objects.equals(blank(old.dashboardURL()), next.dashboardURL())
                && Objects.equals(old.startTime(), next.startTime())
                && Objects.equals(old.endTime(), next.endTime())
                && Objects.equals(old.rayJobInfo(), next.rayJobInfo())
                && Objects.equals(old.succeeded() == null ? 0 : old.succeeded(), next.succeeded())
                && Objects.equals(old.failed() == null ? 0 : old.failed(), next.failed())
                && Objects.equals(old.jobStatusCheckFailureStartTime(), next.jobStatusCheckFailureStartTime())
                && sameCluster(old.rayClusterStatus(), next.rayClusterStatus());
    }

    private static boolean sameCluster(RayClusterStatus a, RayClusterStatus b) {
        if (a == null || b == null) {
            return a == b;
        }
        return Objects.equals(a.state(), b.state()) && Objects.equals(a.reason(), b.reason())
                && Objects.equals(a.readyWorkerReplicas(), b.readyWorkerReplicas())
                && Objects.equals(a.availableWorkerReplicas(), b.availableWorkerReplicas())
                && Objects.equals(a.desiredWorkerReplicas(), b.desiredWorkerReplicas())
                && Objects.equals(a.minWorkerReplicas(), b.minWorkerReplicas())
                && Objects.equals(a.maxWorkerReplicas(), b.maxWorkerReplicas())
                && Objects.equals(a.endpoints(), b.endpoints()) && Objects.equals(a.head(), b.head())
                && Objects.equals(a.conditions(), b.conditions());
    }

    private static String blank(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
