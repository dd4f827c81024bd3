package io.kuberaysim.testkit;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** With {@code server = true}: a real port, a kubeconfig and a fabric8 client, time still moved by the test. */
@KubeRaySimTest(server = true, nodes = 2)
class KubeRaySimServerIT {

    @Test
    void aFabric8ClientCreatesARayClusterThatConvergesInVirtualTime(KubeRaySim sim) throws IOException {
        assertThat(sim.baseUrl()).startsWith("http://127.0.0.1:");
        assertThat(Files.readString(sim.kubeconfig())).contains("server: \"" + sim.baseUrl() + "\"");

        KubernetesClient client = sim.fabric8();
        assertThat(client.nodes().list().getItems()).hasSize(2);
        GenericKubernetesResource cluster = Serialization.unmarshal(
                Files.readString(Path.of("http-examples/example-cluster.yaml")), GenericKubernetesResource.class);
        client.genericKubernetesResources("ray.io/v1", "RayCluster").inNamespace("default").resource(cluster).create();

        sim.awaitJsonPath("RayCluster", "example-cluster", ".status.state", "ready", Duration.ofMinutes(1));
        assertThat(sim.elapsed()).isLessThan(Duration.ofSeconds(10));
        assertThat(client.pods().inNamespace("default").withLabel("ray.io/cluster", "example-cluster").list()
                .getItems()).hasSize(3).allSatisfy(p -> assertThat(p.getStatus().getPhase()).isEqualTo("Running"));
    }
}
