package io.kuberaysim.scenario;

import io.kuberaysim.scenario.step.AdvanceStep;
import io.kuberaysim.scenario.step.ApplyStep;
import io.kuberaysim.scenario.step.DeleteStep;
import io.kuberaysim.scenario.step.ExpectStep;
import io.kuberaysim.scenario.step.FaultStep;
import io.kuberaysim.scenario.step.PatchStep;
import io.kuberaysim.scenario.step.WaitForStep;
import io.kuberaysim.scenario.fault.FaultKinds;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** The step kinds a reader knows, by name. */
public final class StepKinds {
    private final Map<String, StepKind> kinds = new TreeMap<>();

    /** The built-in kinds: apply, patch, delete, advance, waitFor, fault (with {@code faults}), expect. */
    public static StepKinds defaults(FaultKinds faults) {
        return new StepKinds().register(new ApplyStep.Kind()).register(new PatchStep.Kind())
                .register(new DeleteStep.Kind()).register(new AdvanceStep.Kind()).register(new WaitForStep.Kind())
                .register(new FaultStep.Kind(faults)).register(new ExpectStep.Kind());
    }

    /** The built-in kinds with the built-in faults. */
    public static StepKinds defaults() {
        return defaults(FaultKinds.defaults());
    }

    /** Adds (or replaces) a kind. */
    public StepKinds register(StepKind kind) {
        kinds.put(kind.name(), kind);
        return this;
    }

    public Optional<StepKind> find(String name) {
        return Optional.ofNullable(kinds.get(name));
    }

    public Map<String, StepKind> all() {
        return Collections.unmodifiableMap(kinds);
    }
}
