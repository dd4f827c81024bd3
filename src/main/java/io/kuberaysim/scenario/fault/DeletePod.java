package io.kuberaysim.scenario.fault;

import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.DeleteOptions;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.scenario.ObjectRef;
import io.kuberaysim.scenario.ScenarioRun;
import io.kuberaysim.scenario.StepFailedException;
import io.kuberaysim.scenario.StepSource;

import java.util.List;

/**
 * {@code fault: {type: deletePod, name: x}} (or {@code selector}): deletes the Pod(s) as an eviction or
 * {@code kubectl delete pod} would, with their grace period; the owner decides what comes back.
 */
public record DeletePod(ObjectRef pods) implements Fault {
    @Override
    public void inject(ScenarioRun run) {
        List<StoredObject> found = pods.list(run.client());
        if (found.isEmpty()) {
            throw new StepFailedException("no " + pods + " to delete");
        }
        for (StoredObject p : found) {
            run.client().delete(ResourceTypes.PODS, p.namespace(), p.name(), DeleteOptions.propagation("Background"));
        }
    }

    @Override
    public String describe() {
        return "deletePod " + pods;
    }

    /** The {@code deletePod} type. */
    public static final class Kind implements FaultKind {
        @Override
        public String name() {
            return "deletePod";
        }

        @Override
        public Fault parse(StepSource source) {
            return new DeletePod(ObjectRef.of(ResourceTypes.PODS, source, true));
        }
    }
}
