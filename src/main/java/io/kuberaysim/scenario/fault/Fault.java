package io.kuberaysim.scenario.fault;

import io.kuberaysim.scenario.ScenarioRun;

/** A failure injected into the simulated cluster. Throws {@link io.kuberaysim.scenario.StepFailedException} when it cannot. */
public interface Fault {
    void inject(ScenarioRun run);

    /** {@code deletePod default/example-cluster-head}. */
    String describe();
}
