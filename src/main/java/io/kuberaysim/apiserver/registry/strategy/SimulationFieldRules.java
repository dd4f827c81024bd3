package io.kuberaysim.apiserver.registry.strategy;

import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.selection.LabelSelector;
import io.kuberaysim.controller.ray.GoDuration;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.List;

/**
 * Field rules shared by the sim.kuberay.io kinds: selectors in {@code kubectl -l} syntax, Go durations that are not
 * negative, and distributions with exactly one form. Each broken rule is a cause naming its field, so a bad rule or
 * schedule is a 422 Invalid that says what to fix.
 */
final class SimulationFieldRules {
    private SimulationFieldRules() {
    }

    static void selector(JsonNode value, String field, List<StatusCause> causes) {
        if (value == null || !value.isString()) {
            return; // absent, or a type error the schema reports
        }
        try {
            LabelSelector.parse(value.asString());
        } catch (IllegalArgumentException e) {
            causes.add(StatusCause.invalid(field, value.asString(), e.getMessage()));
        }
    }

    /** A Go duration that is not negative; returns it, or null when absent or invalid (a cause was added). */
    static Duration duration(JsonNode value, String field, List<StatusCause> causes) {
        if (value == null || !value.isString()) {
            return null;
        }
        Duration d;
        try {
            d = GoDuration.parse(value.asString());
        } catch (IllegalArgumentException e) {
            causes.add(StatusCause.invalid(field, value.asString(),
                    "must be a duration such as 500ms, 30s or 1m30s"));
            return null;
        }
        if (d.isNegative()) {
            causes.add(StatusCause.invalid(field, value.asString(), "must be greater than or equal to 0s"));
            return null;
        }
        return d;
    }

    /** {@code fixed}, {@code min} with {@code max} (min ≤ max), or {@code mean} with optional {@code jitter}. */
    static void distribution(JsonNode value, String field, List<StatusCause> causes) {
        distribution(value, field, Duration.ZERO, causes);
    }

    /** A distribution whose every draw is at least {@code floor}. */
    static void distribution(JsonNode value, String field, Duration floor, List<StatusCause> causes) {
        if (value == null || !value.isObject()) {
            return;
        }
        boolean fixed = value.has("fixed");
        boolean range = value.has("min") || value.has("max");
        boolean mean = value.has("mean") || value.has("jitter");
        int forms = (fixed ? 1 : 0) + (range ? 1 : 0) + (mean ? 1 : 0);
        if (forms != 1) {
            causes.add(StatusCause.invalid(field, value.toString(),
                    "must set exactly one of fixed, min and max, or mean (with jitter)"));
            return;
        }
        if (fixed) {
            atLeast(value.get("fixed"), duration(value.get("fixed"), field + ".fixed", causes), floor,
                    field + ".fixed", "", causes);
        } else if (range) {
            if (!value.has("min") || !value.has("max")) {
                causes.add(StatusCause.required(field + (value.has("min") ? ".max" : ".min")));
                return;
            }
            Duration min = duration(value.get("min"), field + ".min", causes);
            Duration max = duration(value.get("max"), field + ".max", causes);
            atLeast(value.get("min"), min, floor, field + ".min", "", causes);
            if (min != null && max != null && min.compareTo(max) > 0) {
                causes.add(StatusCause.invalid(field + ".max", value.get("max").asString(),
                        "must be greater than or equal to min"));
            }
        } else {
            if (!value.has("mean")) {
                causes.add(StatusCause.required(field + ".mean"));
                return;
            }
            Duration average = duration(value.get("mean"), field + ".mean", causes);
            Duration jitter = duration(value.get("jitter"), field + ".jitter", causes);
            if (average != null) {
                atLeast(value.get("mean"), jitter == null ? average : average.minus(jitter), floor, field + ".mean",
                        jitter == null ? "" : "less jitter ", causes);
            }
        }
    }

    private static void atLeast(JsonNode value, Duration d, Duration floor, String field, String what,
                                List<StatusCause> causes) {
        if (d != null && d.compareTo(floor) < 0) {
            causes.add(StatusCause.invalid(field, value.asString(),
                    what + "must be at least " + GoDuration.format(floor)));
        }
    }
}
