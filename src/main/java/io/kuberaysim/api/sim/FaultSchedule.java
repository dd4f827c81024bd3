package io.kuberaysim.api.sim;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Description;
import io.kuberaysim.api.schema.PreserveUnknownFields;
import io.kuberaysim.api.schema.Schema;
import io.kuberaysim.api.schema.SchemaGenerator;
import tools.jackson.databind.node.ObjectNode;

/**
 * A {@code sim.kuberay.io/v1alpha1} FaultSchedule: injects one kind of fault at a fixed interval or at random times
 * into objects it picks with the seeded chaos stream.
 *
 * @param apiVersion {@code sim.kuberay.io/v1alpha1}
 * @param kind       {@code FaultSchedule}
 * @param metadata   standard object metadata
 * @param spec       when, where and what
 * @param status     what was injected so far
 */
@Description("Injects a fault at a fixed interval or at random times into objects picked with the seeded chaos "
        + "stream.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record FaultSchedule(
        @Description("Versioned schema of this representation of an object.")
        String apiVersion,
        @Description("REST resource this object represents.")
        String kind,
        @PreserveUnknownFields
        @Description("Standard object metadata.")
        ObjectNode metadata,
        @Description("When faults are injected, into which objects, and which fault.")
        FaultScheduleSpec spec,
        @Description("What the schedule has injected, written by the simulation.")
        FaultScheduleStatus status) {

    /** Kind. */
    public static final String KIND = "FaultSchedule";

    /** The structural schema of the whole resource. */
    public static Schema schema() {
        return SchemaGenerator.generate(FaultSchedule.class);
    }
}
