package io.kuberaysim.security;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kuberaysim.api.Json;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * With a token over plain HTTP: the kubeconfig the server writes at start carries the real port, the token and
 * client-node's {@code insecure-skip-tls-verify}, and the fabric8 client works from it (a wrong token is a 401).
 * kubectl is exercised with a token in {@link TlsE2EIT}: client-go sends a kubeconfig's token only over TLS.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"kuberay-sim.controllers=false", "kuberay-sim.auth.token=" + KubeconfigOverHttpE2EIT.TOKEN})
class KubeconfigOverHttpE2EIT {
    static final String TOKEN = "e2e-0123456789abcdef";
    static final Path DIR;

    static {
        try {
            DIR = Files.createTempDirectory("kubeconfig-http");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @DynamicPropertySource
    static void kubeconfigOut(DynamicPropertyRegistry registry) {
        registry.add("kuberay-sim.kubeconfig-out", () -> DIR.resolve("out/kubeconfig").toString());
    }

    @LocalServerPort
    int port;

    @Test
    void theWrittenKubeconfigNamesTheRealPortTheTokenAndTheContext() throws IOException {
        Path file = DIR.resolve("out/kubeconfig");
        JsonNode config = Json.YAML.readTree(Files.readString(file));

        assertThat(config.at("/current-context").asString()).isEqualTo("kuberay-sim");
        assertThat(config.at("/clusters/0/cluster/server").asString()).isEqualTo("http://127.0.0.1:" + port);
        assertThat(config.at("/clusters/0/cluster/insecure-skip-tls-verify").asBoolean())
                .as("@kubernetes/client-node 1.x refuses http:// servers without it").isTrue();
        assertThat(config.at("/users/0/user/token").asString()).isEqualTo(TOKEN);
        assertThat(config.at("/contexts/0/context/namespace").asString()).isEqualTo("default");
        assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
    }

    @Test
    void theFabric8ClientWorksFromTheWrittenKubeconfig() throws IOException {
        Config config = Config.fromKubeconfig(Files.readString(DIR.resolve("out/kubeconfig")));
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
            assertThat(client.namespaces().list().getItems()).extracting(n -> n.getMetadata().getName())
                    .contains("default", "kube-system");
        }
        Config wrong = Config.fromKubeconfig(Files.readString(DIR.resolve("out/kubeconfig"))
                .replace(TOKEN, "wrong-token"));
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(wrong).build()) {
            assertThatThrownBy(() -> client.namespaces().list()).isInstanceOf(KubernetesClientException.class)
                    .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(401));
        }
    }
}
