package io.kuberaysim.api.ray;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Description;
import io.kuberaysim.api.schema.Required;

/**
 * One deletion action and its trigger.
 *
 * @param policy    what to delete
 * @param condition when to delete it
 */
@Description("A deletion action together with the condition that triggers it.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record DeletionRule(
        @Required
        @Description("What to delete when the condition is met.")
        DeletionPolicyType policy,
        @Required
        @Description("When the rule is triggered.")
        DeletionCondition condition) {
}
