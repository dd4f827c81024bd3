package io.kuberaysim.controller.runtime.clock;

import java.time.Duration;
import java.time.Instant;

/**
 * The single source of time and the single control loop of the simulator.
 *
 * <p>Every component (queues, controllers, kubelet, garbage collector) takes a {@code Clock} instead
 * of reading the system time, so the same code runs deterministically on a {@link VirtualClock} and
 * in real time on a {@link WallClock}. All tasks handed to a clock run on one control-loop thread,
 * one at a time, which lets components keep their loop-owned state without locks.
 */
public interface Clock {

    /** Mode name of a {@link VirtualClock}. */
    String MODE_VIRTUAL = "virtual";

    /** Mode name of a {@link WallClock}. */
    String MODE_WALL = "wall";

    /** The current time: virtual time on a {@link VirtualClock}, UTC system time on a {@link WallClock}. */
    Instant now();

    /** When this clock started. */
    Instant startTime();

    /** {@value #MODE_VIRTUAL} or {@value #MODE_WALL}. */
    String mode();

    /** Runs {@code task} on the control loop as soon as possible; tasks run in submission order. */
    void execute(Runnable task);

    /**
     * Runs {@code task} on the control loop at {@code now() + delay}. A zero or negative delay means
     * "due now" and behaves like {@link #execute(Runnable)}.
     */
    Cancellable schedule(Duration delay, Runnable task);

    /** True when the calling thread is the control-loop thread. */
    boolean inLoop();
}
