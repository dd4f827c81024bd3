package io.kuberaysim.api.ray;

/** What a RayJob deletes once it finishes. */
public enum DeletionPolicyType {
    /** Delete the whole RayCluster. */
    DeleteCluster,
    /** Delete only the worker Pods. */
    DeleteWorkers,
    /** Delete the RayJob itself, and with it everything it owns. */
    DeleteSelf,
    /** Delete nothing. */
    DeleteNone
}
