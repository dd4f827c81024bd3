package io.kuberaysim.scenario.fault;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.scenario.ObjectRef;
import io.kuberaysim.scenario.ScenarioRun;
import io.kuberaysim.scenario.StepFailedException;
import io.kuberaysim.scenario.StepSource;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * {@code fault: {type: failPod, name: x}}: the Pod's containers die and it ends Failed (phase Failed through
 * {@code /status}, as a kubelet reports a Pod whose restartPolicy is Never); the Pod stays, as on a cluster.
 */
public record FailPod(ObjectRef pods) implements Fault {
    @Override
    public void inject(ScenarioRun run) {
        List<StoredObject> found = pods.list(run.client());
        if (found.isEmpty()) {
            throw new StepFailedException("no " + pods + " to fail");
        }
        for (StoredObject p : found) {
            ObjectNode patch = Json.object();
            ObjectNode status = patch.putObject("status");
            status.put("phase", "Failed");
            status.put("reason", "Error");
            status.put("message", "failed by the scenario");
            run.client().as("kubelet").patchStatus(ResourceTypes.PODS, p.namespace(), p.name(), patch);
        }
    }

    @Override
    public String describe() {
        return "failPod " + pods;
    }

    /** The {@code failPod} type. */
    public static final class Kind implements FaultKind {
        @Override
        public String name() {
            return "failPod";
        }

        @Override
        public Fault parse(StepSource source) {
            return new FailPod(ObjectRef.of(ResourceTypes.PODS, source, true));
        }
    }
}
