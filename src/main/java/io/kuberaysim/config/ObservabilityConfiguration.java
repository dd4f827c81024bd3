package io.kuberaysim.config;

import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.EtcdObjectStore;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.ControllerMetrics;
import io.kuberaysim.controller.runtime.LeaderElector;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.observability.health.ControllerChecks;
import io.kuberaysim.observability.health.HealthCheck;
import io.kuberaysim.observability.health.HealthChecks;
import io.kuberaysim.observability.health.ShutdownCheck;
import io.kuberaysim.observability.metrics.ApiServerRequestMetrics;
import io.kuberaysim.observability.metrics.ClockMetrics;
import io.kuberaysim.observability.metrics.ControllerRuntimeMetrics;
import io.kuberaysim.observability.metrics.RayClusterMetrics;
import io.kuberaysim.observability.metrics.RayJobMetrics;
import io.kuberaysim.observability.metrics.RayServiceMetrics;
import io.kuberaysim.observability.metrics.RequestMetricsFilter;
import io.kuberaysim.observability.metrics.SimulationMetrics;
import io.kuberaysim.observability.metrics.StorageObjectsMetrics;
import io.kuberaysim.observability.metrics.WatchEventsMetrics;
import io.kuberaysim.sim.SimulatedCluster;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.MultiCollector;
import jakarta.servlet.DispatcherType;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Health endpoints and Prometheus metrics: one Micrometer Prometheus registry holding kube-apiserver's request,
 * storage and watch metrics, client-go's and controller-runtime's controller metrics, the JVM's, and collectors
 * computing KubeRay's and the simulated cluster's series from the informer caches. {@code /metrics},
 * {@code /healthz}, {@code /livez} and {@code /readyz} are served from {@code io.kuberaysim.observability}.
 * {@code kuberay-sim.metrics.requests=false} leaves the request metrics out (for overhead measurements).
 */
@Configuration(proxyBeanMethods = false)
class ObservabilityConfiguration {

    @Bean(destroyMethod = "close")
    PrometheusMeterRegistry prometheusMeterRegistry(ObjectStore store, Clock clock) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        // Micrometer counts process CPU time in nanoseconds (process_cpu_time_ns_total); process_cpu_usage stays
        registry.config().meterFilter(MeterFilter.denyNameStartsWith("process.cpu.time"));
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        StorageObjectsMetrics.register(registry, store, ResourceTypes.ALL_TYPES);
        ClockMetrics.register(registry, clock);
        return registry;
    }

    @Bean(destroyMethod = "close")
    JvmGcMetrics jvmGcMetrics(PrometheusMeterRegistry registry) {
        JvmGcMetrics gc = new JvmGcMetrics();
        gc.bindTo(registry);
        return gc;
    }

    @Bean
    ControllerMetrics controllerMetrics(PrometheusMeterRegistry registry) {
        return new ControllerRuntimeMetrics(registry);
    }

    @Bean
    WatchEventsMetrics watchEventsMetrics(PrometheusMeterRegistry registry) {
        return new WatchEventsMetrics(registry);
    }

    @Bean
    ApiServerRequestMetrics apiServerRequestMetrics(PrometheusMeterRegistry registry) {
        return new ApiServerRequestMetrics(registry);
    }

    /**
     * Outermost, so every request is counted, those other filters turn away included. Registered but not enabled with
     * {@code kuberay-sim.metrics.requests=false}, decided at run time (the packaged jar's ahead-of-time bean
     * definitions are fixed when it is built).
     */
    @Bean
    FilterRegistrationBean<RequestMetricsFilter> requestMetricsFilter(ApiServerRequestMetrics metrics,
            @Value("${kuberay-sim.metrics.requests:true}") boolean enabled) {
        FilterRegistrationBean<RequestMetricsFilter> bean = new FilterRegistrationBean<>(new RequestMetricsFilter(metrics));
        bean.setOrder(Ordered.HIGHEST_PRECEDENCE);
        bean.setDispatcherTypes(DispatcherType.REQUEST);
        bean.setEnabled(enabled);
        return bean;
    }

    @Bean
    ShutdownCheck shutdownCheck() {
        return new ShutdownCheck();
    }

    /**
     * ping everywhere; with etcd storage, {@code etcd} on healthz and readyz; with the controller manager,
     * {@code controllers} on all three and {@code informer-sync} on readyz (a standby replica passes both: it runs
     * no controllers until elected) and, with leader election, {@code leader-election} on healthz and livez;
     * {@code shutdown} on readyz.
     */
    @Bean
    HealthChecks healthChecks(ShutdownCheck shutdown, ObjectProvider<ControllerManager> managers, ObjectStore store,
                              ObjectProvider<LeaderElector> electors, SimProperties props) {
        List<HealthCheck> healthz = new ArrayList<>(List.of(HealthCheck.ping()));
        List<HealthCheck> livez = new ArrayList<>(List.of(HealthCheck.ping()));
        List<HealthCheck> readyz = new ArrayList<>(List.of(HealthCheck.ping()));
        if (store instanceof EtcdObjectStore etcd) {
            // kube-apiserver's etcd check: one quick read; not on livez, a restart would not bring etcd back
            HealthCheck reachable = HealthCheck.of("etcd", () -> etcd.unavailable(Duration.ofSeconds(2)));
            healthz.add(reachable);
            readyz.add(reachable);
        }
        ControllerManager manager = managers.getIfAvailable();
        if (manager != null) {
            HealthCheck controllers = ControllerChecks.controllers(manager);
            HealthCheck informerSync = ControllerChecks.informerSync(manager);
            LeaderElector elector = electors.getIfAvailable();
            if (elector != null && props.leaderElection().enabledFor(props)) {
                controllers = ControllerChecks.whileLeading(controllers, elector);
                informerSync = ControllerChecks.whileLeading(informerSync, elector);
                healthz.add(ControllerChecks.leaderElection(elector));
                livez.add(ControllerChecks.leaderElection(elector));
            }
            healthz.add(controllers);
            livez.add(controllers);
            readyz.add(informerSync);
            readyz.add(controllers);
        }
        readyz.add(shutdown);
        return new HealthChecks(healthz, livez, readyz);
    }

    /**
     * KubeRay's operator metrics and the simulated cluster's, when the operator runs (none, i.e. null beans, with
     * {@code kuberay-sim.controllers=false}: see {@link ControllerConfiguration}).
     */
    @Configuration(proxyBeanMethods = false)
    static class OperatorMetrics {

        @Bean
        RayClusterMetrics rayClusterMetrics(ObjectProvider<ControllerManager> manager,
                                            PrometheusMeterRegistry registry) {
            return registered(manager, registry, RayClusterMetrics::new);
        }

        @Bean
        RayJobMetrics rayJobMetrics(ObjectProvider<ControllerManager> manager, PrometheusMeterRegistry registry) {
            return registered(manager, registry, RayJobMetrics::new);
        }

        @Bean
        RayServiceMetrics rayServiceMetrics(ObjectProvider<ControllerManager> manager,
                                            PrometheusMeterRegistry registry) {
            return registered(manager, registry, RayServiceMetrics::new);
        }

        @Bean
        SimulationMetrics simulationMetrics(ObjectProvider<ControllerManager> manager,
                                            ObjectProvider<SimulatedCluster> cluster,
                                            PrometheusMeterRegistry registry) {
            SimulatedCluster simulated = cluster.getIfAvailable();
            return registered(manager, registry, m -> new SimulationMetrics(m,
                    simulated == null ? null : simulated.rayDashboard().jobs()));
        }

        /** The collector registered with Prometheus, or null (no bean) without a controller manager. */
        private static <C extends MultiCollector> C registered(ObjectProvider<ControllerManager> manager,
                PrometheusMeterRegistry registry, Function<ControllerManager, C> collector) {
            ControllerManager controllers = manager.getIfAvailable();
            if (controllers == null) {
                return null;
            }
            C metrics = collector.apply(controllers);
            registry.getPrometheusRegistry().register(metrics);
            return metrics;
        }
    }
}
