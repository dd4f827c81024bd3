package io.kuberaysim.e2e;

import io.kuberaysim.testing.Kubectl;
import io.kuberaysim.testing.SeedManifests;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Chaos switched on over HTTP with kubectl against a running server on the virtual clock: the sim.kuberay.io kinds
 * are discovered, applied, listed with their columns and refused with the field named; a schedule applied with
 * kubectl deletes Pods as time moves, and says so in Events and the timeline.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"kuberay-sim.clock=virtual", "kuberay-sim.controllers=true"})
class ChaosKubectlE2EIT {
    @LocalServerPort
    int port;
    @TempDir
    static Path dir;
    Kubectl kubectl;
    final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void kubectlInstalled() {
        assumeTrue(Kubectl.installed(), "kubectl is not on PATH: skipping the kubectl end-to-end tests");
    }

    @BeforeEach
    void kubectl() {
        kubectl = new Kubectl(port, dir);
    }

    private String post(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    private String get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    @Test
    void kindsAreDiscoveredAndExplained() throws Exception {
        Kubectl.Result resources = kubectl.run("api-resources", "--api-group=sim.kuberay.io");
        assertThat(resources.out()).as(resources.all())
                .contains("faultschedules", "fs", "sim.kuberay.io/v1alpha1", "FaultSchedule")
                .contains("podlifecyclerules", "plr", "PodLifecycleRule")
                .contains("nodelifecyclerules", "nlr", "false", "NodeLifecycleRule");
        Kubectl.Result explain = kubectl.run("explain", "faultschedule.spec.fault");
        assertThat(explain.out()).as(explain.all()).contains("type", "probability", "duration");
    }

    @Test
    void aBadScheduleIsRefusedNamingTheField() throws Exception {
        Kubectl.Result bad = kubectl.runWithInput("""
                apiVersion: sim.kuberay.io/v1alpha1
                kind: FaultSchedule
                metadata: {name: too-likely}
                spec:
                  interval: 10s
                  fault: {type: ApiErrors, probability: 1.5, duration: {fixed: 5s}}
                """, "apply", "-f", "-");
        assertThat(bad.exit()).isNotZero();
        assertThat(bad.err()).contains("The FaultSchedule \"too-likely\" is invalid",
                "spec.fault.probability: Invalid value: 1.5: must be between 0 and 1");
        Kubectl.Result unknown = kubectl.runWithInput("""
                apiVersion: sim.kuberay.io/v1alpha1
                kind: PodLifecycleRule
                metadata: {name: odd}
                spec:
                  selector: "a in (b"
                  startupDelay: {fixed: -1s}
                """, "apply", "-f", "-");
        assertThat(unknown.exit()).isNotZero();
        assertThat(unknown.err()).contains("spec.selector", "spec.startupDelay.fixed: Invalid value: \"-1s\"");
    }

    @Test
    void aScheduleAppliedWithKubectlKillsWorkersAsTimeMoves() throws Exception {
        assertThat(kubectl.runWithInput(SeedManifests.exampleCluster(), "apply", "-f", "-")
                .exit()).isZero();
        post("/sim/v1/clock/settle");
        Kubectl.Result applied = kubectl.runWithInput("""
                apiVersion: sim.kuberay.io/v1alpha1
                kind: FaultSchedule
                metadata: {name: kill-workers}
                spec:
                  interval: 10s
                  stopAfter: 15s
                  selector: ray.io/cluster=example-cluster,ray.io/node-type=worker
                  fault: {type: DeletePod}
                """, "apply", "-f", "-");
        assertThat(applied.out()).as(applied.all()).contains("faultschedule.sim.kuberay.io/kill-workers created");
        post("/sim/v1/clock/advance?seconds=11");

        Kubectl.Result listed = kubectl.run("get", "faultschedules");
        assertThat(listed.out()).as(listed.all()).contains("FAULT", "INTERVAL", "INJECTED")
                .containsPattern("kill-workers\\s+DeletePod\\s+10s\\s+ray.io/cluster=example-cluster,"
                        + "ray.io/node-type=worker\\s+1");
        Kubectl.Result events = kubectl.run("get", "events", "--field-selector", "reason=FaultInjected");
        assertThat(events.out()).as(events.all()).contains("pod/example-cluster-",
                "(schedule kill-workers)");
        assertThat(get("/sim/v1/timeline")).contains("fault: deleted Pod example-cluster-")
                .contains("(schedule kill-workers)");
    }
}
