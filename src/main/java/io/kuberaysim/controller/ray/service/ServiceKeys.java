package io.kuberaysim.controller.ray.service;

import io.kuberaysim.controller.ray.ClusterSpecHash;
import io.kuberaysim.controller.ray.RayLabels;

/**
 * Keys and names only the RayService controller uses (KubeRay {@code utils/constant.go}); the labels and
 * annotations it shares with the other Ray controllers are in {@link RayLabels}.
 */
public final class ServiceKeys {
    /** Finalizer of a RayService. */
    public static final String FINALIZER = "ray.io/rayservice-finalizer";
    /** Annotation on a RayCluster: the {@link ClusterSpecHash} of the spec it was built from. */
    public static final String HASH = "ray.io/hash-without-replicas-and-workers-to-delete";
    /** Annotation on a RayCluster: how many worker groups the hashed spec had. */
    public static final String NUM_WORKER_GROUPS = "ray.io/num-worker-groups";
    /** Value of {@link RayLabels#ORIGINATED_FROM_CRD}. */
    public static final String CRD = "RayService";
    /** Event reporting component. */
    public static final String COMPONENT = "rayservice-controller";

    private ServiceKeys() {
    }
}
