package io.kuberaysim.config;

import io.kuberaysim.controller.ray.cluster.RayClusterReconciler;
import io.kuberaysim.controller.ray.cluster.SimulatedAutoscaler;
import io.kuberaysim.controller.runtime.Controller;
import io.kuberaysim.controller.runtime.ControllerManager;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;

/**
 * Registers the RayCluster controller and the simulated Ray autoscaler on the {@link ControllerManager}.
 * {@code kuberay-sim.raycluster.requeue-seconds} is KubeRay's {@code RAYCLUSTER_DEFAULT_REQUEUE_SECONDS_ENV}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "kuberay-sim.controllers", havingValue = "true", matchIfMissing = true)
class RayClusterControllerConfiguration {

    @Bean
    Controller rayClusterController(ControllerManager manager,
            @Value("${kuberay-sim.raycluster.requeue-seconds:300}") long requeueSeconds) {
        return RayClusterReconciler.register(manager, Duration.ofSeconds(requeueSeconds));
    }

    @Bean
    Controller rayClusterAutoscaler(ControllerManager manager) {
        return SimulatedAutoscaler.register(manager);
    }
}
