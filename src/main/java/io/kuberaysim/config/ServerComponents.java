package io.kuberaysim.config;

import org.springframework.context.annotation.ImportSelector;
import org.springframework.core.type.AnnotationMetadata;

/**
 * The application's own Spring components, listed instead of found by component scanning: a scan reads every class
 * file of the application (~560) at each start to find these few, ~100 ms of the main thread's CPU at load 15–19
 * (BENCHMARKS.md, start). Names rather than class literals, so the components keep their package-private
 * visibility. {@code ServerComponentsTest} fails when a class annotated as a component is missing here.
 */
public final class ServerComponents implements ImportSelector {
    static final String[] COMPONENTS = {
            "io.kuberaysim.apiserver.http.ContainerErrorController",
            "io.kuberaysim.apiserver.http.ConvertedResourceHandler",
            "io.kuberaysim.apiserver.http.DiscoveryController",
            "io.kuberaysim.apiserver.http.OpenApiController",
            "io.kuberaysim.apiserver.http.OpenApiV2Controller",
            "io.kuberaysim.apiserver.http.PodBindingController",
            "io.kuberaysim.apiserver.http.PodLogs",
            "io.kuberaysim.apiserver.http.ResourceHandler",
            "io.kuberaysim.apiserver.http.ResourcePathMapping",
            "io.kuberaysim.apiserver.http.ResponseRenderer",
            "io.kuberaysim.apiserver.http.StatusErrorAdvice",
            "io.kuberaysim.apiserver.http.TableConverter",
            "io.kuberaysim.apiserver.http.VersionController",
            "io.kuberaysim.apiserver.http.WatchStreams",
            "io.kuberaysim.config.ApiServerConfiguration",
            "io.kuberaysim.config.ControllerConfiguration",
            "io.kuberaysim.config.HttpServerConfiguration",
            "io.kuberaysim.config.ObservabilityConfiguration",
            "io.kuberaysim.config.StorageConfiguration",
            "io.kuberaysim.config.SwaggerDocumentation",
            "io.kuberaysim.console.ConsoleConfiguration",
            "io.kuberaysim.console.ExamplesController",
            "io.kuberaysim.observability.health.HealthEndpoints",
            "io.kuberaysim.observability.metrics.MetricsEndpoint",
            "io.kuberaysim.security.SecurityConfiguration",
            "io.kuberaysim.security.SelfSubjectReviewController",
            "io.kuberaysim.sim.http.ClockController",
            "io.kuberaysim.sim.http.ScenarioController",
            "io.kuberaysim.sim.http.TimelineController",
    };

    @Override
    public String[] selectImports(AnnotationMetadata importingClassMetadata) {
        return COMPONENTS.clone();
    }
}
