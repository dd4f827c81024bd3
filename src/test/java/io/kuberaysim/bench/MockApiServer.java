package io.kuberaysim.bench;

import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.List;

/** fabric8's KubernetesMockServer in CRUD mode with the RayCluster CRD registered: the reference server. */
final class MockApiServer implements AutoCloseable {
    private final KubernetesMockServer server;
    private final KubernetesCrudDispatcher dispatcher;
    final int port;

    MockApiServer() {
        CustomResourceDefinitionContext rayClusters = new CustomResourceDefinitionContext.Builder()
                .withGroup("ray.io").withVersion("v1").withPlural("rayclusters").withKind("RayCluster")
                .withScope("Namespaced").withStatusSubresource(true).withName("rayclusters.ray.io").build();
        dispatcher = new KubernetesCrudDispatcher(List.of(rayClusters));
        server = new KubernetesMockServer(new Context(Serialization.jsonMapper()), new MockWebServer(),
                new HashMap<>(), dispatcher, false);
        server.init(InetAddress.getLoopbackAddress(), 0);
        server.expectCustomResource(rayClusters);
        port = server.getPort();
    }

    /** Drops stored objects whose JSON contains {@code marker}, between measurements (no request in flight). */
    int removeContaining(String marker) {
        int before = dispatcher.getMap().size();
        dispatcher.getMap().entrySet().removeIf(e -> e.getValue().contains(marker));
        return before - dispatcher.getMap().size();
    }

    int size() {
        return dispatcher.getMap().size();
    }

    @Override
    public void close() {
        server.destroy();
    }
}
