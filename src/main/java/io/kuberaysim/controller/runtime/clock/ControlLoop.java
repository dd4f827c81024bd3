package io.kuberaysim.controller.runtime.clock;

import java.time.Duration;
import java.util.concurrent.Executor;

/**
 * The simulator's single control loop: every task handed to it runs on one thread, one at a time, in submission
 * order (timers at their due time), which lets components keep loop-owned state without locks.
 */
public interface ControlLoop extends Executor {

    /** Runs {@code task} on the control loop as soon as possible; tasks run in submission order. */
    @Override
    void execute(Runnable task);

    /**
     * Runs {@code task} on the control loop at {@code now() + delay}. A zero or negative delay means
     * "due now" and behaves like {@link #execute(Runnable)}.
     */
    Cancellable schedule(Duration delay, Runnable task);

    /** True when the calling thread is the control-loop thread. */
    boolean inLoop();
}
