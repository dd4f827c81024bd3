package io.kuberaysim.config;

import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.LeaderElector;
import io.kuberaysim.controller.runtime.ControllerMetrics;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.ray.KubeRayOperator;
import io.kuberaysim.sim.SimulatedCluster;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

/**
 * The controllers (when {@code kuberay-sim.controllers} is true, the default): one {@link ControllerManager} with
 * the KubeRay operator and the simulated cluster installed by {@link SimulatedCluster#withOperator}, as the test
 * harness installs them, started once the application is ready, or once this replica is elected leader.
 * <p>
 * With {@code kuberay-sim.controllers=false} every bean here is null (Spring registers no instance: injection points
 * asking through {@link ObjectProvider} get none). The choice is made when the beans are created, not by a condition
 * on the bean definitions, because the packaged jar runs with Spring's ahead-of-time bean definitions
 * ({@code KuberaySimApplication}), which are fixed when the jar is built.
 */
@Configuration(proxyBeanMethods = false)
class ControllerConfiguration {

    @Bean(destroyMethod = "close")
    ControllerManager controllerManager(GenericRegistry registry, Clock clock, SimProperties props,
            ObjectProvider<ControllerMetrics> metrics) {
        if (!props.controllers()) {
            return null; // a bare API server
        }
        return new ControllerManager(registry, clock, props.reconcileConcurrency(),
                metrics.getIfAvailable(() -> ControllerMetrics.NONE));
    }

    /** The cluster; its operator, nodes and controllers are installed by {@link ManagerStarter}. */
    @Bean
    SimulatedCluster simulatedCluster(ObjectProvider<ControllerManager> manager, SimProperties props) {
        ControllerManager controllers = manager.getIfAvailable();
        return controllers == null ? null
                : new SimulatedCluster(controllers, props.simulation(), props.operator().seed());
    }

    /**
     * Who runs the controllers: with leader election (the default on etcd) the replica that holds the
     * {@code kube-system/kuberay-sim-controllers} Lease; otherwise this process, always.
     */
    @Bean(destroyMethod = "close")
    LeaderElector leaderElector(KubeClient client, Clock clock, SimProperties props,
            ObjectProvider<ControllerManager> manager) {
        ControllerManager controllers = manager.getIfAvailable();
        if (controllers == null) {
            return null;
        }
        SimProperties.LeaderElectionProperties le = props.leaderElection();
        return new LeaderElector(client, clock, new LeaderElector.Settings("kube-system", "kuberay-sim-controllers",
                le.identity(), le.leaseDuration(), le.renewDeadline(), le.retryPeriod()), controllers::start,
                controllers::close);
    }

    /** Starts the manager when the application is ready, after everything registered. */
    @Bean
    ManagerStarter controllerManagerStarter(ObjectProvider<ControllerManager> manager,
            ObjectProvider<SimulatedCluster> cluster, ObjectProvider<LeaderElector> elector, SimProperties props) {
        ControllerManager controllers = manager.getIfAvailable();
        if (controllers == null) {
            return null;
        }
        return new ManagerStarter(controllers, cluster.getObject(), props.operator(),
                props.leaderElection().enabledFor(props) ? elector.getObject() : null);
    }

    /**
     * On {@link ApplicationReadyEvent}: installs the operator and the simulated cluster (its nodes registered through
     * the API), then starts the manager, or the election that starts it. Done here rather than while the context is
     * built, so the server answers HTTP sooner (as kube-apiserver serves {@code /version} before it is ready);
     * {@code /readyz} fails until the manager runs.
     */
    static final class ManagerStarter {
        private final ControllerManager manager;
        private final SimulatedCluster cluster;
        private final KubeRayOperator.Options operator;
        private final LeaderElector elector;

        ManagerStarter(ControllerManager manager, SimulatedCluster cluster, KubeRayOperator.Options operator,
                LeaderElector elector) {
            this.manager = manager;
            this.cluster = cluster;
            this.operator = operator;
            this.elector = elector;
        }

        @EventListener(ApplicationReadyEvent.class)
        public void onReady() {
            cluster.installOperator(operator);
            if (elector != null) {
                elector.start();
            } else {
                manager.start();
            }
        }
    }
}
