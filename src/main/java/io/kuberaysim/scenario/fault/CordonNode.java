package io.kuberaysim.scenario.fault;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.PatchType;
import io.kuberaysim.scenario.ObjectRef;
import io.kuberaysim.scenario.ScenarioRun;
import io.kuberaysim.scenario.StepFailedException;
import io.kuberaysim.scenario.StepSource;
import tools.jackson.databind.node.ObjectNode;

/** {@code fault: {type: cordonNode, name: sim-node-1}}: {@code spec.unschedulable: true}, as {@code kubectl cordon}. */
public record CordonNode(ObjectRef node) implements Fault {
    @Override
    public void inject(ScenarioRun run) {
        if (node.get(run.client()) == null) {
            throw new StepFailedException(node + " does not exist");
        }
        ObjectNode patch = Json.object();
        patch.putObject("spec").put("unschedulable", true);
        run.client().patch(ResourceTypes.NODES, null, node.name(), PatchType.MERGE, patch);
    }

    @Override
    public String describe() {
        return "cordonNode " + node.name();
    }

    /** The {@code cordonNode} type. */
    public static final class Kind implements FaultKind {
        @Override
        public String name() {
            return "cordonNode";
        }

        @Override
        public Fault parse(StepSource source) {
            return new CordonNode(ObjectRef.of(ResourceTypes.NODES, source, false));
        }
    }
}
