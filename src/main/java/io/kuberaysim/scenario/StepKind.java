package io.kuberaysim.scenario;

/**
 * A type of step, known by the key that names it in a scenario ({@code apply}, {@code waitFor}, ...). The set is
 * open: {@link StepKinds#register} adds one, so new kinds live in their own class and the reader needs no change.
 */
public interface StepKind {
    /** The key in the scenario file. */
    String name();

    /**
     * Parses the step's value.
     *
     * @throws ScenarioException naming the field when the value is malformed (use {@link StepSource#error})
     */
    Step parse(StepSource source);
}
