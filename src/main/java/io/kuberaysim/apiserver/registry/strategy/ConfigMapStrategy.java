package io.kuberaysim.apiserver.registry.strategy;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.ResourceStrategy;

/** core/v1 ConfigMap: stored as given. */
public final class ConfigMapStrategy implements ResourceStrategy {
    @Override
    public ResourceType type() {
        return ResourceTypes.CONFIGMAPS;
    }

    @Override
    public boolean tracksGeneration() {
        return false;
    }
}
