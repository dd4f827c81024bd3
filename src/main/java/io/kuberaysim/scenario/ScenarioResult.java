package io.kuberaysim.scenario;

import java.util.List;

/**
 * The outcome of a run: whether every expectation held and no step failed, each expectation's outcome, the step
 * failure that stopped the run (if any), and the timeline.
 *
 * @param name         the scenario's name
 * @param passed       true when no expectation failed and every step ran
 * @param expectations every {@code expect}'s outcome, in order
 * @param failure      the step failure that stopped the run, or null
 * @param timeline     the control plane's writes and the steps, in order
 * @param seconds      virtual seconds from the start to the end of the run
 */
public record ScenarioResult(String name, boolean passed, List<Expectation> expectations, StepFailure failure,
                             List<TimelineEntry> timeline, double seconds) {

    /** The failures a user reads: failed expectations and the step failure. */
    public List<String> failures() {
        java.util.ArrayList<String> out = new java.util.ArrayList<>();
        expectations.stream().filter(e -> !e.passed())
                .forEach(e -> out.add("step " + e.step() + " (line " + e.line() + ") " + e.description() + ": "
                        + e.message()));
        if (failure != null) {
            out.add(failure.describe());
        }
        return out;
    }

    /**
     * One {@code expect}'s outcome.
     *
     * @param step        1-based step index
     * @param line        the step's line
     * @param description what was expected
     * @param passed      whether it held
     * @param message     on failure, what was expected and what was seen; "ok" otherwise
     * @param seconds     virtual time of the check
     */
    public record Expectation(int step, int line, String description, boolean passed, String message,
                              double seconds) {
    }

    /** The step that stopped the run and why. */
    public record StepFailure(int step, int line, String description, String message, double seconds) {
        public String describe() {
            return "step " + step + " (line " + line + ") " + description + ": " + message;
        }
    }

    /**
     * A line of the timeline: a write of the control plane ({@code step} 0) or a step of the scenario.
     *
     * @param seconds virtual seconds since the start
     * @param step    the step's index, 0 for a write of the control plane
     * @param text    what happened, in the demo's wording
     */
    public record TimelineEntry(double seconds, int step, String text) {
        /** The demo's format: {@code [   2.0s] updated RayCluster x status ready=2/2 state=ready}. */
        public String render() {
            return String.format(java.util.Locale.ROOT, "[%6.1fs] %s", seconds, text);
        }
    }
}
