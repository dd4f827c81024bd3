package io.kuberaysim.scenario.step;

import io.kuberaysim.scenario.ScenarioDurations;
import io.kuberaysim.scenario.ScenarioRun;
import io.kuberaysim.scenario.Step;
import io.kuberaysim.scenario.StepKind;
import io.kuberaysim.scenario.StepSource;

import java.time.Duration;

/** {@code advance: 10s}: moves the virtual clock, firing every timer due meanwhile. */
public record AdvanceStep(Duration by) implements Step {
    @Override
    public void run(ScenarioRun run) {
        run.clock().advance(by);
    }

    @Override
    public String describe() {
        return "advance " + ScenarioDurations.format(by);
    }

    /** The {@code advance} kind. */
    public static final class Kind implements StepKind {
        @Override
        public String name() {
            return "advance";
        }

        @Override
        public Step parse(StepSource source) {
            return new AdvanceStep(source.asDuration());
        }
    }
}
