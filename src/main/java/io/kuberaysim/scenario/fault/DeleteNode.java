package io.kuberaysim.scenario.fault;

import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.scenario.ObjectRef;
import io.kuberaysim.scenario.ScenarioRun;
import io.kuberaysim.scenario.StepFailedException;
import io.kuberaysim.scenario.StepSource;

/** {@code fault: {type: deleteNode, name: sim-node-1}}: the Node goes away, and with it the Pods bound to it. */
public record DeleteNode(ObjectRef node) implements Fault {
    @Override
    public void inject(ScenarioRun run) {
        if (!run.client().delete(ResourceTypes.NODES, null, node.name())) {
            throw new StepFailedException(node + " does not exist");
        }
    }

    @Override
    public String describe() {
        return "deleteNode " + node.name();
    }

    /** The {@code deleteNode} type. */
    public static final class Kind implements FaultKind {
        @Override
        public String name() {
            return "deleteNode";
        }

        @Override
        public Fault parse(StepSource source) {
            return new DeleteNode(ObjectRef.of(ResourceTypes.NODES, source, false));
        }
    }
}
