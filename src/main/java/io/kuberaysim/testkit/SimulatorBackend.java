package io.kuberaysim.testkit;

import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.sim.SimulatedCluster;

import java.nio.file.Path;

/** What a {@link KubeRaySim} runs on: the simulator in process, or the application serving HTTP. */
interface SimulatorBackend extends AutoCloseable {
    KubeClient client();

    Clock clock();

    SimulatedCluster cluster();

    /** {@code http://127.0.0.1:PORT}, or null without a server. */
    String baseUrl();

    /** The kubeconfig the server wrote, or null without a server. */
    Path kubeconfig();

    @Override
    void close();
}
