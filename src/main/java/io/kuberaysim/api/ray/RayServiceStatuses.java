package io.kuberaysim.api.ray;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Description;

/**
 * Observed state of a RayService (KubeRay {@code RayServiceStatuses}); see {@link RayServiceConditions}.
 *
 * @param conditions           conditions
 * @param lastUpdateTime       last status change
 * @param serviceStatus        deprecated: "Running" while Ready is True
 * @param numServeEndpoints    ready Pods behind the serve Service
 * @param observedGeneration   generation the status was computed from
 * @param activeServiceStatus  the cluster serving traffic
 * @param pendingServiceStatus the cluster being prepared
 */
@Description("Observed state of a RayService.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record RayServiceStatuses(
        @Description("Conditions of the RayService, such as Ready and UpgradeInProgress.")
        List<Condition> conditions,
        @Description("Time of the last status update.")
        Instant lastUpdateTime,
        @Description("Deprecated: Running while the Ready condition is True, empty otherwise.")
        String serviceStatus,
        @Description("Number of ready Pods selected by the serve Service.")
        Integer numServeEndpoints,
        @Description("The metadata.generation this status was computed from.")
        Long observedGeneration,
        @Description("Status of the cluster that currently serves traffic.")
        RayServiceStatus activeServiceStatus,
        @Description("Status of the cluster being prepared to replace the active one.")
        RayServiceStatus pendingServiceStatus) {

    /** Value of the deprecated {@code serviceStatus} while Ready is True. */
    public static final String RUNNING = "Running";

    /** The conditions, never null. */
    public List<Condition> conditionList() {
        return conditions == null ? List.of() : conditions;
    }

    /** The condition of the given type, or {@code null}. */
    public Condition condition(String type) {
        return conditionList().stream().filter(c -> type.equals(c.type())).findFirst().orElse(null);
    }
}
