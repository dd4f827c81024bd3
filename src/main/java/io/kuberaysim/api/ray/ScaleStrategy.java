package io.kuberaysim.api.ray;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Description;

/**
 * Which workers to remove when a group shrinks.
 *
 * @param workersToDelete Pod names to delete
 */
@Description("Explicit selection of workers to delete.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ScaleStrategy(
        @Description("Names of worker Pods to delete, typically set by the autoscaler.")
        List<String> workersToDelete) {
}
