package io.kuberaysim.scenario.seeds;

import io.kuberaysim.controller.runtime.clock.VirtualClock;
import io.kuberaysim.sim.invariants.InvariantChecker;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The invariant checkers of the runs going on, by their simulator's clock: {@link CheckedRun} attaches one for the
 * whole run, and the {@code invariants} step finds it there (runs of many seeds share the parsed steps).
 */
public final class InvariantWatch {
    private final Map<VirtualClock, InvariantChecker> checkers = new ConcurrentHashMap<>();

    void attach(VirtualClock clock, InvariantChecker checker) {
        checkers.put(clock, checker);
    }

    void detach(VirtualClock clock) {
        checkers.remove(clock);
    }

    /** The checker watching the run on {@code clock}, or null when none does. */
    InvariantChecker checkerOf(VirtualClock clock) {
        return checkers.get(clock);
    }
}
