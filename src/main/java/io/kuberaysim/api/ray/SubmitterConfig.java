package io.kuberaysim.api.ray;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Description;

/**
 * Settings of the submitter.
 *
 * @param backoffLimit retries of the submitter Kubernetes Job
 */
@Description("Configuration of the job submitter.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record SubmitterConfig(
        @Description("backoffLimit of the submitter Kubernetes Job; the operator uses 2 when unset.")
        Integer backoffLimit) {
}
