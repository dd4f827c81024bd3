package io.kuberaysim.api.ray;

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Description;

/**
 * State of one Serve deployment as reported by the Ray dashboard.
 *
 * @param status               UPDATING, HEALTHY or UNHEALTHY
 * @param message              detail from Serve
 * @param healthLastUpdateTime last health change
 */
@Description("Status of a Ray Serve deployment.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ServeDeploymentStatus(
        @Description("Deployment status from Ray Serve: UPDATING, HEALTHY or UNHEALTHY.")
        String status,
        @Description("Detail reported by Ray Serve.")
        String message,
        @Description("Last time the health of the deployment changed.")
        Instant healthLastUpdateTime) {

    /** Deployment status: rolling out. */
    public static final String UPDATING = "UPDATING";
    /** Deployment status: healthy. */
    public static final String HEALTHY = "HEALTHY";
    /** Deployment status: unhealthy. */
    public static final String UNHEALTHY = "UNHEALTHY";
}
