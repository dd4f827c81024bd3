package io.kuberaysim.testing;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.gc.GarbageCollector;
import io.kuberaysim.apiserver.gc.NamespaceLifecycle;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.ObjectExpiry;
import io.kuberaysim.apiserver.storage.InMemoryObjectStore;
import io.kuberaysim.config.TestWiring;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;

/**
 * An API server core on a virtual clock, without Spring: registry, garbage collector, namespace lifecycle, Event
 * expiry (the default TTL of one hour), and a controller manager (not started) whose event recorders the garbage
 * collector and any controllers a test adds share, as in the application.
 */
public final class TestCluster implements AutoCloseable {
    public final VirtualClock clock = new VirtualClock();
    public final GenericRegistry registry;
    public final ControllerManager manager;
    private final GarbageCollector gc;
    private final NamespaceLifecycle namespaces;
    private final ObjectExpiry expiry;

    public TestCluster() {
        registry = TestWiring.registry(new InMemoryObjectStore(10_000), clock);
        manager = new ControllerManager(registry, clock, 1);
        gc = new GarbageCollector(registry, clock, manager.legacyEventRecorder(GarbageCollector.COMPONENT));
        gc.start();
        namespaces = new NamespaceLifecycle(registry, clock, io.kuberaysim.api.ResourceTypes.ALL_TYPES);
        namespaces.start();
        expiry = new ObjectExpiry(registry, clock);
        expiry.start();
    }

    /** Lets the garbage collector and other loop work finish. */
    public void settle() {
        clock.awaitIdle();
    }

    public void advance(Duration d) {
        clock.advance(d);
    }

    public static ObjectNode yaml(String text) {
        return (ObjectNode) Json.YAML.readTree(text);
    }

    @Override
    public void close() {
        gc.close();
        namespaces.close();
        expiry.close();
        clock.close();
    }
}
