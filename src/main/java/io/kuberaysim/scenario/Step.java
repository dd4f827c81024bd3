package io.kuberaysim.scenario;

/**
 * One step of a scenario, parsed and ready to run. A step that cannot do what it says throws
 * {@link StepFailedException}; the runner stops there and reports the step's index and line. Expectations record
 * their outcome with {@link ScenarioRun#record} instead, so every {@code expect} is reported.
 */
public interface Step {
    void run(ScenarioRun run);

    /** What the step does, for the timeline and messages: {@code waitFor RayCluster default/x $.status.state == ready}. */
    String describe();
}
