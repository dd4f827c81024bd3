package io.kuberaysim.api.ray;

/** Values of {@code RayJobStatus.reason}. */
public final class JobFailedReason {
    /** Submitting the job failed. */
    public static final String SUBMISSION_FAILED = "SubmissionFailed";
    /** activeDeadlineSeconds passed. */
    public static final String DEADLINE_EXCEEDED = "DeadlineExceeded";
    /** preRunningDeadlineSeconds passed. */
    public static final String PRE_RUNNING_DEADLINE_EXCEEDED = "PreRunningDeadlineExceeded";
    /** The Ray job failed. */
    public static final String APP_FAILED = "AppFailed";
    /** The deployment status did not follow the job status in time. */
    public static final String TRANSITION_GRACE_PERIOD_EXCEEDED = "JobDeploymentStatusTransitionGracePeriodExceeded";
    /** Job status checks kept failing. */
    public static final String JOB_STATUS_CHECK_TIMEOUT_EXCEEDED = "JobStatusCheckTimeoutExceeded";
    /** The spec did not pass the operator's validation. */
    public static final String VALIDATION_FAILED = "ValidationFailed";

    private JobFailedReason() {
    }
}
