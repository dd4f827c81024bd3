package io.kuberaysim.e2e;

import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import io.kuberaysim.testing.Kubectl;
import io.kuberaysim.testing.SeedManifests;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
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

/** kubectl 1.32 against the operator and the simulated cluster on the virtual clock: logs, cascading deletion. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class KubectlClusterE2EIT {
    @LocalServerPort
    int port;
    @Autowired
    Clock clock;
    @Autowired
    GenericRegistry registry;
    @TempDir
    static Path dir;
    Kubectl kubectl;
    VirtualClock virtual;

    @BeforeAll
    static void kubectlInstalled() {
        assumeTrue(Kubectl.installed(), "kubectl is not on PATH: skipping the kubectl end-to-end tests");
    }

    @BeforeEach
    void kubectl() {
        kubectl = new Kubectl(port, dir);
        virtual = (VirtualClock) clock;
    }

    @Test
    void followEndsWhenTheContainerStopsAndPreviousTailTimestampsWork() throws Exception {
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

    @Test
    void aCrashingContainerShowsCrashLoopBackOffAndWhenItLastRestarted() throws Exception {
        Kubectl.Result created = kubectl.runWithInput("""
                apiVersion: v1
                kind: Pod
                metadata:
                  name: crasher
                  annotations: {sim.kuberay.io/run-seconds: "10", sim.kuberay.io/exit-code: "1"}
                spec:
                  containers: [{name: main, image: busybox}]
                """, "apply", "-f", "-");
        assertThat(created.exit()).as(created.all()).isZero();
        virtual.awaitIdle();
        virtual.advance(Duration.ofSeconds(2 + 10 + 10 + 5)); // started, exited and restarted, exited again 5 s ago

        Kubectl.Result get = kubectl.run("get", "pod", "crasher", "--no-headers");
        assertThat(get.out()).as(get.all()).matches("crasher\\s+0/1\\s+CrashLoopBackOff\\s+1 \\(5s ago\\)\\s+27s\\n");
        Kubectl.Result events = kubectl.run("get", "events", "--field-selector", "reason=BackOff", "-o",
                "jsonpath={.items[*].message}");
        assertThat(events.out()).as(events.all()).startsWith("Back-off restarting failed container main in pod crasher_default(");

        virtual.advance(Duration.ofSeconds(5)); // the 10 s back-off is over
        get = kubectl.run("get", "pod", "crasher", "--no-headers");
        assertThat(get.out()).as(get.all()).matches("crasher\\s+1/1\\s+Running\\s+2 \\(10s ago\\)\\s+32s\\n");
    }

    @Test
    void foregroundDeletionReturnsOnceThePodsTerminated() throws Exception {
        String manifest = SeedManifests.demoRayCluster().replace("name: demo-raycluster", "name: fg");
        assertThat(kubectl.runWithInput(manifest, "apply", "-f", "-").exit()).isZero();
        virtual.awaitIdle();
        virtual.advance(Duration.ofSeconds(3));
        assertThat(registry.reader().list(ResourceTypes.PODS, "default",
                io.kuberaysim.apiserver.registry.ListOptions.ALL).items()).anyMatch(p -> p.name().startsWith("fg-"));

        try (Kubectl.Background delete = kubectl.start("delete", "--cascade=foreground", "raycluster/fg")) {
            delete.awaitLine("raycluster.ray.io \"fg\" deleted");
            // the Pods terminate gracefully (30 s grace, the kubelet's 1 s termination): nothing is gone yet
            virtual.awaitIdle();
            var head = registry.store().get(ResourceTypes.PODS, "default", "fg-head");
            assertThat(head).isNotNull();
            assertThat(head.metadata().get("deletionGracePeriodSeconds").asLong()).isEqualTo(30);
            assertThat(registry.store().get(ResourceTypes.RAYCLUSTERS, "default", "fg")).isNotNull();
            assertThat(delete.process.isAlive()).as("kubectl waits for the cluster to go").isTrue();

            virtual.advance(Duration.ofSeconds(2));
            assertThat(delete.process.waitFor(30, TimeUnit.SECONDS)).as("kubectl delete returns").isTrue();
            assertThat(delete.process.exitValue()).isZero();
            assertThat(registry.store().get(ResourceTypes.RAYCLUSTERS, "default", "fg")).isNull();
            assertThat(registry.store().get(ResourceTypes.PODS, "default", "fg-head")).isNull();
        }
    }

    @Test
    void aWorkerWithoutItsHeadStaysInitializing() throws Exception {
        Kubectl.Result created = kubectl.runWithInput("""
                apiVersion: v1
                kind: Pod
                metadata:
                  name: lonely-worker
                  labels: {ray.io/cluster: headless, ray.io/node-type: worker}
                spec:
                  initContainers: [{name: wait-gcs-ready, image: rayproject/ray:2.41.0}]
                  containers: [{name: ray-worker, image: rayproject/ray:2.41.0}]
                """, "apply", "-f", "-");
        assertThat(created.exit()).as(created.all()).isZero();
        virtual.awaitIdle();
        virtual.advance(Duration.ofSeconds(5));
        Kubectl.Result get = kubectl.run("get", "pod", "lonely-worker");
        assertThat(get.out()).as(get.all()).containsPattern("lonely-worker\\s+0/1\\s+Init:0/1");
        Kubectl.Result describe = kubectl.run("describe", "pod", "lonely-worker");
        assertThat(describe.out()).as(describe.all()).contains("Init Containers:", "wait-gcs-ready:")
                .containsPattern("State:\\s+Running");
        Kubectl.Result log = kubectl.run("logs", "lonely-worker", "-c", "wait-gcs-ready");
        assertThat(log.out()).as(log.all()).contains("simulated container wait-gcs-ready");
    }
}
