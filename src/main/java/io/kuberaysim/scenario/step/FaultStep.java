package io.kuberaysim.scenario.step;

import io.kuberaysim.scenario.ScenarioRun;
import io.kuberaysim.scenario.Step;
import io.kuberaysim.scenario.StepKind;
import io.kuberaysim.scenario.StepSource;
import io.kuberaysim.scenario.fault.Fault;
import io.kuberaysim.scenario.fault.FaultKind;
import io.kuberaysim.scenario.fault.FaultKinds;

/** {@code fault: {type: deletePod, name: x}}: injects one of the registered {@link FaultKinds}. */
public record FaultStep(Fault fault) implements Step {
    @Override
    public void run(ScenarioRun run) {
        fault.inject(run);
    }

    @Override
    public String describe() {
        return "fault " + fault.describe();
    }

    /** The {@code fault} kind, over a set of fault types. */
    public static final class Kind implements StepKind {
        private final FaultKinds faults;

        public Kind(FaultKinds faults) {
            this.faults = faults;
        }

        @Override
        public String name() {
            return "fault";
        }

        @Override
        public Step parse(StepSource s) {
            if (!s.node().isObject()) {
                throw s.error("must be a map with type (one of " + String.join(", ", faults.all().keySet()) + ")");
            }
            String type = s.text("type");
            FaultKind kind = faults.find(type).orElseThrow(() -> s.field("type").error("unknown fault type \""
                    + type + "\"; known: " + String.join(", ", faults.all().keySet())));
            return new FaultStep(kind.parse(s));
        }
    }
}
