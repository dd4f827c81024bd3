package io.kuberaysim.controller.ray.dashboard;

import java.util.Map;

/**
 * A Serve application as the dashboard reports it.
 *
 * @param status      {@value #NOT_STARTED}, {@value #DEPLOYING}, {@value #RUNNING}, {@value #DEPLOY_FAILED} or
 *                    {@value #UNHEALTHY}
 * @param message     detail, empty when running
 * @param deployments deployments by name, in config order
 */
public record ServeApplication(String status, String message, Map<String, Deployment> deployments) {
    /** Application status. */
    public static final String NOT_STARTED = "NOT_STARTED";
    /** Application status. */
    public static final String DEPLOYING = "DEPLOYING";
    /** Application status. */
    public static final String RUNNING = "RUNNING";
    /** Application status. */
    public static final String DEPLOY_FAILED = "DEPLOY_FAILED";
    /** Application and deployment status. */
    public static final String UNHEALTHY = "UNHEALTHY";
    /** Deployment status. */
    public static final String UPDATING = "UPDATING";
    /** Deployment status. */
    public static final String HEALTHY = "HEALTHY";

    /** Whether the application runs. */
    public boolean running() {
        return RUNNING.equals(status);
    }

    /**
     * A deployment of an application.
     *
     * @param status  {@value #UPDATING}, {@value #HEALTHY} or {@value #UNHEALTHY}
     * @param message detail, empty when healthy
     */
    public record Deployment(String status, String message) {
    }
}
