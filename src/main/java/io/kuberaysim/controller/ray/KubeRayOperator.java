package io.kuberaysim.controller.ray;

import io.kuberaysim.controller.ray.cluster.RayClusterReconciler;
import io.kuberaysim.controller.ray.dashboard.RayDashboardClient;
import io.kuberaysim.controller.ray.job.RayJobReconciler;
import io.kuberaysim.controller.ray.service.RayServiceReconciler;
import io.kuberaysim.controller.runtime.Controller;
import io.kuberaysim.controller.runtime.ControllerManager;

import java.time.Duration;
import java.util.Objects;

/**
 * The KubeRay operator installed on a {@link ControllerManager}: the RayCluster, RayJob and RayService controllers,
 * reaching Ray heads through a {@link RayDashboardClient} (KubeRay's {@code main.go} setting up its reconcilers).
 * The application's configuration and the test harness both install it through {@link #install}.
 *
 * @param rayCluster the RayCluster controller
 * @param rayJob     the RayJob controller
 * @param rayService the RayService controller
 */
public record KubeRayOperator(Controller rayCluster, Controller rayJob, Controller rayService) {

    /**
     * The operator's knobs.
     *
     * @param rayClusterRequeue how often a RayCluster is reconciled again when nothing changes (KubeRay's
     *                          {@code RAYCLUSTER_DEFAULT_REQUEUE_SECONDS_ENV})
     * @param seed              seed of generated names (RayJob cluster names and job ids), so runs are reproducible
     */
    public record Options(Duration rayClusterRequeue, long seed) {
        /** KubeRay's defaults: 300 s requeue; seed 42. */
        public static final Options DEFAULTS = new Options(RayClusterReconciler.DEFAULT_STEADY_REQUEUE, 42L);

        public Options {
            Objects.requireNonNull(rayClusterRequeue, "rayClusterRequeue");
        }
    }

    /** Registers the three controllers (before or after the manager started). */
    public static KubeRayOperator install(ControllerManager manager, RayDashboardClient dashboard, Options options) {
        Controller rayCluster = RayClusterReconciler.register(manager, options.rayClusterRequeue(),
                options.seed());
        Controller rayJob = RayJobReconciler.register(manager, dashboard, options.seed());
        Controller rayService = RayServiceReconciler.register(manager, dashboard, options.seed());
        return new KubeRayOperator(rayCluster, rayJob, rayService);
    }
}
