package io.kuberaysim.apiserver.registry.strategy;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.api.schema.Schema;
import io.kuberaysim.api.sim.FaultSchedule;
import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.registry.ResourceStrategy;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * sim.kuberay.io FaultSchedule: exactly one of interval (above zero) and ratePerMinute (above zero), selectors that
 * parse, durations that are not negative, a probability from 0 to 1 and an error code of 409 or 500. The fault type
 * itself is an enum of the schema, so an unknown type is refused as an unsupported value of
 * {@code spec.fault.type}.
 */
public final class FaultScheduleStrategy implements ResourceStrategy {
    @Override
    public ResourceType type() {
        return ResourceTypes.FAULTSCHEDULES;
    }

    @Override
    public Schema schema() {
        return FaultSchedule.schema();
    }

    /** One firing a second on average, as the interval's floor. */
    private static final int MAX_RATE_PER_MINUTE = 60;

    @Override
    public List<StatusCause> validate(ObjectNode object) {
        List<StatusCause> causes = new ArrayList<>();
        JsonNode spec = object.path("spec");
        boolean interval = spec.has("interval");
        boolean rate = spec.has("ratePerMinute");
        if (interval == rate) {
            causes.add(interval ? StatusCause.forbidden("spec.ratePerMinute", "may not be set with spec.interval")
                    : new StatusCause("FieldValueRequired", "Required value: one of interval or ratePerMinute",
                    "spec.interval"));
        }
        Duration every = SimulationFieldRules.duration(spec.get("interval"), "spec.interval", causes);
        // a schedule firing faster than once a second would keep the virtual clock's loop busy for ever
        if (every != null && every.compareTo(Duration.ofSeconds(1)) < 0) {
            causes.add(StatusCause.invalid("spec.interval", spec.get("interval").asString(),
                    "must be at least 1s"));
        }
        JsonNode perMinute = spec.get("ratePerMinute");
        if (perMinute != null && perMinute.isNumber() && !(perMinute.asDouble() > 0)) {
            causes.add(StatusCause.invalid("spec.ratePerMinute", perMinute.numberValue(), "must be greater than 0"));
        } else if (perMinute != null && perMinute.isNumber() && perMinute.asDouble() > MAX_RATE_PER_MINUTE) {
            causes.add(StatusCause.invalid("spec.ratePerMinute", perMinute.numberValue(),
                    "must be no more than " + MAX_RATE_PER_MINUTE));
        }
        SimulationFieldRules.duration(spec.get("startAfter"), "spec.startAfter", causes);
        SimulationFieldRules.duration(spec.get("stopAfter"), "spec.stopAfter", causes);
        SimulationFieldRules.selector(spec.get("selector"), "spec.selector", causes);
        SimulationFieldRules.selector(spec.get("annotationSelector"), "spec.annotationSelector", causes);
        JsonNode fault = spec.path("fault");
        SimulationFieldRules.distribution(fault.get("duration"), "spec.fault.duration", causes);
        JsonNode probability = fault.get("probability");
        if (probability != null && probability.isNumber()
                && !(probability.asDouble() >= 0 && probability.asDouble() <= 1)) {
            causes.add(StatusCause.invalid("spec.fault.probability", probability.numberValue(),
                    "must be between 0 and 1"));
        }
        JsonNode code = fault.get("code");
        if (code != null && code.isIntegralNumber() && code.asInt() != 409 && code.asInt() != 500) {
            causes.add(StatusCause.notSupported("spec.fault.code", code.asString(), List.of("409", "500")));
        }
        String type = fault.path("type").asString("");
        if (List.of("NodeNotReady", "DashboardUnreachable", "ApiErrors", "SlowRayJob").contains(type)
                && !fault.has("duration")) {
            causes.add(new StatusCause("FieldValueRequired", "Required value: " + type + " needs a duration",
                    "spec.fault.duration"));
        }
        return causes;
    }
}
