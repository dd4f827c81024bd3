package io.kuberaysim.controller.runtime.clock;

/** Handle to a task handed to a {@link Clock}; cancelling a task that already ran is a no-op. */
@FunctionalInterface
public interface Cancellable {

    /** Prevents the task from running if it has not started yet. Idempotent. */
    void cancel();
}
