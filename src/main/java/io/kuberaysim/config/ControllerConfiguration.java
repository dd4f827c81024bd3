package io.kuberaysim.config;

import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.ControllerMetrics;
import io.kuberaysim.controller.runtime.clock.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

/**
 * The controller runtime: one {@link ControllerManager} (when {@code kuberay-sim.controllers} is true, the
 * default), started once the application is ready. Reconcilers register through
 * {@link ControllerManager#controller(String)} from their own configuration classes, before or after start.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(prefix = "kuberay-sim", name = "controllers", havingValue = "true", matchIfMissing = true)
class ControllerConfiguration {

    @Bean(destroyMethod = "close")
    ControllerManager controllerManager(GenericRegistry registry, Clock clock,
            @Value("${kuberay-sim.reconcile-concurrency:1}") int concurrency, ObjectProvider<ControllerMetrics> metrics) {
        return new ControllerManager(registry, clock, concurrency, metrics.getIfAvailable(() -> ControllerMetrics.NONE));
    }

    /** Starts the manager when the application is ready, after every configuration had its chance to register. */
    @Bean
    ManagerStarter controllerManagerStarter(ControllerManager manager) {
        return new ManagerStarter(manager);
    }

    /** Starts the manager on {@link ApplicationReadyEvent}. */
    static final class ManagerStarter {
        private final ControllerManager manager;

        ManagerStarter(ControllerManager manager) {
            this.manager = manager;
        }

        @EventListener(ApplicationReadyEvent.class)
        public void onReady() {
            manager.start();
        }
    }
}
