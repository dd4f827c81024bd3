package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.testing.SeedManifests;
import io.kuberaysim.api.Json;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seed's {@code demo-raycluster} manifest (seeds/001), applied over HTTP to the whole application on a
 * virtual clock, reaches {@code state: ready} with one head and two workers, with the columns of
 * {@code kubectl get raycluster -o wide} filled (CRD printer columns, kuberay-behaviour.md §6).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"kuberay-sim.clock=virtual", "kuberay-sim.controllers=true"})
class SeedDemoRayClusterHttpIT {
    static final String MANIFEST = SeedManifests.demoRayCluster();

    @LocalServerPort
    int port;
    @Autowired
    Clock clock;
    @Autowired
    ControllerManager manager;

    final HttpClient http = HttpClient.newHttpClient();

    HttpResponse<String> send(String method, String path, String contentType, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path));
        if (body == null) {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            b.header("Content-Type", contentType).method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void seedDemoClusterBecomesReadyWithOneHeadAndTwoWorkers() throws Exception {
        VirtualClock virtual = (VirtualClock) clock;
        // the application's own simulated cluster runs the pods: exactly one kubelet and one scheduler
        assertThat(manager.controllers()).filteredOn(c -> c.name().contains("kubelet")).hasSize(1);
        assertThat(manager.controllers()).filteredOn(c -> c.name().contains("scheduler")).hasSize(1);
        HttpResponse<String> created = send("POST", "/apis/ray.io/v1/namespaces/default/rayclusters",
                "application/yaml", MANIFEST);
        assertThat(created.statusCode()).isEqualTo(201);
        virtual.awaitIdle();
        for (int i = 0; i < 5; i++) {
            virtual.advance(Duration.ofSeconds(1));
        }
        JsonNode rc = Json.MAPPER.readTree(send("GET", "/apis/ray.io/v1/namespaces/default/rayclusters/demo-raycluster",
                null, null).body());
        JsonNode s = rc.path("status");
        assertThat(s.path("state").asString()).isEqualTo("ready");
        assertThat(s.path("desiredWorkerReplicas").asInt()).isEqualTo(2);
        assertThat(s.path("availableWorkerReplicas").asInt()).isEqualTo(2);
        assertThat(s.path("desiredCPU").asString()).isEqualTo("5");
        assertThat(s.path("desiredMemory").asString()).isEqualTo("10Gi");
        assertThat(s.path("desiredGPU").asString()).isEqualTo("0");
        assertThat(s.path("desiredTPU").asString()).isEqualTo("0");
        assertThat(s.path("head").path("podIP").asString()).isNotEmpty();
        assertThat(s.path("head").path("serviceIP").asString()).isEqualTo(s.path("head").path("podIP").asString());
        assertThat(s.path("readyWorkerReplicas").asInt()).isEqualTo(2);

        JsonNode pods = Json.MAPPER.readTree(send("GET",
                "/api/v1/namespaces/default/pods?labelSelector=ray.io/cluster%3Ddemo-raycluster", null, null).body());
        assertThat(pods.path("items").size()).isEqualTo(3);
        assertThat(pods.path("items")).allSatisfy(p -> {
            assertThat(p.path("spec").path("nodeName").asString()).startsWith("sim-node-");
            assertThat(p.path("status").path("phase").asString()).isEqualTo("Running");
        });
        assertThat(java.util.stream.StreamSupport.stream(pods.path("items").spliterator(), false).map(p -> p.path("metadata").path("name").asString()))
                .containsExactlyInAnyOrder("demo-raycluster-head", "demo-raycluster-worker-small-wg-0",
                        "demo-raycluster-worker-small-wg-1");
        assertThat(send("GET", "/api/v1/namespaces/default/services/demo-raycluster-head-svc", null, null).statusCode())
                .isEqualTo(200);
    }

    /**
     * Each Event is the write of the component that recorded it, as on a cluster where every component creates its
     * Events with its own client: its managedFields name that component's field manager, not the operator's.
     */
    @Test
    void eventsAreWrittenAsTheComponentThatRecordedThem() throws Exception {
        VirtualClock virtual = (VirtualClock) clock;
        String manifest = MANIFEST.replace("name: demo-raycluster", "name: fm-raycluster");
        assertThat(send("POST", "/apis/ray.io/v1/namespaces/default/rayclusters", "application/yaml", manifest)
                .statusCode()).isEqualTo(201);
        virtual.awaitIdle();
        for (int i = 0; i < 5; i++) {
            virtual.advance(Duration.ofSeconds(1));
        }
        JsonNode events = Json.MAPPER.readTree(send("GET", "/apis/events.k8s.io/v1/namespaces/default/events",
                null, null).body()).path("items");
        java.util.Map<String, java.util.Set<String>> managers = new java.util.TreeMap<>();
        for (JsonNode e : events) {
            if (!e.path("regarding").path("name").asString().startsWith("fm-raycluster")) {
                continue;
            }
            String recorder = e.path("reportingController").asString();
            if (recorder.isEmpty()) {
                recorder = e.path("deprecatedSource").path("component").asString();
            }
            JsonNode mf = e.path("metadata").path("managedFields");
            assertThat(mf.size()).as("managedFields of %s", e.path("metadata").path("name").asString()).isEqualTo(1);
            managers.computeIfAbsent(recorder, r -> new java.util.TreeSet<>()).add(mf.get(0).path("manager").asString());
        }
        assertThat(managers).containsEntry("raycluster-controller", java.util.Set.of("ray-operator"))
                .containsEntry("default-scheduler", java.util.Set.of("kube-scheduler"))
                .containsEntry("kubelet", java.util.Set.of("kubelet"));
    }
}
