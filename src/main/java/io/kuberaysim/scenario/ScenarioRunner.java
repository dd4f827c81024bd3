package io.kuberaysim.scenario;

import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.demo.Timeline;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs a scenario's steps in order on the virtual clock and records the timeline: the control plane's writes in the
 * demo's wording, and one line per step. A failed {@code expect} is recorded and the run goes on; any other step
 * that fails (a refused write, a {@code waitFor} that times out, a step due at a time already past) stops the run.
 * Nothing a step does ends in a stack trace: failures are messages naming the step's index and line.
 */
public final class ScenarioRunner {

    /**
     * Runs {@code scenario} against {@code target}; {@code listener} sees each timeline entry as it happens.
     * The target's settings are its own: a scenario's {@code settings} are applied by whoever built the target.
     */
    public ScenarioResult run(Scenario scenario, ScenarioTarget target, Consumer<ScenarioResult.TimelineEntry> listener) {
        target.clock().awaitIdle();
        ScenarioRun run = new ScenarioRun(target);
        List<ScenarioResult.TimelineEntry> entries = new ArrayList<>();
        Consumer<ScenarioResult.TimelineEntry> sink = e -> {
            entries.add(e);
            listener.accept(e);
        };
        ScenarioResult.StepFailure failure = null;
        Timeline timeline = new Timeline(target.client().registry().store(), target.clock());
        long seen = 0;
        try (timeline) {
            for (Scenario.ScenarioStep step : scenario.steps()) {
                run.enter(step);
                String description = step.step().describe();
                try {
                    if (step.at() != null) {
                        moveTo(run, step.at());
                    }
                    seen = flush(timeline, seen, sink);
                    sink.accept(new ScenarioResult.TimelineEntry(run.seconds(), step.index(),
                            step.where() + " " + description));
                    int recorded = run.expectations().size();
                    step.step().run(run);
                    target.clock().awaitIdle();
                    seen = flush(timeline, seen, sink);
                    for (ScenarioResult.Expectation e : run.expectations().subList(recorded,
                            run.expectations().size())) {
                        if (!e.passed()) {
                            sink.accept(new ScenarioResult.TimelineEntry(e.seconds(), step.index(),
                                    step.where() + " FAILED: " + e.message()));
                        }
                    }
                } catch (StepFailedException e) {
                    failure = fail(run, step, description, e.getMessage());
                } catch (ApiException e) {
                    failure = fail(run, step, description, "the API refused it: " + e.code() + " " + e.reason()
                            + ": " + e.getMessage());
                } catch (RuntimeException e) {
                    failure = fail(run, step, description, "could not run: " + e);
                }
                if (failure != null) {
                    target.clock().awaitIdle();
                    seen = flush(timeline, seen, sink);
                    sink.accept(new ScenarioResult.TimelineEntry(failure.seconds(), step.index(),
                            step.where() + " FAILED: " + failure.message()));
                    break;
                }
            }
        }
        boolean passed = failure == null && run.expectations().stream().allMatch(ScenarioResult.Expectation::passed);
        return new ScenarioResult(scenario.name(), passed, List.copyOf(run.expectations()), failure,
                List.copyOf(entries), run.seconds());
    }

    private static ScenarioResult.StepFailure fail(ScenarioRun run, Scenario.ScenarioStep step, String description,
                                                   String message) {
        return new ScenarioResult.StepFailure(step.index(), step.line(), description, message, run.seconds());
    }

    /** {@code at:} moves the clock to that time since the start; a time already past is a failure. */
    private static void moveTo(ScenarioRun run, Duration at) {
        Duration now = run.elapsed();
        if (now.compareTo(at) > 0) {
            throw new StepFailedException("due at " + ScenarioDurations.format(at) + " but the clock is already at "
                    + ScenarioDurations.format(now) + " (an earlier step took longer)");
        }
        run.clock().advance(at.minus(now));
    }

    private static long flush(Timeline timeline, long from, Consumer<ScenarioResult.TimelineEntry> sink) {
        Timeline.Page page = timeline.since(from, Integer.MAX_VALUE);
        for (String line : page.lines()) {
            sink.accept(entry(line));
        }
        return page.next();
    }

    /** A timeline line back into its time and text ({@code [   2.0s] text}). */
    private static ScenarioResult.TimelineEntry entry(String line) {
        int close = line.indexOf("s] ");
        return new ScenarioResult.TimelineEntry(Double.parseDouble(line.substring(1, close).trim()), 0,
                line.substring(close + 3));
    }
}
