package io.kuberaysim.api.ray;

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Description;

/**
 * Times reported by the Ray dashboard for the Ray job.
 *
 * @param startTime when Ray started the job
 * @param endTime   when Ray finished the job
 */
@Description("Information about the Ray job taken from the Ray dashboard.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record RayJobInfo(
        @Description("Time the Ray job started, according to Ray.")
        Instant startTime,
        @Description("Time the Ray job ended, according to Ray.")
        Instant endTime) {
}
