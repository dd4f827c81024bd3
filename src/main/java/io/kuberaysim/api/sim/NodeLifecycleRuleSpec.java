package io.kuberaysim.api.sim;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Description;

/**
 * How the simulated Nodes a rule selects come and go: time to Ready after registration, and recurring NotReady
 * periods.
 *
 * @param selector      label selector over Nodes ({@code kubectl -l} syntax); empty = every Node
 * @param readyDelay    from a Node's creation to Ready (Nodes that are not Ready yet)
 * @param notReadyEvery time between NotReady periods (from the end of the last one)
 * @param notReadyFor   length of each NotReady period
 */
@Description("How the simulated Nodes this rule selects become Ready and go NotReady.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record NodeLifecycleRuleSpec(
        @Description("Label selector over Nodes, kubectl -l syntax; empty selects every Node.")
        String selector,
        @Description("Time from a Node's creation to Ready, for Nodes not Ready yet.")
        Distribution readyDelay,
        @Description("Time between NotReady periods; with notReadyFor.")
        Distribution notReadyEvery,
        @Description("Length of each NotReady period.")
        Distribution notReadyFor) {
}
