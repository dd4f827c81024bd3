package io.kuberaysim.api.ray;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Default;
import io.kuberaysim.api.schema.Description;
import io.kuberaysim.api.schema.Minimum;

/**
 * When a deletion rule fires: exactly one of {@code jobStatus} or {@code jobDeploymentStatus}, plus a delay.
 *
 * @param jobStatus           Ray job outcome to match
 * @param jobDeploymentStatus deployment outcome to match
 * @param ttlSeconds          delay after the job ends
 */
@Description("Trigger of a deletion rule. Exactly one of jobStatus and jobDeploymentStatus is set.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record DeletionCondition(
        @Description("Ray job status that triggers the rule: SUCCEEDED or FAILED.")
        JobOutcome jobStatus,
        @Description("RayJob deployment status that triggers the rule; only Failed is allowed, e.g. to clean "
                + "up after a submission failure.")
        DeploymentOutcome jobDeploymentStatus,
        @Default("0")
        @Minimum(0)
        @Description("Seconds to wait after the job finished before the rule is applied.")
        Integer ttlSeconds) {

    /** Ray job statuses a rule may match. */
    public enum JobOutcome {
        /** The Ray job succeeded. */
        SUCCEEDED,
        /** The Ray job failed. */
        FAILED
    }

    /** Deployment statuses a rule may match. */
    public enum DeploymentOutcome {
        /** The RayJob deployment failed. */
        Failed
    }
}
