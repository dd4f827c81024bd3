package io.kuberaysim.api.ray;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Description;

/**
 * A legacy per-outcome deletion policy.
 *
 * @param policy what to delete
 */
@Description("Deletion policy applied for one job outcome (legacy form).")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record DeletionPolicy(
        @Description("What to delete: DeleteCluster, DeleteWorkers, DeleteSelf or DeleteNone.")
        DeletionPolicyType policy) {
}
