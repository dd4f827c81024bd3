package io.kuberaysim.scenario;

import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import io.kuberaysim.sim.SimulatedCluster;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/** A scenario while it runs: what steps act on, the clock, and the expectations recorded so far. */
public final class ScenarioRun {
    /** The field manager of the scenario's writes. */
    public static final String FIELD_MANAGER = "kuberay-sim-scenario";

    private final ScenarioTarget target;
    private final KubeClient client;
    private final Instant start;
    private final List<ScenarioResult.Expectation> expectations = new ArrayList<>();
    private Scenario.ScenarioStep current;

    ScenarioRun(ScenarioTarget target) {
        this.target = target;
        this.client = target.client().as(FIELD_MANAGER);
        this.start = target.clock().now();
    }

    public KubeClient client() {
        return client;
    }

    public VirtualClock clock() {
        return target.clock();
    }

    /** The simulated cluster, for faults that reach into it; null when the target runs none. */
    public SimulatedCluster cluster() {
        return target.cluster();
    }

    /** Virtual time since the scenario started. */
    public Duration elapsed() {
        return Duration.between(start, clock().now());
    }

    public double seconds() {
        return elapsed().toMillis() / 1000.0;
    }

    /**
     * Runs everything due now, then moves time from timer to timer (each to quiescence) until {@code done} holds or
     * {@code timeout} of virtual time has passed; returns whether it holds. Time stops where it first held.
     */
    public boolean await(BooleanSupplier done, Duration timeout) {
        VirtualClock clock = clock();
        Instant deadline = clock.now().plus(timeout);
        while (true) {
            clock.awaitIdle();
            if (done.getAsBoolean()) {
                return true;
            }
            Optional<Instant> next = clock.nextTimer();
            if (next.isEmpty() || next.get().isAfter(deadline)) {
                if (clock.now().isBefore(deadline)) {
                    clock.advance(Duration.between(clock.now(), deadline));
                }
                clock.awaitIdle();
                return done.getAsBoolean();
            }
            clock.advance(Duration.between(clock.now(), next.get()));
        }
    }

    /** Records an expectation's outcome for the step running now. */
    public void record(String description, boolean passed, String message) {
        expectations.add(new ScenarioResult.Expectation(current.index(), current.line(), description, passed,
                passed ? "ok" : message, seconds()));
    }

    void enter(Scenario.ScenarioStep step) {
        current = step;
    }

    List<ScenarioResult.Expectation> expectations() {
        return expectations;
    }
}
