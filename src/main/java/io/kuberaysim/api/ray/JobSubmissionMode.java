package io.kuberaysim.api.ray;

/** How a RayJob's Ray job is submitted ({@code spec.submissionMode}). */
public enum JobSubmissionMode {
    /** A Kubernetes Job runs {@code ray job submit}. */
    K8sJobMode,
    /** The operator submits through the Ray dashboard HTTP API. */
    HTTPMode,
    /** The operator waits for the user to submit and to set the job id. */
    InteractiveMode,
    /** A sidecar container in the head Pod submits the job. */
    SidecarMode
}
