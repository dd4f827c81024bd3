package io.kuberaysim.config;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.api.ray.RayCluster;
import io.kuberaysim.api.ray.RayJob;
import io.kuberaysim.api.ray.RayService;
import io.kuberaysim.apiserver.gc.GarbageCollector;
import io.kuberaysim.apiserver.gc.NamespaceLifecycle;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.ObjectExpiry;
import io.kuberaysim.apiserver.registry.ResourceStrategy;
import io.kuberaysim.apiserver.registry.WriteOptions;
import io.kuberaysim.apiserver.registry.strategy.ConfigMapStrategy;
import io.kuberaysim.apiserver.registry.strategy.RoleBindingStrategy;
import io.kuberaysim.apiserver.registry.strategy.RoleStrategy;
import io.kuberaysim.apiserver.registry.strategy.ServiceAccountStrategy;
import io.kuberaysim.apiserver.registry.strategy.CustomResourceStrategy;
import io.kuberaysim.apiserver.registry.strategy.EventStrategy;
import io.kuberaysim.apiserver.registry.strategy.JobStrategy;
import io.kuberaysim.apiserver.registry.strategy.LeaseStrategy;
import io.kuberaysim.apiserver.registry.strategy.NamespaceStrategy;
import io.kuberaysim.apiserver.registry.strategy.NodeStrategy;
import io.kuberaysim.apiserver.registry.strategy.PodStrategy;
import io.kuberaysim.apiserver.registry.strategy.ServiceStrategy;
import io.kuberaysim.apiserver.storage.InMemoryObjectStore;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import io.kuberaysim.controller.runtime.clock.WallClock;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Random;

/**
 * Wires the API machinery: clock, store, strategies, registry, garbage collector, namespace lifecycle and the
 * expiry of Events ({@code kuberay-sim.event-ttl}).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(SimProperties.class)
class ApiServerConfiguration {

    @Bean(destroyMethod = "close")
    Clock clock(SimProperties props) {
        if (props.virtual()) {
            VirtualClock clock = new VirtualClock(props.virtualStart());
            if (props.virtualSpeed() > 0) {
                clock.startFollowingWallClock(props.virtualSpeed());
            }
            return clock;
        }
        return new WallClock();
    }

    @Bean
    ObjectStore objectStore(SimProperties props) {
        return new InMemoryObjectStore(props.watchHistory());
    }

    @Bean
    GenericRegistry genericRegistry(ObjectStore store, Clock clock, SimProperties props) {
        return createRegistry(store, clock, props);
    }

    /** The registry with every served resource's strategy and the namespaces a cluster starts with. */
    static GenericRegistry createRegistry(ObjectStore store, Clock clock, SimProperties props) {
        List<ResourceStrategy> strategies = List.of(new NamespaceStrategy(), new NodeStrategy(), new PodStrategy(),
                new ServiceStrategy(), new EventStrategy(props.eventTtl()), new ConfigMapStrategy(),
                new ServiceAccountStrategy(), new JobStrategy(), new LeaseStrategy(), new RoleStrategy(),
                new RoleBindingStrategy(),
                new CustomResourceStrategy(ResourceTypes.RAYCLUSTERS, RayCluster.schema(), 53),
                new CustomResourceStrategy(ResourceTypes.RAYJOBS, RayJob.schema(), 47),
                new CustomResourceStrategy(ResourceTypes.RAYSERVICES, RayService.schema(), 47));
        Random random = props.virtual() ? new Random(props.seed()) : new Random();
        GenericRegistry registry = new GenericRegistry(store, strategies, clock, random);
        for (String ns : List.of("default", "kube-system", "kube-public", "kube-node-lease")) {
            ObjectNode obj = Json.object();
            obj.putObject("metadata").put("name", ns);
            registry.create(ResourceTypes.NAMESPACES, null, obj, WriteOptions.DEFAULT);
        }
        return registry;
    }

    @Bean
    KubeClient kubeClient(GenericRegistry registry) {
        return new KubeClient(registry);
    }

    @Bean(initMethod = "start", destroyMethod = "close")
    GarbageCollector garbageCollector(GenericRegistry registry, Clock clock) {
        return new GarbageCollector(registry, clock);
    }

    @Bean(initMethod = "start", destroyMethod = "close")
    ObjectExpiry objectExpiry(GenericRegistry registry, Clock clock) {
        return new ObjectExpiry(registry, clock);
    }

    @Bean(initMethod = "start", destroyMethod = "close")
    NamespaceLifecycle namespaceLifecycle(GenericRegistry registry, Clock clock) {
        return new NamespaceLifecycle(registry, clock, ResourceTypes.ALL_TYPES);
    }
}
