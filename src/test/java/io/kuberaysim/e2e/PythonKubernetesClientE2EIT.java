package io.kuberaysim.e2e;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The official Python Kubernetes client ({@code kubernetes}, Debian's {@code python3-kubernetes}) driving a
 * RayCluster's life against the server on a random port on the virtual clock: the script
 * {@code e2e/python-client-lifecycle.py} creates it, waits for {@code ready} with a watch, lists its Pods, reads the
 * head Pod's log, deletes it and watches its Pods go. Skipped (with a message) where {@code /usr/bin/python3} cannot
 * import {@code kubernetes} (a failure in CI, where {@code .ci/run} installs it).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class PythonKubernetesClientE2EIT {
    static final String PYTHON = "/usr/bin/python3";

    @LocalServerPort
    int port;
    @TempDir
    Path dir;

    /** Skips the test when the client is missing, except in CI (CI=true), where that is a failure. */
    @BeforeAll
    static void pythonClientInstalled() throws Exception {
        boolean present = Files.isExecutable(Path.of(PYTHON))
                && run(new ProcessBuilder(PYTHON, "-c", "import kubernetes")).exit() == 0;
        if (!present && "true".equalsIgnoreCase(System.getenv("CI"))) {
            fail(PYTHON + " cannot import kubernetes in CI: .ci/run installs Debian's python3-kubernetes");
        }
        assumeTrue(present, PYTHON + " cannot import kubernetes (apt-get install python3-kubernetes): skipping the "
                + "Python client test");
    }

    @Test
    void aRayClusterCreatedWithThePythonClientBecomesReadyShowsItsPodsAndTheirLogsAndTakesThemAlongWhenDeleted()
            throws Exception {
        Path kubeconfig = dir.resolve("kubeconfig");
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                clusters:
                - name: kuberay-sim
                  cluster: {server: "http://127.0.0.1:%d"}
                contexts:
                - name: kuberay-sim
                  context: {cluster: kuberay-sim, namespace: default, user: kuberay-sim}
                current-context: kuberay-sim
                users:
                - name: kuberay-sim
                  user: {}
                """.formatted(port));
        Path script = dir.resolve("python-client-lifecycle.py");
        try (var in = getClass().getResourceAsStream("/e2e/python-client-lifecycle.py")) {
            Files.write(script, in.readAllBytes());
        }

        Output result = run(new ProcessBuilder(PYTHON, script.toString(), kubeconfig.toString(),
                Path.of("http-examples", "demo-raycluster.yaml").toString()));

        assertThat(result.exit()).as(result.all()).isZero();
        assertThat(result.out()).as(result.all())
                .contains("state ready")
                .contains("('head', 'demo-raycluster-head', 'Running')")
                .contains("('worker', 'demo-raycluster-worker-small-wg-1', 'Running')")
                .contains("ray start --head")
                .contains("watch pod DELETED demo-raycluster-head")
                .contains("all Pods of demo-raycluster are gone");
    }

    /** What the process printed and how it ended. */
    record Output(int exit, String out, String err) {
        String all() {
            return out + err;
        }
    }

    static Output run(ProcessBuilder command) throws Exception {
        command.environment().remove("KUBECONFIG");
        Process p = command.start();
        p.getOutputStream().close();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        if (!p.waitFor(150, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("python did not finish in 150 s; so far:\n" + out.getNow("") + err.getNow(""));
        }
        return new Output(p.exitValue(), out.get(10, TimeUnit.SECONDS), err.get(10, TimeUnit.SECONDS));
    }

    static String read(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
