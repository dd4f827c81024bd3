package io.kuberaysim.scenario.step;

import io.kuberaysim.scenario.ObjectCondition;
import io.kuberaysim.scenario.ObjectRef;
import io.kuberaysim.scenario.ScenarioDurations;
import io.kuberaysim.scenario.ScenarioRun;
import io.kuberaysim.scenario.Step;
import io.kuberaysim.scenario.StepFailedException;
import io.kuberaysim.scenario.StepKind;
import io.kuberaysim.scenario.StepSource;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * {@code waitFor: {kind, name, jsonPath, equals, timeout: 60s}}: runs the cluster from timer to timer until the
 * condition holds, at most {@code timeout} of virtual time (default 5 minutes); a timeout fails the run with what
 * was last seen.
 */
public record WaitForStep(ObjectCondition condition, Duration timeout) implements Step {
    static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(5);

    @Override
    public void run(ScenarioRun run) {
        if (!run.await(() -> condition.check(run.client()).holds(), timeout)) {
            throw new StepFailedException("timed out after " + ScenarioDurations.format(timeout) + " waiting for "
                    + condition + "; last seen: " + condition.check(run.client()).seen());
        }
    }

    @Override
    public String describe() {
        return "waitFor " + condition;
    }

    /** The {@code waitFor} kind. */
    public static final class Kind implements StepKind {
        @Override
        public String name() {
            return "waitFor";
        }

        @Override
        public Step parse(StepSource source) {
            Set<String> fields = new LinkedHashSet<>(ObjectRef.FIELDS);
            fields.addAll(ObjectCondition.FIELDS);
            fields.add("timeout");
            source.object(fields);
            return new WaitForStep(ObjectCondition.read(source), source.duration("timeout", DEFAULT_TIMEOUT));
        }
    }
}
