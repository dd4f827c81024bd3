package io.kuberaysim.api.sim;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;

/** What a {@link FaultScheduleSpec} injects, and which kind of object it picks as the target. */
public enum FaultType {
    /** Deletes a Pod (graceful). */
    DeletePod(ResourceTypes.PODS),
    /** The Pod's containers exit with {@code exitCode}; restartPolicy decides what follows. */
    CrashContainer(ResourceTypes.PODS),
    /** The Node is NotReady for {@code duration}. */
    NodeNotReady(ResourceTypes.NODES),
    /** Deletes the Node. */
    DeleteNode(ResourceTypes.NODES),
    /** Marks the Node unschedulable. */
    CordonNode(ResourceTypes.NODES),
    /** The RayJob's running Ray job fails. */
    FailRayJob(ResourceTypes.RAYJOBS),
    /** The RayJob's Ray job runs {@code duration} longer. */
    SlowRayJob(ResourceTypes.RAYJOBS),
    /** The Serve applications of the RayService's clusters become DEPLOY_FAILED. */
    FailServeApp(ResourceTypes.RAYSERVICES),
    /** The RayCluster's dashboard does not answer for {@code duration}. */
    DashboardUnreachable(ResourceTypes.RAYCLUSTERS),
    /** For {@code duration}, a {@code probability} share of the operator's writes fail with {@code code}. */
    ApiErrors(null);

    private final ResourceType target;

    FaultType(ResourceType target) {
        this.target = target;
    }

    /** The kind of object the fault picks; null when it has no target (the operator's API writes). */
    public ResourceType target() {
        return target;
    }
}
