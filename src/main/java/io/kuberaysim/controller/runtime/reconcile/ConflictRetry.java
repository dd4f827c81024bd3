package io.kuberaysim.controller.runtime.reconcile;

import io.kuberaysim.apiserver.errors.ApiException;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * How a reconciler that reads through the informer cache handles a pass that started from a stale copy: its write
 * fails with 409 Conflict (or 404 when the object went away meanwhile) and the pass is simply run again after the
 * controller's requeue delay, as KubeRay's reconcilers return their {@code RequeueAfter} with the update error.
 * Not a failure: no Warning Event, no backoff.
 */
public final class ConflictRetry {
    private ConflictRetry() {
    }

    /** Runs {@code pass}; a conflict or not-found from one of its writes becomes a requeue after {@code after}. */
    public static Result run(Duration after, Supplier<Result> pass) {
        try {
            return pass.get();
        } catch (ApiException e) {
            if (e.code() == 409 || e.code() == 404) {
                return Result.requeueAfter(after);
            }
            throw e;
        }
    }
}
