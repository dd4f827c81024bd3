package io.kuberaysim.sim.invariants;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * A broken invariant: when (since the run started), which one, the objects involved and what was seen.
 *
 * @param at        time since the checker started
 * @param invariant the invariant's name, e.g. {@code one-head-pod}
 * @param objects   the objects involved, {@code Kind namespace/name}
 * @param message   what was seen
 */
public record Violation(Duration at, String invariant, List<String> objects, String message) {
    public Violation {
        objects = List.copyOf(objects);
    }

    /** As the timeline prints it: {@code [  42.0s] invariant one-head-pod broken: ... [Pod default/x, ...]}. */
    public String line() {
        return String.format(Locale.ROOT, "[%6.1fs] invariant %s broken: %s%s", at.toMillis() / 1000.0, invariant,
                message, objects.isEmpty() ? "" : " " + objects);
    }
}
