package io.kuberaysim.api.ray;

import java.util.Set;

/** RayJob lifecycle statuses ({@code RayJobStatus.jobDeploymentStatus}); plain strings on the wire. */
public final class JobDeploymentStatus {
    /** Just created. */
    public static final String NEW = "";
    /** Cluster being prepared. */
    public static final String INITIALIZING = "Initializing";
    /** Job submitted and running. */
    public static final String RUNNING = "Running";
    /** Job finished. */
    public static final String COMPLETE = "Complete";
    /** RayJob failed. */
    public static final String FAILED = "Failed";
    /** The spec did not pass the operator's validation. */
    public static final String VALIDATION_FAILED = "ValidationFailed";
    /** Suspend requested, resources being deleted. */
    public static final String SUSPENDING = "Suspending";
    /** Suspended. */
    public static final String SUSPENDED = "Suspended";
    /** A retry is starting on a new cluster. */
    public static final String RETRYING = "Retrying";
    /** InteractiveMode: waiting for the user to submit. */
    public static final String WAITING = "Waiting";

    private static final Set<String> TERMINAL = Set.of(COMPLETE, FAILED);

    private JobDeploymentStatus() {
    }

    /** Whether the RayJob has finished for good. */
    public static boolean isTerminal(String status) {
        return status != null && TERMINAL.contains(status);
    }
}
