package io.kuberaysim.apiserver.registry.strategy;

import io.fabric8.kubernetes.api.model.Node;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.registry.ResourceStrategy;
import io.kuberaysim.apiserver.registry.SelectableFields;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * core/v1 Node: cluster-scoped; the simulated cluster registers its nodes through the API like kubelets do. Capacity
 * and allocatable are what the scheduler divides, so they are checked on every write, status included.
 */
public final class NodeStrategy implements ResourceStrategy {
    @Override
    public ResourceType type() {
        return ResourceTypes.NODES;
    }

    @Override
    public Class<?> model() {
        return Node.class;
    }

    @Override
    public boolean tracksGeneration() {
        return false;
    }

    @Override
    public List<StatusCause> validate(ObjectNode object) {
        JsonNode status = object.path("status");
        List<StatusCause> causes = new ArrayList<>(ResourceListRules.node(status.get("capacity"), "status.capacity"));
        causes.addAll(ResourceListRules.node(status.get("allocatable"), "status.allocatable"));
        return causes;
    }

    @Override
    public List<StatusCause> validateStatusUpdate(ObjectNode object, JsonNode old) {
        return validate(object);
    }

    /** kube-apiserver selects Nodes by name and {@code spec.unschedulable} ("true"/"false") only. */
    @Override
    public Map<String, Function<JsonNode, String>> selectableFields() {
        return SelectableFields.with(SelectableFields.name(), Map.of("spec.unschedulable",
                o -> Boolean.toString(o.path("spec").path("unschedulable").asBoolean(false))));
    }
}
