package io.kuberaysim.apiserver.registry.strategy;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.ResourceStrategy;

/**
 * apiextensions.k8s.io/v1 CustomResourceDefinition: cluster-scoped, read-only here. The custom resources this server
 * serves are built in, so their definitions ({@link CustomResourceDefinitions}) are stored at start and the registry
 * refuses every write of them ({@link ResourceTypes#isReadOnly}); get, list, watch and selection by
 * {@code metadata.name} are the defaults of every kind.
 */
public final class CustomResourceDefinitionStrategy implements ResourceStrategy {
    @Override
    public ResourceType type() {
        return ResourceTypes.CUSTOMRESOURCEDEFINITIONS;
    }
}
