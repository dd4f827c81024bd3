package io.kuberaysim.apiserver.registry.strategy;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.ResourceStrategy;

/**
 * core/v1 ServiceAccount: stored as given (DNS-1123 subdomain names), no generation. KubeRay creates one for a
 * RayCluster's autoscaler; nothing here issues tokens.
 */
public final class ServiceAccountStrategy implements ResourceStrategy {
    @Override
    public ResourceType type() {
        return ResourceTypes.SERVICEACCOUNTS;
    }

    @Override
    public boolean tracksGeneration() {
        return false;
    }

    /** kube-apiserver's store for this kind sets ReturnDeletedObject: a DELETE answers the object. */
    @Override
    public boolean returnDeletedObject() {
        return true;
    }
}
