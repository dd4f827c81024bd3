package io.kuberaysim.controller.runtime.reconcile;

import java.time.Duration;
import java.util.Objects;

/**
 * Outcome of one reconcile, mapped onto the work queue as controller-runtime does: a positive
 * {@code requeueAfter} requeues at that time (and resets the backoff), otherwise {@code requeue}
 * requeues with rate-limited backoff, otherwise the request is finished.
 *
 * @param requeue      requeue with backoff (ignored when {@code requeueAfter} is positive)
 * @param requeueAfter requeue after this delay when positive
 */
public record Result(boolean requeue, Duration requeueAfter) {

    private static final Result DONE = new Result(false, Duration.ZERO);
    private static final Result REQUEUE = new Result(true, Duration.ZERO);

    /** Rejects negative delays, which have no meaning. */
    public Result {
        Objects.requireNonNull(requeueAfter, "requeueAfter");
        if (requeueAfter.isNegative()) {
            throw new IllegalArgumentException("requeueAfter must not be negative: " + requeueAfter);
        }
    }

    /** Nothing more to do until something changes. */
    public static Result done() {
        return DONE;
    }

    /** Reconcile again after the rate limiter's backoff. */
    public static Result requeueWithBackoff() {
        return REQUEUE;
    }

    /** Reconcile again once {@code delay} has passed. */
    public static Result requeueAfter(Duration delay) {
        return new Result(false, delay);
    }
}
