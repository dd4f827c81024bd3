package io.kuberaysim.apiserver.registry.strategy;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.api.schema.Schema;
import io.kuberaysim.api.sim.PodLifecycleRule;
import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.registry.ResourceStrategy;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

/** sim.kuberay.io PodLifecycleRule: selectors that parse, durations and distributions that are valid. */
public final class PodLifecycleRuleStrategy implements ResourceStrategy {
    @Override
    public ResourceType type() {
        return ResourceTypes.PODLIFECYCLERULES;
    }

    @Override
    public Schema schema() {
        return PodLifecycleRule.schema();
    }

    @Override
    public List<StatusCause> validate(ObjectNode object) {
        List<StatusCause> causes = new ArrayList<>();
        JsonNode spec = object.path("spec");
        SimulationFieldRules.selector(spec.get("selector"), "spec.selector", causes);
        SimulationFieldRules.selector(spec.get("annotationSelector"), "spec.annotationSelector", causes);
        for (String d : List.of("startupDelay", "readinessDelay", "runTime")) {
            SimulationFieldRules.distribution(spec.get(d), "spec." + d, causes);
        }
        return causes;
    }
}
