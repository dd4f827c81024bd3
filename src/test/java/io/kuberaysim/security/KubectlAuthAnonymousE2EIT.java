package io.kuberaysim.security;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Without authentication (the default): kubectl's auth commands report the anonymous user, who may do everything,
 * and the shipped http-examples/kubeconfig (with client-node's insecure-skip-tls-verify) still works with kubectl.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "kuberay-sim.controllers=false")
class KubectlAuthAnonymousE2EIT {
    @LocalServerPort
    int port;
    @TempDir
    static Path dir;

    @BeforeAll
    static void kubectlInstalled() {
        assumeTrue(Kubectl.installed(), "kubectl is not on PATH: skipping the kubectl auth tests");
    }

    /** The shipped kubeconfig, pointed at this test's port. */
    private Kubectl kubectl() throws IOException {
        String shipped = Files.readString(Path.of("http-examples/kubeconfig"));
        assertThat(shipped).contains("insecure-skip-tls-verify: true", "server: http://127.0.0.1:8080");
        Path kubeconfig = dir.resolve("kubeconfig-" + port);
        Files.writeString(kubeconfig, shipped.replace("127.0.0.1:8080", "127.0.0.1:" + port));
        return new Kubectl(kubeconfig, dir.resolve("cache"));
    }

    @Test
    void kubectlAuthCommandsWithoutAuthentication() throws Exception {
        Kubectl kubectl = kubectl();

        Kubectl.Result canI = kubectl.run("auth", "can-i", "delete", "pods", "--all-namespaces");
        assertThat(canI.out().trim()).as(canI.all()).isEqualTo("yes");

        Kubectl.Result list = kubectl.run("auth", "can-i", "--list", "-n", "kube-system");
        assertThat(list.exit()).as(list.all()).isZero();
        assertThat(list.out()).contains("*.*");

        Kubectl.Result whoami = kubectl.run("auth", "whoami", "-o", "json");
        assertThat(whoami.exit()).as(whoami.all()).isZero();
        assertThat(whoami.out()).contains("\"username\": \"system:anonymous\"", "system:unauthenticated");

        Kubectl.Result apply = kubectl.run("create", "configmap", "via-shipped-kubeconfig", "--from-literal=a=b");
        assertThat(apply.exit()).as(apply.all()).isZero();
    }
}
