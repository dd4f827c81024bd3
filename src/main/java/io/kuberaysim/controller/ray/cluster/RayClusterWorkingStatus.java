package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.api.ray.RayClusterStatus;
import io.kuberaysim.controller.ray.WorkingStatus;

import java.time.Instant;

/**
 * A RayCluster status as {@link RayClusterStatusCalculator} (KubeRay's {@code calculateStatus}) computed it, written
 * as {@link WorkingStatus} says, with {@code lastUpdateTime} the time of the write.
 */
record RayClusterWorkingStatus(RayClusterStatus calculated) implements WorkingStatus<RayClusterStatus> {

    @Override
    public boolean inconsistentWith(RayClusterStatus old) {
        return RayClusterStatusCalculator.inconsistent(old, calculated);
    }

    @Override
    public RayClusterStatus toStatus(Instant writeTime) {
        RayClusterStatus s = calculated;
        return new RayClusterStatus(s.state(), s.reason(), s.desiredCPU(), s.desiredMemory(), s.desiredGPU(),
                s.desiredTPU(), s.readyWorkerReplicas(), s.availableWorkerReplicas(), s.desiredWorkerReplicas(),
                s.minWorkerReplicas(), s.maxWorkerReplicas(), s.endpoints(), s.head(), writeTime,
                s.stateTransitionTimes(), s.observedGeneration(), s.conditions());
    }
}
