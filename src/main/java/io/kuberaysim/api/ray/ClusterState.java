package io.kuberaysim.api.ray;

/** Values of {@code RayClusterStatus.state}; plain strings on the wire. */
public final class ClusterState {
    /** All Pods are running and ready. */
    public static final String READY = "ready";
    /** Suspended and no Pods left. */
    public static final String SUSPENDED = "suspended";
    /** Deprecated; never set by current operators. */
    public static final String FAILED = "failed";

    private ClusterState() {
    }
}
