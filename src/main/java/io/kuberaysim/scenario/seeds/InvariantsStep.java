package io.kuberaysim.scenario.seeds;

import io.kuberaysim.scenario.ScenarioRun;
import io.kuberaysim.scenario.Step;
import io.kuberaysim.scenario.StepKind;
import io.kuberaysim.scenario.StepSource;
import io.kuberaysim.sim.invariants.InvariantChecker;
import io.kuberaysim.sim.invariants.Violation;

import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code invariants: settled}: an expectation that KubeRay's invariants hold now — those checked continuously since
 * the run started, and those that hold once faults have stopped and the cluster has settled (every Pod's owner
 * exists, each worker group has its clamped replicas). Put it after the faults stop and a {@code waitFor} has let
 * the cluster converge. See {@link InvariantChecker}.
 */
public final class InvariantsStep implements Step {
    private final InvariantWatch watch;

    private InvariantsStep(InvariantWatch watch) {
        this.watch = watch;
    }

    @Override
    public void run(ScenarioRun run) {
        InvariantChecker checker = watch.checkerOf(run.clock());
        List<Violation> broken = checker == null ? List.of() : new java.util.ArrayList<>(checker.violations());
        if (checker == null) {
            try (InvariantChecker late = new InvariantChecker(run.client().registry().store(), run.clock())) {
                broken.addAll(late.checkSettled(run.client()));
            }
        } else {
            broken.addAll(checker.checkSettled(run.client()));
        }
        run.record(describe(), broken.isEmpty(), "broken: " + broken.stream().map(Violation::line)
                .collect(Collectors.joining("; ")));
    }

    @Override
    public String describe() {
        return "invariants hold (continuous and settled)";
    }

    /** The {@code invariants} step kind; its value is {@code settled}. */
    public static final class Kind implements StepKind {
        private final InvariantWatch watch;

        public Kind(InvariantWatch watch) {
            this.watch = watch;
        }

        @Override
        public String name() {
            return "invariants";
        }

        @Override
        public Step parse(StepSource source) {
            if (!source.node().isString() || !"settled".equals(source.node().asString())) {
                throw source.error("must be settled");
            }
            return new InvariantsStep(watch);
        }
    }
}
