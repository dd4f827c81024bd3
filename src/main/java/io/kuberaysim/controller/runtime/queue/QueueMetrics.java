package io.kuberaysim.controller.runtime.queue;

/**
 * What a {@link WorkQueue} reports about its items, the hooks client-go's workqueue calls its metrics provider
 * through (depth, adds, queue latency, work duration, retries). Called on the queue's callers' threads, some
 * under the queue's lock: implementations must be thread-safe, cheap and must not call back into the queue.
 */
public interface QueueMetrics {

    /** Reports nothing. */
    QueueMetrics NONE = new QueueMetrics() {
        @Override
        public void added(Object item) {
        }

        @Override
        public void taken(Object item) {
        }

        @Override
        public void done(Object item) {
        }

        @Override
        public void retried(Object item) {
        }
    };

    /** {@code item} joined the ready queue (a new add, or a dirty item re-queued by {@code done}). */
    void added(Object item);

    /** {@code item} left the ready queue for a worker. */
    void taken(Object item);

    /** The worker finished with {@code item}. */
    void done(Object item);

    /** {@code item} was scheduled to come back after a delay ({@code addAfter}, {@code addRateLimited}). */
    void retried(Object item);
}
