package io.kuberaysim.api.ray;

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Description;
import io.kuberaysim.api.schema.Minimum;
import io.kuberaysim.api.schema.Required;

/**
 * A metav1 {@code Condition} as used in the status of the Ray resources.
 *
 * @param type               condition type, e.g. {@code HeadPodReady}
 * @param status             True, False or Unknown
 * @param observedGeneration metadata.generation the condition was computed from
 * @param lastTransitionTime when status last changed
 * @param reason             CamelCase reason
 * @param message            human-readable detail
 */
@Description("Details of one aspect of the current state of the resource.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Condition(
        @Required
        @Description("Type of the condition in CamelCase, e.g. HeadPodReady or Ready.")
        String type,
        @Required
        @Description("Status of the condition: True, False or Unknown.")
        Status status,
        @Minimum(0)
        @Description("The metadata.generation this condition was set for.")
        Long observedGeneration,
        @Required
        @Description("Last time the status of the condition changed.")
        Instant lastTransitionTime,
        @Required
        @Description("Machine-readable CamelCase reason for the last transition.")
        String reason,
        @Required
        @Description("Human-readable message about the transition; may be empty.")
        String message) {

    /** Condition status values. */
    public enum Status {
        /** The condition holds. */
        True,
        /** The condition does not hold. */
        False,
        /** The state is not known. */
        Unknown
    }

    /** Whether {@code status} is True. */
    @JsonIgnore
    public boolean isTrue() {
        return status == Status.True;
    }
}
