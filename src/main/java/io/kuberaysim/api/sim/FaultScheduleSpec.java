package io.kuberaysim.api.sim;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Description;
import io.kuberaysim.api.schema.Minimum;
import io.kuberaysim.api.schema.Required;

/**
 * When a schedule fires and what it picks: every {@code interval}, or at random times averaging
 * {@code ratePerMinute}; from {@code startAfter} to {@code stopAfter} after the schedule was created (or last
 * changed). Each time it picks {@code targets} objects matching the selectors with the seeded chaos stream.
 *
 * @param interval           fixed time between faults (Go duration); or
 * @param ratePerMinute      mean faults per minute, at exponentially distributed times
 * @param startAfter         no fault before this long after the schedule was created or changed (default 0s)
 * @param stopAfter          no fault after this long (default: never stops)
 * @param selector           label selector over the targets (Pods, RayJobs, RayServices, RayClusters in the
 *                           schedule's namespace; Nodes cluster-wide)
 * @param annotationSelector the same syntax over the targets' annotations
 * @param targets            how many targets each firing picks (default 1)
 * @param suspend            true = the schedule injects nothing
 * @param fault              what is injected
 */
@Description("When faults are injected, into which objects, and which fault.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record FaultScheduleSpec(
        @Description("Fixed time between faults, a Go duration such as 30s; or use ratePerMinute.")
        String interval,
        @Description("Mean faults per minute at random (exponentially spaced) times; or use interval.")
        Double ratePerMinute,
        @Description("No fault before this long after the schedule was created or changed; default 0s.")
        String startAfter,
        @Description("No fault after this long after the schedule was created or changed; default never.")
        String stopAfter,
        @Description("Label selector over the targets, kubectl -l syntax; empty selects every candidate.")
        String selector,
        @Description("Selector over the targets' annotations, same syntax.")
        String annotationSelector,
        @Minimum(1)
        @Description("Targets picked each time the schedule fires; default 1.")
        Integer targets,
        @Description("True injects nothing until set back to false.")
        Boolean suspend,
        @Required
        @Description("The fault injected each time.")
        Fault fault) {
}
