package io.kuberaysim.controller.runtime;

import io.kuberaysim.controller.runtime.queue.QueueMetrics;

/**
 * Hands each controller and its work queue their metrics recorders, as controller-runtime's and client-go's
 * metrics providers do. The controller runtime knows no metrics library; the application plugs one in through
 * {@link ControllerManager}.
 */
public interface ControllerMetrics {

    /** Records nothing. */
    ControllerMetrics NONE = new ControllerMetrics() {
        @Override
        public QueueMetrics queue(String name) {
            return QueueMetrics.NONE;
        }

        @Override
        public ReconcileMetrics reconciles(String controller, int maxConcurrentReconciles) {
            return ReconcileMetrics.NONE;
        }
    };

    /** The recorder of the work queue named {@code name} (the controller's name). */
    QueueMetrics queue(String name);

    /** The recorder of the reconciles of {@code controller}, which runs up to {@code maxConcurrentReconciles}. */
    ReconcileMetrics reconciles(String controller, int maxConcurrentReconciles);
}
