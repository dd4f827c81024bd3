package io.kuberaysim.config;

import io.kuberaysim.controller.ray.job.RayJobController;
import io.kuberaysim.controller.runtime.Controller;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.sim.ray.RayDashboard;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The RayJob controller, the simulated Ray dashboards and the simulated job submitter. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "kuberay-sim.controllers", havingValue = "true", matchIfMissing = true)
class RayJobControllerConfiguration {

    @Bean
    RayDashboard rayDashboard(ControllerManager manager) {
        return RayJobController.dashboard(manager);
    }

    @Bean
    Controller rayJobController(ControllerManager manager, RayDashboard dashboard, SimProperties props) {
        return RayJobController.register(manager, dashboard, props.seed());
    }
}
