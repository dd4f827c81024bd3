package io.kuberaysim.apiserver.registry.strategy;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.api.schema.Schema;
import io.kuberaysim.api.sim.NodeLifecycleRule;
import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.registry.ResourceStrategy;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * sim.kuberay.io NodeLifecycleRule (cluster-scoped, as Nodes are): a selector that parses, valid distributions, and
 * NotReady periods given as both their spacing and their length.
 */
public final class NodeLifecycleRuleStrategy implements ResourceStrategy {
    @Override
    public ResourceType type() {
        return ResourceTypes.NODELIFECYCLERULES;
    }

    @Override
    public Schema schema() {
        return NodeLifecycleRule.schema();
    }

    @Override
    public List<StatusCause> validate(ObjectNode object) {
        List<StatusCause> causes = new ArrayList<>();
        JsonNode spec = object.path("spec");
        SimulationFieldRules.selector(spec.get("selector"), "spec.selector", causes);
        SimulationFieldRules.distribution(spec.get("readyDelay"), "spec.readyDelay", causes);
        // a Node flipping NotReady more often than once a second would keep the virtual clock's loop busy for ever
        SimulationFieldRules.distribution(spec.get("notReadyEvery"), "spec.notReadyEvery", Duration.ofSeconds(1),
                causes);
        SimulationFieldRules.distribution(spec.get("notReadyFor"), "spec.notReadyFor", causes);
        if (spec.has("notReadyEvery") != spec.has("notReadyFor")) {
            causes.add(StatusCause.required(spec.has("notReadyEvery") ? "spec.notReadyFor" : "spec.notReadyEvery"));
        }
        return causes;
    }
}
