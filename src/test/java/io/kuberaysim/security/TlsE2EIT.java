package io.kuberaysim.security;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kuberaysim.api.Json;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * TLS and a token, through Spring Boot's {@code server.ssl.*} with a CA and server certificate made in the test:
 * kubectl trusts the server with the right CA (given as a file, or from the kubeconfig the server writes) and
 * refuses it with a wrong one; with the token, kubectl's auth commands answer as for an administrator, and a wrong
 * token gets kubectl's Unauthorized error; the fabric8 client works from the written kubeconfig.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"kuberay-sim.controllers=false", "kuberay-sim.auth.token=" + TlsE2EIT.TOKEN})
class TlsE2EIT {
    static final String TOKEN = "tls-test-token";
    static final Path DIR;
    static final TestCertificates CERTS;

    static {
        try {
            DIR = Files.createTempDirectory("kuberay-sim-tls");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        CERTS = TestCertificates.create(DIR);
    }

    @DynamicPropertySource
    static void tls(DynamicPropertyRegistry registry) {
        registry.add("server.ssl.certificate", () -> "file:" + CERTS.serverChain());
        registry.add("server.ssl.certificate-private-key", () -> "file:" + CERTS.serverKey());
        registry.add("kuberay-sim.kubeconfig-out", () -> DIR.resolve("kubeconfig").toString());
    }

    @LocalServerPort
    int port;

    @BeforeAll
    static void kubectlInstalled() {
        assumeTrue(Kubectl.installed(), "kubectl is not on PATH: skipping the TLS kubectl tests");
    }

    /** A kubeconfig that trusts the given CA file. */
    private Kubectl kubectlTrusting(Path ca, String name) throws IOException {
        Path kubeconfig = DIR.resolve("kubeconfig-" + name);
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                clusters:
                - name: tls
                  cluster:
                    server: https://127.0.0.1:%d
                    certificate-authority: %s
                contexts:
                - name: tls
                  context: {cluster: tls, user: tls}
                current-context: tls
                users:
                - name: tls
                  user: {token: %s}
                """.formatted(port, ca, TOKEN));
        return new Kubectl(kubeconfig, DIR.resolve("cache-" + name));
    }

    @Test
    void kubectlTrustsTheServerWithTheRightCa() throws Exception {
        Kubectl.Result r = kubectlTrusting(CERTS.ca(), "right").run("get", "namespaces", "-o", "name");

        assertThat(r.exit()).as(r.all()).isZero();
        assertThat(r.out()).contains("namespace/default");
    }

    @Test
    void kubectlRefusesTheServerWithAWrongCa() throws Exception {
        Kubectl.Result r = kubectlTrusting(CERTS.wrongCa(), "wrong").run("get", "namespaces");

        assertThat(r.exit()).isNotZero();
        assertThat(r.err()).contains("certificate signed by unknown authority");
    }

    @Test
    void theWrittenKubeconfigCarriesTheCaAndWorksWithKubectlAndFabric8() throws Exception {
        Path written = DIR.resolve("kubeconfig");
        JsonNode config = Json.YAML.readTree(Files.readString(written));
        assertThat(config.at("/clusters/0/cluster/server").asString()).isEqualTo("https://127.0.0.1:" + port);
        assertThat(config.at("/clusters/0/cluster/insecure-skip-tls-verify").isMissingNode()).isTrue();
        byte[] ca = Base64.getDecoder().decode(config.at("/clusters/0/cluster/certificate-authority-data").asString());
        assertThat(CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(ca)))
                .isEqualTo(CERTS.caCertificate());

        Kubectl.Result r = new Kubectl(written, DIR.resolve("cache-written")).run("auth", "can-i", "create",
                "rayclusters");
        assertThat(r.out().trim()).as(r.all()).isEqualTo("yes");

        try (KubernetesClient client = new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(Files.readString(written))).build()) {
            assertThat(client.namespaces().withName("default").get()).isNotNull();
        }
    }

    @Test
    void kubectlAuthCommandsWithTheToken() throws Exception {
        Kubectl kubectl = new Kubectl(DIR.resolve("kubeconfig"), DIR.resolve("cache-auth"));

        Kubectl.Result nonResource = kubectl.run("auth", "can-i", "get", "/metrics");
        assertThat(nonResource.out().trim()).as(nonResource.all()).isEqualTo("yes");

        Kubectl.Result list = kubectl.run("auth", "can-i", "--list");
        assertThat(list.exit()).as(list.all()).isZero();
        assertThat(list.out()).contains("Resources", "Non-Resource URLs", "*.*", "[*]");

        Kubectl.Result whoami = kubectl.run("auth", "whoami");
        assertThat(whoami.exit()).as(whoami.all()).isZero();
        assertThat(whoami.out()).containsPattern("Username\\s+admin").contains("system:masters",
                "system:authenticated");
    }

    @Test
    void kubectlWithAWrongTokenPrintsTheUnauthorizedError() throws Exception {
        Kubectl kubectl = new Kubectl(DIR.resolve("kubeconfig"), DIR.resolve("cache-wrong-token"));

        Kubectl.Result canI = kubectl.run("--token", "wrong-token", "auth", "can-i", "create", "rayclusters");
        assertThat(canI.exit()).isNotZero();
        assertThat(canI.err()).contains("You must be logged in to the server");
        Kubectl.Result whoami = kubectl.run("--token", "wrong-token", "auth", "whoami");
        assertThat(whoami.exit()).isNotZero();
        assertThat(whoami.err()).contains("Unauthorized");
    }

    @Test
    void plainHttpIsNotServed() throws Exception {
        Kubectl.Result r = new Kubectl(DIR.resolve("kubeconfig"), DIR.resolve("cache-http"))
                .run("--server", "http://127.0.0.1:" + port, "get", "namespaces");

        assertThat(r.exit()).isNotZero();
    }
}
