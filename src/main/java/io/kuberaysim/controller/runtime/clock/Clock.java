package io.kuberaysim.controller.runtime.clock;

import java.time.Instant;
import java.time.InstantSource;

/**
 * The simulator's time source together with the {@link ControlLoop} that runs on it: one object, because timers
 * fire on the loop at the source's instants (on a {@link VirtualClock} time only moves between loop tasks).
 *
 * <p>Every component (queues, controllers, kubelet, garbage collector) takes a {@code Clock} instead of reading
 * the system time, so the same code runs deterministically on a {@link VirtualClock} and in real time on a
 * {@link WallClock}. Code that only reads the time takes an {@link InstantSource}, code that only runs tasks an
 * {@link java.util.concurrent.Executor} or {@link ControlLoop}.
 */
public interface Clock extends InstantSource, ControlLoop {

    /** Mode name of a {@link VirtualClock}. */
    String MODE_VIRTUAL = "virtual";

    /** Mode name of a {@link WallClock}. */
    String MODE_WALL = "wall";

    /** The current time: virtual time on a {@link VirtualClock}, UTC system time on a {@link WallClock}. */
    Instant now();

    /** The same as {@link #now()}. */
    @Override
    default Instant instant() {
        return now();
    }

    /** When this clock started. */
    Instant startTime();

    /** {@value #MODE_VIRTUAL} or {@value #MODE_WALL}. */
    String mode();
}
