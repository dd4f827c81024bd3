package io.kuberaysim.controller.ray.cluster;

/**
 * An error that stops a RayCluster reconcile pass. {@code marker} is the ReplicaFailure reason KubeRay wraps
 * into Pod create/delete errors ({@code utils/constant.go}); null for errors that leave ReplicaFailure alone.
 */
public final class ReconcileFailure extends RuntimeException {
    private final String marker;

    public ReconcileFailure(String marker, String message) {
        super(message);
        this.marker = marker;
    }

    /** The ReplicaFailure reason, or null. */
    public String marker() {
        return marker;
    }
}
