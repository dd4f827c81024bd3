package io.kuberaysim.testkit;

import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.embedded.EmbeddedSimulator;
import io.kuberaysim.sim.SimulatedCluster;

import java.nio.file.Path;

/** The simulator in process (no Spring, no port). */
final class InProcessBackend implements SimulatorBackend {
    private final EmbeddedSimulator sim;

    InProcessBackend(KubeRaySimSettings settings) {
        this.sim = EmbeddedSimulator.start(settings.toProperties());
    }

    @Override
    public KubeClient client() {
        return sim.client();
    }

    @Override
    public Clock clock() {
        return sim.clock();
    }

    @Override
    public SimulatedCluster cluster() {
        return sim.cluster();
    }

    @Override
    public String baseUrl() {
        return null;
    }

    @Override
    public Path kubeconfig() {
        return null;
    }

    @Override
    public void close() {
        sim.close();
    }
}
