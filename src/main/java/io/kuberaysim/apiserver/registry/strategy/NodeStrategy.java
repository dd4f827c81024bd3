package io.kuberaysim.apiserver.registry.strategy;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.ResourceStrategy;

/** core/v1 Node: cluster-scoped; the simulated cluster registers its nodes through the API like kubelets do. */
public final class NodeStrategy implements ResourceStrategy {
    @Override
    public ResourceType type() {
        return ResourceTypes.NODES;
    }

    @Override
    public boolean tracksGeneration() {
        return false;
    }
}
