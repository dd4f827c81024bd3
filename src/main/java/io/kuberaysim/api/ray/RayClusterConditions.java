package io.kuberaysim.api.ray;

/** Condition types and reasons written to {@code RayClusterStatus.conditions}. */
public final class RayClusterConditions {
    /** Condition type copied from the head Pod's readiness. */
    public static final String HEAD_POD_READY = "HeadPodReady";
    /** Condition type: all Pods became ready for the first time. */
    public static final String RAY_CLUSTER_PROVISIONED = "RayClusterProvisioned";
    /** Condition type: creating or deleting Pods failed. */
    public static final String REPLICA_FAILURE = "ReplicaFailure";
    /** Condition type and reason: suspend requested, Pods being deleted. */
    public static final String RAY_CLUSTER_SUSPENDING = "RayClusterSuspending";
    /** Condition type and reason: suspended, no Pods left. */
    public static final String RAY_CLUSTER_SUSPENDED = "RayClusterSuspended";

    /** Reason of HeadPodReady=True when the Pod condition has none. */
    public static final String HEAD_POD_RUNNING_AND_READY = "HeadPodRunningAndReady";
    /** Reason of HeadPodReady=False without a head Pod. */
    public static final String HEAD_POD_NOT_FOUND = "HeadPodNotFound";
    /** Reason of RayClusterProvisioned=False. */
    public static final String RAY_CLUSTER_PODS_PROVISIONING = "RayClusterPodsProvisioning";
    /** Reason of RayClusterProvisioned=True. */
    public static final String ALL_POD_RUNNING_AND_READY_FIRST_TIME = "AllPodRunningAndReadyFirstTime";
    /** ReplicaFailure reason. */
    public static final String FAILED_DELETE_ALL_PODS = "FailedDeleteAllPods";
    /** ReplicaFailure reason. */
    public static final String FAILED_DELETE_HEAD_POD = "FailedDeleteHeadPod";
    /** ReplicaFailure reason. */
    public static final String FAILED_CREATE_HEAD_POD = "FailedCreateHeadPod";
    /** ReplicaFailure reason. */
    public static final String FAILED_DELETE_WORKER_POD = "FailedDeleteWorkerPod";
    /** ReplicaFailure reason. */
    public static final String FAILED_CREATE_WORKER_POD = "FailedCreateWorkerPod";

    private RayClusterConditions() {
    }
}
