package io.kuberaysim.scenario;

import java.time.Duration;
import java.util.List;

/**
 * A scenario read from YAML: a name, the settings of the cluster it runs on, and its steps in order.
 *
 * @param name        the scenario's {@code name} (the file name when it has none)
 * @param description free text, shown nowhere but kept for reports
 * @param settings    cluster settings; ignored when run against a running server (its own apply)
 * @param steps       the steps in file order
 */
public record Scenario(String name, String description, ScenarioSettings settings, List<ScenarioStep> steps) {

    /**
     * One step with where it came from.
     *
     * @param index 1-based position in {@code steps}
     * @param line  the line the step starts on
     * @param at    when set, the step runs at this virtual time after the scenario's start
     * @param kind  the step kind's name
     * @param step  the parsed step
     */
    public record ScenarioStep(int index, int line, Duration at, String kind, Step step) {
        /** {@code step 3 (line 14)}. */
        public String where() {
            return "step " + index + " (line " + line + ")";
        }
    }
}
