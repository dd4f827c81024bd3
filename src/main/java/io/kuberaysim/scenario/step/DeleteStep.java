package io.kuberaysim.scenario.step;

import io.kuberaysim.apiserver.registry.DeleteOptions;
import io.kuberaysim.scenario.ObjectRef;
import io.kuberaysim.scenario.ScenarioRun;
import io.kuberaysim.scenario.Step;
import io.kuberaysim.scenario.StepFailedException;
import io.kuberaysim.scenario.StepKind;
import io.kuberaysim.scenario.StepSource;

import java.util.LinkedHashSet;
import java.util.Set;

/** {@code delete: {kind, name}}: a background delete, as kubectl's; an absent object fails the run (kubectl's NotFound). */
public record DeleteStep(ObjectRef ref) implements Step {
    @Override
    public void run(ScenarioRun run) {
        if (!run.client().delete(ref.type(), ref.namespace(), ref.name(), DeleteOptions.propagation("Background"))) {
            throw new StepFailedException(ref + " does not exist");
        }
    }

    @Override
    public String describe() {
        return "delete " + ref;
    }

    /** The {@code delete} kind. */
    public static final class Kind implements StepKind {
        @Override
        public String name() {
            return "delete";
        }

        @Override
        public Step parse(StepSource s) {
            Set<String> fields = new LinkedHashSet<>(ObjectRef.FIELDS);
            fields.remove("selector");
            s.object(fields);
            return new DeleteStep(ObjectRef.read(s, s.namespace(), true));
        }
    }
}
