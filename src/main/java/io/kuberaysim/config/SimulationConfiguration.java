package io.kuberaysim.config;

import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.sim.SimulatedCluster;
import io.kuberaysim.sim.SimulationSettings;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;

/**
 * The simulated cluster (nodes, scheduler, kubelet, Job controller) on the controller manager, when
 * {@code kuberay-sim.controllers} is true. Knobs: {@code kuberay-sim.nodes.*} and {@code kuberay-sim.kubelet.*}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(prefix = "kuberay-sim", name = "controllers", havingValue = "true", matchIfMissing = true)
class SimulationConfiguration {

    @Bean
    SimulationSettings simulationSettings(
            @Value("${kuberay-sim.nodes.count:4}") int count,
            @Value("${kuberay-sim.nodes.cpu:16}") String cpu,
            @Value("${kuberay-sim.nodes.memory:64Gi}") String memory,
            @Value("${kuberay-sim.nodes.pods:110}") int pods,
            @Value("${kuberay-sim.nodes.gpu-count:0}") int gpuCount,
            @Value("${kuberay-sim.nodes.gpus-per-node:8}") int gpusPerNode,
            @Value("${kuberay-sim.kubelet.startup-seconds:2}") double startup,
            @Value("${kuberay-sim.kubelet.termination-seconds:1}") double termination) {
        return new SimulationSettings(count, cpu, memory, pods, gpuCount, gpusPerNode,
                Duration.ofMillis(Math.round(startup * 1000)), Duration.ofMillis(Math.round(termination * 1000)));
    }

    /** Registers the nodes and the controllers before the manager starts (on ApplicationReadyEvent). */
    @Bean(initMethod = "start")
    SimulatedCluster simulatedCluster(ControllerManager manager, SimulationSettings settings) {
        return new SimulatedCluster(manager, settings);
    }
}
