package io.kuberaysim.api.ray;

/** Condition types and reasons written to {@code RayServiceStatuses.conditions}. */
public final class RayServiceConditions {
    /** Condition type: the service has serve endpoints. */
    public static final String READY = "Ready";
    /** Condition type: an active and a pending cluster both exist. */
    public static final String UPGRADE_IN_PROGRESS = "UpgradeInProgress";
    /** Condition type: the desired spec went back during an incremental upgrade. */
    public static final String ROLLBACK_IN_PROGRESS = "RollbackInProgress";
    /** Condition type: suspend in progress. */
    public static final String SUSPENDING = "Suspending";
    /** Condition type: suspended. */
    public static final String SUSPENDED = "Suspended";

    /** Reason: first reconcile. */
    public static final String INITIALIZING = "Initializing";
    /** Reason: Ready=True. */
    public static final String NON_ZERO_SERVE_ENDPOINTS = "NonZeroServeEndpoints";
    /** Reason: Ready dropped to False. */
    public static final String ZERO_SERVE_ENDPOINTS = "ZeroServeEndpoints";
    /** Reason: initialisation took longer than the ray.io/initializing-timeout annotation. */
    public static final String INITIALIZING_TIMEOUT = "InitializingTimeout";
    /** Reason: the spec failed validation. */
    public static final String VALIDATION_FAILED = "ValidationFailed";
    /** Reason: both clusters exist. */
    public static final String BOTH_ACTIVE_PENDING_CLUSTERS_EXIST = "BothActivePendingClustersExist";
    /** Reason: no pending cluster. */
    public static final String NO_PENDING_CLUSTER = "NoPendingCluster";
    /** Reason: no active cluster. */
    public static final String NO_ACTIVE_CLUSTER = "NoActiveCluster";
    /** Reason: the cluster spec changed back. */
    public static final String DESIRED_CLUSTER_SPEC_CHANGED = "DesiredClusterSpecChanged";
    /** Reason: suspend requested. */
    public static final String SUSPEND_REQUESTED = "SuspendRequested";
    /** Reason: suspending. */
    public static final String SUSPEND_IN_PROGRESS = "SuspendInProgress";
    /** Reason: suspended. */
    public static final String SUSPEND_COMPLETE = "SuspendComplete";
    /** Reason: resumed after suspend. */
    public static final String RAY_SERVICE_RESUMED = "RayServiceResumed";

    private RayServiceConditions() {
    }
}
