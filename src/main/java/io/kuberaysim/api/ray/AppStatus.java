package io.kuberaysim.api.ray;

import java.time.Instant;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Description;

/**
 * State of one Serve application.
 *
 * @param status                  application status from Serve
 * @param message                 detail from Serve
 * @param healthLastUpdateTime    last health change
 * @param serveDeploymentStatuses deployments by name
 */
@Description("Status of a Ray Serve application.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record AppStatus(
        @Description("Application status from Ray Serve: NOT_STARTED, DEPLOYING, RUNNING, DEPLOY_FAILED, "
                + "DELETING or UNHEALTHY.")
        String status,
        @Description("Detail reported by Ray Serve.")
        String message,
        @Description("Last time the health of the application changed.")
        Instant healthLastUpdateTime,
        @Description("Status of each deployment of the application, by deployment name.")
        Map<String, ServeDeploymentStatus> serveDeploymentStatuses) {

    /** Application status. */
    public static final String NOT_STARTED = "NOT_STARTED";
    /** Application status. */
    public static final String DEPLOYING = "DEPLOYING";
    /** Application status. */
    public static final String RUNNING = "RUNNING";
    /** Application status. */
    public static final String DEPLOY_FAILED = "DEPLOY_FAILED";
    /** Application status. */
    public static final String DELETING = "DELETING";
    /** Application status. */
    public static final String UNHEALTHY = "UNHEALTHY";
}
