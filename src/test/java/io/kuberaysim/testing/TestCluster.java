package io.kuberaysim.testing;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.gc.GarbageCollector;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.storage.InMemoryObjectStore;
import io.kuberaysim.config.TestWiring;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import io.kuberaysim.embedded.ApiServerCore;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;

/**
 * An API server core on a virtual clock, without Spring: registry, and the application's loops around it
 * ({@link ApiServerCore}: garbage collector, namespace lifecycle, Event expiry with the default TTL of one hour), and a controller manager (not started) whose event recorders the garbage
 * collector and any controllers a test adds share, as in the application.
 */
public final class TestCluster implements AutoCloseable {
    public final VirtualClock clock = new VirtualClock();
    public final GenericRegistry registry;
    public final ControllerManager manager;
    private final ApiServerCore core;

    public TestCluster() {
        registry = TestWiring.registry(new InMemoryObjectStore(10_000), clock);
        manager = new ControllerManager(registry, clock, 1);
        core = new ApiServerCore(registry, clock, manager.legacyEventRecorder(GarbageCollector.COMPONENT, GarbageCollector.FIELD_MANAGER));
        // the core's first loop work (every namespace's default ServiceAccount and kube-root-ca.crt) is done before
        // a test writes, as it is before a client of the application can: revisions a test counts are its own
        clock.awaitIdle();
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
        core.close();
        clock.close();
    }
}
