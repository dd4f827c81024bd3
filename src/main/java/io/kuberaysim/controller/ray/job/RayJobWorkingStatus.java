package io.kuberaysim.controller.ray.job;

import io.fabric8.kubernetes.api.model.Quantity;
import io.kuberaysim.api.ray.HeadInfo;
import io.kuberaysim.api.ray.JobDeploymentStatus;
import io.kuberaysim.api.ray.RayClusterStatus;
import io.kuberaysim.api.ray.RayJobInfo;
import io.kuberaysim.api.ray.RayJobStatus;
import io.kuberaysim.controller.ray.WorkingStatus;
import io.kuberaysim.controller.ray.cluster.RayClusterStatusCalculator;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * The RayJob status one reconcile pass works on: a mutable copy of the old {@link RayJobStatus} that the state
 * machine edits, written as KubeRay's rayjob_controller.go {@code updateRayJobStatus} writes it: only when the job
 * status, the deployment status, the cluster status ({@code InconsistentRayClusterStatus}) or the status-check failure
 * time changed; {@code endTime} is the time of a write whose deployment status is Complete or Failed (so a Retrying
 * RayJob shows none); {@code observedGeneration} is never set (KubeRay's RayJob controller does not); fields are
 * written as Go's {@code encoding/json} writes KubeRay's types (empty strings and zero counts left out, the
 * {@code rayJobInfo} and {@code rayClusterStatus} structs always present).
 */
final class RayJobWorkingStatus implements WorkingStatus<RayJobStatus> {
    static final RayJobStatus EMPTY = new RayJobStatus(null, null, null, null, null, null, null, null, null, null,
            null, null, null, null, null);
    /** A Go zero-valued RayClusterStatus as encoding/json writes it: Quantities "0", an empty head. */
    private static final Quantity ZERO = new Quantity("0");

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
    private Long observedGeneration;

    /** A working copy of {@code s}. */
    static RayJobWorkingStatus of(RayJobStatus s) {
        RayJobWorkingStatus d = new RayJobWorkingStatus();
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
        d.observedGeneration = s.observedGeneration();
        return d;
    }

    /** updateRayJobStatus's condition for a write; message, reason, jobId, rayJobInfo and the like alone never write. */
    @Override
    public boolean inconsistentWith(RayJobStatus old) {
        return !Objects.equals(blank(old.jobStatus()), blank(jobStatus))
                || !Objects.equals(blank(old.jobDeploymentStatus()), blank(jobDeploymentStatus))
                || RayClusterStatusCalculator.inconsistent(goValue(old.rayClusterStatus()), goValue(rayClusterStatus))
                || !Objects.equals(old.jobStatusCheckFailureStartTime(), jobStatusCheckFailureStartTime);
    }

    /** The status to write at {@code writeTime}. */
    @Override
    public RayJobStatus toStatus(Instant writeTime) {
        if (JobDeploymentStatus.COMPLETE.equals(jobDeploymentStatus)
                || JobDeploymentStatus.FAILED.equals(jobDeploymentStatus)) {
            endTime = writeTime.truncatedTo(ChronoUnit.SECONDS);
        }
        return new RayJobStatus(blank(jobStatus), blank(jobDeploymentStatus), blank(reason), blank(message),
                blank(jobId), blank(rayClusterName), blank(dashboardURL), startTime, endTime,
                rayJobInfo == null ? new RayJobInfo(null, null) : rayJobInfo,
                succeeded == null ? 0 : succeeded, failed == null ? 0 : failed, goValue(rayClusterStatus),
                jobStatusCheckFailureStartTime, observedGeneration);
    }

    /** KubeRay's RayClusterStatus as Go writes it: a zero struct for none, zero int32 counts left out. */
    static RayClusterStatus goValue(RayClusterStatus s) {
        if (s == null) {
            return new RayClusterStatus(null, null, ZERO, ZERO, ZERO, ZERO, null, null, null, null, null, null,
                    new HeadInfo(null, null, null, null), null, null, null, null);
        }
        return new RayClusterStatus(s.state(), blank(s.reason()), orZero(s.desiredCPU()), orZero(s.desiredMemory()),
                orZero(s.desiredGPU()), orZero(s.desiredTPU()), nonZero(s.readyWorkerReplicas()),
                nonZero(s.availableWorkerReplicas()), nonZero(s.desiredWorkerReplicas()),
                nonZero(s.minWorkerReplicas()), nonZero(s.maxWorkerReplicas()),
                s.endpoints() == null || s.endpoints().isEmpty() ? null : s.endpoints(),
                s.head() == null ? new HeadInfo(null, null, null, null) : s.head(), s.lastUpdateTime(),
                s.stateTransitionTimes() == null || s.stateTransitionTimes().isEmpty() ? null
                        : s.stateTransitionTimes(),
                s.observedGeneration() == null || s.observedGeneration() == 0 ? null : s.observedGeneration(),
                s.conditions() == null || s.conditions().isEmpty() ? null : s.conditions());
    }

    private static Quantity orZero(Quantity q) {
        return q == null ? ZERO : q;
    }

    private static Integer nonZero(Integer i) {
        return i == null || i == 0 ? null : i;
    }

    private static String blank(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
