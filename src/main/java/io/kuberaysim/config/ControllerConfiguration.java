package io.kuberaysim.config;

import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.ControllerMetrics;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.sim.SimulatedCluster;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

/**
 * The controllers (when {@code kuberay-sim.controllers} is true, the default): one {@link ControllerManager} with
 * the KubeRay operator and the simulated cluster installed by {@link SimulatedCluster#withOperator}, as the test
 * harness installs them, started once the application is ready.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(prefix = "kuberay-sim", name = "controllers", havingValue = "true", matchIfMissing = true)
class ControllerConfiguration {

    @Bean(destroyMethod = "close")
    ControllerManager controllerManager(GenericRegistry registry, Clock clock, SimProperties props,
            ObjectProvider<ControllerMetrics> metrics) {
        return new ControllerManager(registry, clock, props.reconcileConcurrency(),
                metrics.getIfAvailable(() -> ControllerMetrics.NONE));
    }

    @Bean
    SimulatedCluster simulatedCluster(ControllerManager manager, SimProperties props) {
        return SimulatedCluster.withOperator(manager, props.simulation(), props.operator());
    }

    /** Starts the manager when the application is ready, after everything registered. */
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
