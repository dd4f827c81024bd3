package io.kuberaysim.scenario.seeds;

import io.kuberaysim.scenario.ObjectCondition;
import io.kuberaysim.scenario.ObjectRef;
import io.kuberaysim.scenario.ScenarioRun;
import io.kuberaysim.scenario.Step;
import io.kuberaysim.scenario.StepFailedException;
import io.kuberaysim.scenario.StepKind;
import io.kuberaysim.scenario.StepSource;
import io.kuberaysim.sim.invariants.InvariantChecker;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * {@code invariant: {kind: RayCluster, name: x, jsonPath: .status.state, matches: "|ready"}}: a condition of the
 * {@code expect} kind that must hold from this step to the end of the run. It is checked now and after every change
 * to objects of its kind; each time it breaks, the run fails with a timeline line {@code invariant <description>
 * broken: <what was seen>} at that time.
 */
public final class UserInvariantStep implements Step {
    private final InvariantWatch watch;
    private final ObjectCondition condition;

    private UserInvariantStep(InvariantWatch watch, ObjectCondition condition) {
        this.watch = watch;
        this.condition = condition;
    }

    @Override
    public void run(ScenarioRun run) {
        InvariantChecker checker = watch.checkerOf(run.clock());
        if (checker == null) {
            throw new StepFailedException("invariants are checked only when the scenario runs with `run`");
        }
        var client = run.client();
        checker.addRule(condition.toString(), condition.ref().type(), () -> {
            ObjectCondition.Outcome o = condition.check(client);
            return o.holds() ? null : "saw " + o.seen();
        });
    }

    @Override
    public String describe() {
        return "invariant " + condition;
    }

    /** The {@code invariant} step kind: the fields of {@code expect}'s object conditions. */
    public static final class Kind implements StepKind {
        private final InvariantWatch watch;

        public Kind(InvariantWatch watch) {
            this.watch = watch;
        }

        @Override
        public String name() {
            return "invariant";
        }

        @Override
        public Step parse(StepSource source) {
            Set<String> fields = new LinkedHashSet<>(ObjectRef.FIELDS);
            fields.addAll(ObjectCondition.FIELDS);
            source.object(fields);
            return new UserInvariantStep(watch, ObjectCondition.read(source));
        }
    }
}
