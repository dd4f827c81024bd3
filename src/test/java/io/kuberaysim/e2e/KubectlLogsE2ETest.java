package io.kuberaysim.e2e;

import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import io.kuberaysim.testing.Kubectl;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** {@code kubectl logs} against the simulated cluster on the virtual clock. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class KubectlLogsE2ETest {
    @LocalServerPort
    int port;
    @Autowired
    Clock clock;
    @TempDir
    static Path dir;

    @BeforeAll
    static void kubectlInstalled() {
        assumeTrue(Kubectl.installed(), "kubectl is not on PATH: skipping the kubectl end-to-end tests");
    }

    @Test
    void followEndsWhenTheContainerStopsAndPreviousTailTimestampsWork() throws Exception {
        Kubectl kubectl = new Kubectl(port, dir);
        VirtualClock virtual = (VirtualClock) clock;
        Kubectl.Result created = kubectl.runWithInput("""
                apiVersion: v1
                kind: Pod
                metadata:
                  name: followed
                  annotations: {sim.kuberay.io/run-seconds: "10"}
                spec:
                  restartPolicy: Never
                  containers: [{name: main, image: busybox, command: [sleep, "10"]}]
                """, "apply", "-f", "-");
        assertThat(created.exit()).as(created.all()).isZero();
        virtual.awaitIdle();
        virtual.advance(Duration.ofSeconds(3));

        try (Kubectl.Background follow = kubectl.start("logs", "-f", "followed")) {
            follow.awaitLine("command: sleep 10");
            virtual.advance(Duration.ofSeconds(10));
            assertThat(follow.awaitLine("exited with code 0")).startsWith("[kuberay-sim]");
            assertThat(follow.process.waitFor(30, TimeUnit.SECONDS)).as("kubectl logs -f ends").isTrue();
            assertThat(follow.process.exitValue()).isZero();
        }

        Kubectl.Result tail = kubectl.run("logs", "followed", "--tail=1", "--timestamps");
        assertThat(tail.out()).as(tail.all()).matches("\\S+Z \\[kuberay-sim] exited with code 0 at \\S+\\n");
        Kubectl.Result container = kubectl.run("logs", "followed", "-c", "nope");
        assertThat(container.err()).contains("container nope is not valid for pod followed");
    }
}
