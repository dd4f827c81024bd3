package io.kuberaysim.scenario.fault;

import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.scenario.ObjectRef;
import io.kuberaysim.scenario.ScenarioRun;
import io.kuberaysim.scenario.StepFailedException;
import io.kuberaysim.scenario.StepSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code fault: {type: nodeNotReady, name: sim-node-1}}: the Node's {@code Ready} condition becomes False through
 * {@code /status}, as a kubelet that stopped posting leaves it (what the console's NotReady button does).
 */
public record NodeNotReady(ObjectRef node) implements Fault {
    @Override
    public void inject(ScenarioRun run) {
        StoredObject n = node.get(run.client());
        if (n == null) {
            throw new StepFailedException(node + " does not exist");
        }
        ObjectNode copy = n.object().deepCopy();
        String now = run.clock().now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
        for (JsonNode c : copy.path("status").path("conditions")) {
            if ("Ready".equals(c.path("type").asString()) && c instanceof ObjectNode o) {
                o.put("status", "False").put("reason", "KubeletNotReady")
                        .put("message", "node marked NotReady by the scenario").put("lastTransitionTime", now)
                        .put("lastHeartbeatTime", now);
            }
        }
        run.client().updateStatus(ResourceTypes.NODES, copy);
    }

    @Override
    public String describe() {
        return "nodeNotReady " + node.name();
    }

    /** The {@code nodeNotReady} type. */
    public static final class Kind implements FaultKind {
        @Override
        public String name() {
            return "nodeNotReady";
        }

        @Override
        public Fault parse(StepSource source) {
            return new NodeNotReady(ObjectRef.of(ResourceTypes.NODES, source, false));
        }
    }
}
