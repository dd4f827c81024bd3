package io.kuberaysim.controller.runtime.reconcile;

/**
 * An error a reconciler returns as a KubeRay {@code Reconcile} returns {@code err}: the pass ends there, is retried
 * with backoff, and the message is reported as it is (no exception class, no stack trace).
 */
public final class ReconcileError extends RuntimeException {
    /** An error with KubeRay's message. */
    public ReconcileError(String message) {
        super(message);
    }
}
