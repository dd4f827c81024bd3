package io.kuberaysim.api.sim;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Description;

/**
 * A duration the simulation draws from the seeded chaos stream: exactly one of {@code fixed}, {@code min} with
 * {@code max} (uniform), or {@code mean} with an optional {@code jitter} (uniform in mean ± jitter). Every value is a
 * Go duration ({@code 500ms}, {@code 5s}, {@code 1m30s}), never negative.
 *
 * @param fixed  always this long
 * @param min    lower bound of a uniform range
 * @param max    upper bound of a uniform range
 * @param mean   centre of a jittered value
 * @param jitter largest distance from the mean (default 0)
 */
@Description("A duration: fixed, uniform between min and max, or mean ± jitter; Go duration strings such as 5s.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record Distribution(
        @Description("Always this long.")
        String fixed,
        @Description("Lower bound of a uniform range (with max).")
        String min,
        @Description("Upper bound of a uniform range (with min).")
        String max,
        @Description("Centre of a jittered duration.")
        String mean,
        @Description("Largest distance from mean; default 0s.")
        String jitter) {
}
