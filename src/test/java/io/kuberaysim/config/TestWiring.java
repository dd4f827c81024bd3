package io.kuberaysim.config;

import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.controller.runtime.clock.Clock;

/** Gives plain tests the same registry wiring the application uses. */
public final class TestWiring {
    private TestWiring() {
    }

    public static GenericRegistry registry(ObjectStore store, Clock clock) {
        return ApiServerConfiguration.createRegistry(store, clock,
                SimProperties.defaults("virtual", 7L));
    }
}
