package io.kuberaysim.controller.ray.dashboard;

/** Ray job states ({@code JobStatus} in Ray). */
public enum JobState {
    /** Waiting to start. */
    PENDING,
    /** Running. */
    RUNNING,
    /** Finished successfully. */
    SUCCEEDED,
    /** The entrypoint failed. */
    FAILED,
    /** Stopped on request. */
    STOPPED;

    /** Whether the state never changes again. */
    public boolean terminal() {
        return this == SUCCEEDED || this == FAILED || this == STOPPED;
    }
}
