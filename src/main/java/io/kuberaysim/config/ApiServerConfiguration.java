package io.kuberaysim.config;

import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.gc.GarbageCollector;
import io.kuberaysim.apiserver.gc.NamespaceLifecycle;
import io.kuberaysim.apiserver.gc.RootCaCertPublisher;
import io.kuberaysim.apiserver.gc.ServiceAccountsController;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.ObjectExpiry;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import io.kuberaysim.controller.runtime.clock.WallClock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;


/**
 * Wires the API machinery: clock, strategies, registry (on {@link StorageConfiguration}'s store), garbage collector,
 * namespace lifecycle, the expiry of Events ({@code kuberay-sim.event-ttl}), and every namespace's {@code default}
 * ServiceAccount and {@code kube-root-ca.crt} ConfigMap.
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
    GenericRegistry genericRegistry(ObjectStore store, Clock clock, SimProperties props) {
        return createRegistry(store, clock, props);
    }

    /** The registry with every served resource's strategy and the namespaces a cluster starts with. */
    static GenericRegistry createRegistry(ObjectStore store, Clock clock, SimProperties props) {
        return ApiServerWiring.registry(store, clock, props);
    }

    @Bean
    KubeClient kubeClient(GenericRegistry registry) {
        return new KubeClient(registry);
    }

    @Bean(initMethod = "start", destroyMethod = "close")
    GarbageCollector garbageCollector(GenericRegistry registry, Clock clock, ObjectProvider<ControllerManager> manager) {
        // its Warning Events go through the controllers' recorders (one naming sequence); none without controllers
        ControllerManager controllers = manager.getIfAvailable();
        return new GarbageCollector(registry, clock,
                controllers == null ? null : controllers.legacyEventRecorder(GarbageCollector.COMPONENT, GarbageCollector.FIELD_MANAGER));
    }

    @Bean(initMethod = "start", destroyMethod = "close")
    ObjectExpiry objectExpiry(GenericRegistry registry, Clock clock) {
        return new ObjectExpiry(registry, clock);
    }

    @Bean(initMethod = "start", destroyMethod = "close")
    NamespaceLifecycle namespaceLifecycle(GenericRegistry registry, Clock clock) {
        return new NamespaceLifecycle(registry, clock, ResourceTypes.ALL_TYPES);
    }

    @Bean(initMethod = "start", destroyMethod = "close")
    ServiceAccountsController serviceAccountsController(GenericRegistry registry, Clock clock) {
        return new ServiceAccountsController(registry, clock);
    }

    @Bean(initMethod = "start", destroyMethod = "close")
    RootCaCertPublisher rootCaCertPublisher(GenericRegistry registry, Clock clock) {
        return new RootCaCertPublisher(registry, clock);
    }
}
