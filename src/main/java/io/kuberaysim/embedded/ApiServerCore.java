package io.kuberaysim.embedded;

import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.gc.GarbageCollector;
import io.kuberaysim.apiserver.gc.NamespaceLifecycle;
import io.kuberaysim.apiserver.gc.RootCaCertPublisher;
import io.kuberaysim.apiserver.gc.ServiceAccountsController;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.ObjectExpiry;
import io.kuberaysim.controller.runtime.EventRecorder;
import io.kuberaysim.controller.runtime.clock.Clock;

/**
 * The API server's own loops around a registry, as the application starts them: the ownerReference garbage
 * collector, the namespace lifecycle, the expiry of Events, and the two controllers of kube-controller-manager that
 * keep every namespace's {@code default} ServiceAccount and {@code kube-root-ca.crt} ConfigMap. The one plain-Java
 * wiring of them, used by {@link EmbeddedSimulator} and by the tests' harness.
 */
public final class ApiServerCore implements AutoCloseable {
    private final GarbageCollector gc;
    private final NamespaceLifecycle namespaces;
    private final ObjectExpiry expiry;
    private final ServiceAccountsController serviceAccounts;
    private final RootCaCertPublisher rootCa;

    /**
     * Starts the loops.
     *
     * @param gcEvents the recorder of the collector's Warning Events (the controllers' legacy recorder); null for none
     */
    public ApiServerCore(GenericRegistry registry, Clock clock, EventRecorder gcEvents) {
        gc = new GarbageCollector(registry, clock, gcEvents);
        namespaces = new NamespaceLifecycle(registry, clock, ResourceTypes.ALL_TYPES);
        expiry = new ObjectExpiry(registry, clock);
        serviceAccounts = new ServiceAccountsController(registry, clock);
        rootCa = new RootCaCertPublisher(registry, clock);
        gc.start();
        expiry.start();
        namespaces.start();
        serviceAccounts.start();
        rootCa.start();
    }

    @Override
    public void close() {
        gc.close();
        namespaces.close();
        expiry.close();
        serviceAccounts.close();
        rootCa.close();
    }
}
