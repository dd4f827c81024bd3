package io.kuberaysim.api.ray;

import java.util.Set;

/** Ray job statuses ({@code RayJobStatus.jobStatus}); plain strings on the wire. */
public final class JobStatus {
    /** Not submitted yet. */
    public static final String NEW = "";
    /** Waiting to start. */
    public static final String PENDING = "PENDING";
    /** Running. */
    public static final String RUNNING = "RUNNING";
    /** Stopped by a user. */
    public static final String STOPPED = "STOPPED";
    /** Finished successfully. */
    public static final String SUCCEEDED = "SUCCEEDED";
    /** Finished with an error. */
    public static final String FAILED = "FAILED";

    private static final Set<String> TERMINAL = Set.of(STOPPED, SUCCEEDED, FAILED);

    private JobStatus() {
    }

    /** Whether Ray will not change this status any more. */
    public static boolean isTerminal(String status) {
        return status != null && TERMINAL.contains(status);
    }
}
