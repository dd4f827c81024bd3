package io.kuberaysim.embedded;

import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.gc.GarbageCollector;
import io.kuberaysim.apiserver.gc.NamespaceLifecycle;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.ObjectExpiry;
import io.kuberaysim.controller.runtime.EventRecorder;
import io.kuberaysim.controller.runtime.clock.Clock;

/**
 * The API server's own loops around a registry, as the application starts them: the ownerReference garbage
 * collector, the namespace lifecycle and the expiry of Events. The one plain-Java wiring of them, used by
 * {@link EmbeddedSimulator} and by the tests' harness.
 */
public final class ApiServerCore implements AutoCloseable {
    private final GarbageCollector gc;
    private final NamespaceLifecycle namespaces;
    private final ObjectExpiry expiry;

    /**
     * Starts the loops.
     *
     * @param gcEvents the recorder of the collector's Warning Events (the controllers' legacy recorder); null for none
     */
    public ApiServerCore(GenericRegistry registry, Clock clock, EventRecorder gcEvents) {
        gc = new GarbageCollector(registry, clock, gcEvents);
        namespaces = new NamespaceLifecycle(registry, clock, ResourceTypes.ALL_TYPES);
        expiry = new ObjectExpiry(registry, clock);
        gc.start();
        expiry.start();
        namespaces.start();
    }

    @Override
    public void close() {
        gc.close();
        namespaces.close();
        expiry.close();
    }
}
