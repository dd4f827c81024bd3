package io.kuberaysim.config;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.api.ray.RayCluster;
import io.kuberaysim.api.ray.RayJob;
import io.kuberaysim.api.ray.RayService;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.IdentityStreams;
import io.kuberaysim.apiserver.registry.ResourceStrategy;
import io.kuberaysim.apiserver.registry.WriteOptions;
import io.kuberaysim.apiserver.registry.strategy.ConfigMapStrategy;
import io.kuberaysim.apiserver.registry.strategy.SecretStrategy;
import io.kuberaysim.apiserver.registry.strategy.RoleBindingStrategy;
import io.kuberaysim.apiserver.registry.strategy.RoleStrategy;
import io.kuberaysim.apiserver.registry.strategy.ServiceAccountStrategy;
import io.kuberaysim.apiserver.registry.strategy.CustomResourceDefinitionStrategy;
import io.kuberaysim.apiserver.registry.strategy.CustomResourceDefinitions;
import io.kuberaysim.apiserver.registry.strategy.CustomResourceStrategy;
import io.kuberaysim.apiserver.registry.strategy.EventStrategy;
import io.kuberaysim.apiserver.registry.strategy.FaultScheduleStrategy;
import io.kuberaysim.apiserver.registry.strategy.NodeLifecycleRuleStrategy;
import io.kuberaysim.apiserver.registry.strategy.PodLifecycleRuleStrategy;
import io.kuberaysim.apiserver.registry.strategy.JobStrategy;
import io.kuberaysim.apiserver.registry.strategy.LeaseStrategy;
import io.kuberaysim.apiserver.registry.strategy.NamespaceStrategy;
import io.kuberaysim.apiserver.registry.strategy.NodeStrategy;
import io.kuberaysim.apiserver.registry.strategy.PodStrategy;
import io.kuberaysim.apiserver.registry.strategy.ServiceAccountAdmission;
import io.kuberaysim.apiserver.registry.strategy.ServiceStrategy;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.controller.runtime.clock.Clock;
import tools.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The API server's composition without Spring: the registry with every served resource's strategy. The Spring
 * configuration and the in-process simulator ({@link io.kuberaysim.embedded.EmbeddedSimulator}) both build it here,
 * so they serve the same API.
 */
public final class ApiServerWiring {
    private ApiServerWiring() {
    }

    /**
     * The registry with every served resource's strategy, the namespaces a cluster starts with and the definitions of
     * the custom resources.
     */
    public static GenericRegistry registry(ObjectStore store, Clock clock, SimProperties props) {
        IdentityStreams random = props.virtual() ? IdentityStreams.seeded(props.seed()) : IdentityStreams.unseeded();
        PodStrategy pods = new PodStrategy(new ServiceAccountAdmission(random.tokenVolumeNames(), clock));
        List<ResourceStrategy> strategies = List.of(new NamespaceStrategy(), new NodeStrategy(), pods,
                new ServiceStrategy(), new EventStrategy(props.eventTtl()), new ConfigMapStrategy(),
                new SecretStrategy(),
                new ServiceAccountStrategy(), new JobStrategy(), new LeaseStrategy(), new RoleStrategy(),
                new RoleBindingStrategy(), new CustomResourceDefinitionStrategy(),
                new CustomResourceStrategy(ResourceTypes.RAYCLUSTERS, RayCluster.schema()),
                new CustomResourceStrategy(ResourceTypes.RAYJOBS, RayJob.schema()),
                new CustomResourceStrategy(ResourceTypes.RAYSERVICES, RayService.schema()),
                new PodLifecycleRuleStrategy(), new NodeLifecycleRuleStrategy(), new FaultScheduleStrategy());
        GenericRegistry registry = new GenericRegistry(store, strategies, clock, random);
        for (String ns : List.of("default", "kube-system", "kube-public", "kube-node-lease")) {
            if (store.get(ResourceTypes.NAMESPACES, null, ns) != null) {
                continue; // a shared or restarted store (etcd) has them already
            }
            ObjectNode obj = Json.object();
            obj.putObject("metadata").put("name", ns);
            registry.create(ResourceTypes.NAMESPACES, null, obj, WriteOptions.DEFAULT);
        }
        CustomResourceDefinitions.install(store, strategies, clock.now());
        return registry;
    }
}
