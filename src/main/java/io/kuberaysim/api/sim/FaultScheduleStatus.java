package io.kuberaysim.api.sim;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Description;

/**
 * What a schedule has done.
 *
 * @param injected          faults injected so far
 * @param lastInjectionTime when the last one was injected
 * @param lastFault         what it was, as in the timeline
 */
@Description("What the schedule has injected.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record FaultScheduleStatus(
        @Description("Faults injected so far.")
        Integer injected,
        @Description("Time of the last injected fault.")
        String lastInjectionTime,
        @Description("The last injected fault, as the timeline prints it.")
        String lastFault) {
}
