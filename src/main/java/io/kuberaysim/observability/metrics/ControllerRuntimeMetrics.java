package io.kuberaysim.observability.metrics;

import io.kuberaysim.controller.runtime.ControllerMetrics;
import io.kuberaysim.controller.runtime.ReconcileMetrics;
import io.kuberaysim.controller.runtime.queue.QueueMetrics;
import io.micrometer.core.instrument.MeterRegistry;

/** Plugs controller-runtime's and client-go's workqueue metrics (Micrometer meters) into the controller runtime. */
public final class ControllerRuntimeMetrics implements ControllerMetrics {
    private final MeterRegistry registry;

    public ControllerRuntimeMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public QueueMetrics queue(String name) {
        return new WorkQueueMeters(registry, name);
    }

    @Override
    public ReconcileMetrics reconciles(String controller, int maxConcurrentReconciles) {
        return new ReconcileMeters(registry, controller, maxConcurrentReconciles);
    }
}
