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

    /**
     * Stores objects directly in the CRUD dispatcher's map (no HTTP): the mock's create scans every stored object,
     * so loading 10,000 over HTTP takes many minutes. The objects carry the metadata the mock's POST would add.
     */
    void preload(String collectionPath, java.util.function.IntFunction<byte[]> body, int count) {
        for (int i = 0; i < count; i++) {
            tools.jackson.databind.node.ObjectNode o = (tools.jackson.databind.node.ObjectNode)
                    io.kuberaysim.api.Json.MAPPER.readTree(body.apply(i));
            tools.jackson.databind.node.ObjectNode meta = (tools.jackson.databind.node.ObjectNode) o.get("metadata");
            meta.put("namespace", "default").put("uid", java.util.UUID.randomUUID().toString())
                    .put("resourceVersion", Integer.toString(i + 1)).put("generation", 1)
                    .put("creationTimestamp", "2025-01-01T00:00:00Z");
            dispatcher.handleCreate(collectionPath, o.toString());
        }
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
