package io.kuberaysim.controller.runtime;

/**
 * What a {@link Controller} reports about its reconciles, as controller-runtime counts them (result, errors,
 * duration, busy workers). Implementations keep their own time: {@link #started()} returns a mark that is handed
 * back to {@link #finished}, so the controller never reads a clock for metrics. Thread-safe; called on worker
 * threads.
 */
public interface ReconcileMetrics {

    /** Reports nothing. */
    ReconcileMetrics NONE = new ReconcileMetrics() {
        @Override
        public long started() {
            return 0;
        }

        @Override
        public void finished(long mark, Outcome outcome) {
        }
    };

    /** How a reconcile ended, as controller-runtime labels {@code controller_runtime_reconcile_total}. */
    enum Outcome {
        /** Returned without asking for a requeue. */
        SUCCESS,
        /** Threw. */
        ERROR,
        /** Asked to be requeued with backoff. */
        REQUEUE,
        /** Asked to be requeued after a delay. */
        REQUEUE_AFTER
    }

    /** A reconcile begins; returns a mark for {@link #finished}. */
    long started();

    /** The reconcile that began at {@code mark} ended with {@code outcome}. */
    void finished(long mark, Outcome outcome);
}
