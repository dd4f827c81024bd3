package io.kuberaysim.controller.runtime.queue;

import java.time.Duration;

/**
 * Decides how long an item waits before it is retried, as client-go's {@code workqueue.RateLimiter}.
 *
 * @param <T> item type
 */
public interface RateLimiter<T> {

    /** Records one more failure of {@code item} and returns how long it should wait. */
    Duration when(T item);

    /** Clears the failure history of {@code item}, typically after it was processed successfully. */
    void forget(T item);

    /** How many times {@code item} has been rate-limited since it was last forgotten. */
    int numRequeues(T item);
}
