package io.kuberaysim.config;

import io.kuberaysim.controller.runtime.Controller;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.ray.service.RayServiceReconciler;
import io.kuberaysim.sim.ray.ServeApplications;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The RayService controller and the simulated Ray Serve API it deploys applications through, registered on the
 * {@link ControllerManager} when {@code kuberay-sim.controllers} is true (the default).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "kuberay-sim.controllers", havingValue = "true", matchIfMissing = true)
class RayServiceControllerConfiguration {

    @Bean
    ServeApplications serveApplications(Clock clock) {
        return new ServeApplications(clock);
    }

    @Bean
    Controller rayServiceController(ControllerManager manager, ServeApplications serve, SimProperties props) {
        return RayServiceReconciler.register(manager, serve, props.seed());
    }
}
