package io.kuberaysim.api.ray;

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Default;
import io.kuberaysim.api.schema.Description;

/**
 * Observed state of a RayJob (KubeRay {@code RayJobStatus}); see {@link JobStatus},
 * {@link JobDeploymentStatus} and {@link JobFailedReason} for the values.
 *
 * @param jobStatus                      Ray job status
 * @param jobDeploymentStatus            RayJob lifecycle status
 * @param reason                         why the job failed
 * @param message                        detail
 * @param jobId                          submission id
 * @param rayClusterName                 cluster the job runs on
 * @param dashboardURL                   dashboard address
 * @param startTime                      when the deployment started (reset on retry)
 * @param endTime                        when the deployment ended
 * @param rayJobInfo                     times from the Ray dashboard
 * @param succeeded                      success count
 * @param failed                         failure count
 * @param rayClusterStatus               copy of the cluster's status
 * @param jobStatusCheckFailureStartTime start of a run of failed status checks
 * @param observedGeneration             generation the status was computed from
 */
@Description("Observed state of a RayJob.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record RayJobStatus(
        @Description("Status of the Ray job as reported by Ray: PENDING, RUNNING, STOPPED, SUCCEEDED or FAILED.")
        String jobStatus,
        @Description("Lifecycle status of the RayJob: Initializing, Running, Complete, Failed, ValidationFailed, "
                + "Suspending, Suspended, Retrying or Waiting.")
        String jobDeploymentStatus,
        @Description("Why the RayJob failed, e.g. SubmissionFailed, DeadlineExceeded or AppFailed.")
        String reason,
        @Description("Human-readable detail about the current status.")
        String message,
        @Description("Submission id of the Ray job.")
        String jobId,
        @Description("Name of the RayCluster running the job.")
        String rayClusterName,
        @Description("Address of the Ray dashboard of the cluster.")
        String dashboardURL,
        @Description("Time the RayJob left the New status; reset on every retry.")
        Instant startTime,
        @Description("Time the RayJob reached Complete or Failed.")
        Instant endTime,
        @Description("Information about the Ray job from the Ray dashboard.")
        RayJobInfo rayJobInfo,
        @Default("0")
        @Description("Number of times the job succeeded.")
        Integer succeeded,
        @Default("0")
        @Description("Number of times the job failed.")
        Integer failed,
        @Description("Status of the RayCluster running the job.")
        RayClusterStatus rayClusterStatus,
        @Description("Start of the current run of failed job status checks.")
        Instant jobStatusCheckFailureStartTime,
        @Description("The metadata.generation this status was computed from.")
        Long observedGeneration) {
}
