package io.kuberaysim.scenario.seeds;

import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import io.kuberaysim.embedded.EmbeddedSimulator;
import io.kuberaysim.scenario.Scenario;
import io.kuberaysim.scenario.ScenarioResult;
import io.kuberaysim.scenario.ScenarioRunner;
import io.kuberaysim.scenario.ScenarioSettings;
import io.kuberaysim.scenario.StepKinds;
import io.kuberaysim.scenario.ScenarioTarget;
import io.kuberaysim.sim.invariants.InvariantChecker;
import io.kuberaysim.sim.invariants.Violation;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One run of a scenario on a fresh in-process simulator, with its seed (the scenario's, or another) and an
 * {@link InvariantChecker} watching from the first to the last step: each invariant broken during the run is a
 * failed expectation and a timeline line {@code invariant one-head-pod broken: ...} at the time it broke.
 */
public final class CheckedRun {
    private final InvariantWatch watch;

    public CheckedRun(InvariantWatch watch) {
        this.watch = watch;
    }

    /** The default step kinds plus {@code invariants} and {@code invariant}, which read this run's checker. */
    public StepKinds stepKinds() {
        return StepKinds.defaults().register(new InvariantsStep.Kind(watch)).register(new UserInvariantStep.Kind(watch));
    }

    /**
     * Runs {@code scenario} against a simulator that already runs (a server's), with a checker on its store for the
     * length of the run: the same result as {@link #run}, without fresh state or the scenario's settings.
     */
    public ScenarioResult runOn(Scenario scenario, ScenarioTarget target, ObjectStore store, VirtualClock clock,
                                Consumer<ScenarioResult.TimelineEntry> listener) {
        try (InvariantChecker checker = new InvariantChecker(store, clock)) {
            watch.attach(clock, checker);
            try {
                return withViolations(new ScenarioRunner().run(scenario, target, listener), checker.violations());
            } finally {
                watch.detach(clock);
            }
        }
    }

    /**
     * Runs {@code scenario} with {@code seed} (null = the scenario's own); {@code listener} sees the timeline as it
     * happens (violations are added to the result's timeline once the run is over).
     */
    public ScenarioResult run(Scenario scenario, Long seed, Consumer<ScenarioResult.TimelineEntry> listener) {
        ScenarioSettings s = scenario.settings();
        ScenarioSettings settings = seed == null ? s : new ScenarioSettings(s.simulation(), seed, s.namespace());
        try (EmbeddedSimulator sim = EmbeddedSimulator.start(settings.toProperties());
             InvariantChecker checker = new InvariantChecker(sim.store(), sim.clock())) {
            watch.attach(sim.virtualClock(), checker);
            try {
                ScenarioResult result = new ScenarioRunner().run(scenario,
                        new ScenarioTarget(sim.client(), sim.virtualClock(), sim.cluster()), listener);
                return withViolations(result, checker.violations());
            } finally {
                watch.detach(sim.virtualClock());
            }
        }
    }

    /** The result with each violation as a failed expectation and a timeline line at its time. */
    static ScenarioResult withViolations(ScenarioResult result, List<Violation> violations) {
        if (violations.isEmpty()) {
            return result;
        }
        List<ScenarioResult.Expectation> expectations = new ArrayList<>(result.expectations());
        List<ScenarioResult.TimelineEntry> timeline = new ArrayList<>(result.timeline());
        for (Violation v : violations) {
            double seconds = v.at().toMillis() / 1000.0;
            String text = "invariant " + v.invariant() + " broken: " + v.message()
                    + (v.objects().isEmpty() ? "" : " " + v.objects());
            expectations.add(new ScenarioResult.Expectation(0, 0, "invariant " + v.invariant(), false, text,
                    seconds));
            int at = 0;
            while (at < timeline.size() && timeline.get(at).seconds() <= seconds) {
                at++;
            }
            timeline.add(at, new ScenarioResult.TimelineEntry(seconds, 0, text));
        }
        return new ScenarioResult(result.name(), false, expectations, result.failure(), timeline, result.seconds());
    }
}
