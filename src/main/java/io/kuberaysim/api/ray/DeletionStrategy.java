package io.kuberaysim.api.ray;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Description;

/**
 * What a finished RayJob cleans up: either the legacy {@code onSuccess}/{@code onFailure} pair or a list of rules.
 *
 * @param onSuccess     legacy policy after success
 * @param onFailure     legacy policy after failure
 * @param deletionRules rule list
 */
@Description("Which resources of a RayJob are deleted after the job finishes, and when. Needs the "
        + "RayJobDeletionPolicy feature gate.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record DeletionStrategy(
        @Description("Deprecated: policy applied when the job succeeds; use deletionRules.")
        DeletionPolicy onSuccess,
        @Description("Deprecated: policy applied when the job fails; use deletionRules.")
        DeletionPolicy onFailure,
        @Description("Deletion rules. When several are overdue at once, the most far-reaching one runs first.")
        List<DeletionRule> deletionRules) {
}
