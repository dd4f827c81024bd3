package io.kuberaysim.sim.chaos;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.client.WriteGate;
import io.kuberaysim.controller.runtime.clock.Clock;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The ApiErrors fault: the gate before the operator's client. While a window is open, each write fails with its
 * probability, with 409 Conflict (as if another writer got there first) or 500 (as if etcd timed out). Whether a
 * write fails is drawn from the chaos stream keyed by the window and the write's number in it, so a run replays.
 */
final class ApiWriteFaults implements WriteGate {
    private final Clock clock;
    private final ChaosRandom random;
    private final List<Window> windows = new ArrayList<>(); // guarded by this

    private static final class Window {
        final String key;
        final Instant until;
        final double probability;
        final int code;
        long writes;

        Window(String key, Instant until, double probability, int code) {
            this.key = key;
            this.until = until;
            this.probability = probability;
            this.code = code;
        }
    }

    ApiWriteFaults(Clock clock, ChaosRandom random) {
        this.clock = clock;
        this.random = random;
    }

    /** Opens a window until {@code until}; {@code key} names it in the chaos stream (schedule uid and firing). */
    synchronized void open(String key, Instant until, double probability, int code) {
        windows.add(new Window(key, until, probability, code));
    }

    @Override
    public void admit(String verb, ResourceType type, String namespace, String name) {
        Window failing = null;
        synchronized (this) {
            if (windows.isEmpty()) {
                return;
            }
            Instant now = clock.now();
            windows.removeIf(w -> !now.isBefore(w.until));
            for (Window w : windows) {
                if (random.stream("api", w.key, w.writes++).nextDouble() < w.probability && failing == null) {
                    failing = w;
                }
            }
        }
        if (failing == null) {
            return;
        }
        if (failing.code == 409) {
            throw ApiException.modifiedConflict(type, name == null ? "" : name);
        }
        throw ApiException.internal("etcdserver: request timed out (simulated by a FaultSchedule)");
    }
}
