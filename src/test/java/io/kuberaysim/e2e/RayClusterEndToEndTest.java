package io.kuberaysim.e2e;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.PatchType;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.testing.SeedManifests;
import io.kuberaysim.testing.SimulationHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.kuberaysim.e2e.OperatorE2e.NS;
import static io.kuberaysim.e2e.OperatorE2e.events;
import static io.kuberaysim.e2e.OperatorE2e.phase;
import static io.kuberaysim.e2e.OperatorE2e.pods;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * RayClusters on the real stack: the RayCluster controller over the simulated scheduler and kubelet (4 nodes of
 * 16 CPU, pods start 2 s after scheduling, a graceful delete takes 1 s), on the virtual clock.
 */
class RayClusterEndToEndTest {
    private final SimulationHarness h = SimulationHarness.withOperator();

    @AfterEach
    void close() {
        h.close();
    }

    static String seedCluster() {
        return SeedManifests.demoRayCluster();
    }

    JsonNode status(String name) {
        return h.client().get(ResourceTypes.RAYCLUSTERS, NS, name).object().path("status");
    }

    void advanceSeconds(int n) {
        for (int i = 0; i < n; i++) {
            h.advance(Duration.ofSeconds(1));
        }
    }

    void setReplicas(String cluster, int replicas) {
        h.client().patch(ResourceTypes.RAYCLUSTERS, NS, cluster, PatchType.JSON,
                Json.MAPPER.readTree("[{\"op\":\"replace\",\"path\":\"/spec/workerGroupSpecs/0/replicas\",\"value\":"
                        + replicas + "}]"));
        h.settle();
    }

    /** Worker pods of the cluster not being deleted. */
    List<StoredObject> liveWorkers(String cluster) {
        return pods(h, "ray.io/cluster=" + cluster + ",ray.io/node-type=worker").stream()
                .filter(p -> !p.isDeleting()).toList();
    }

    @Test
    void seedClusterIsReadyAfterTwoSecondsWithScheduledPods() {
        Instant t0 = h.clock().now();
        var ready = new OperatorE2e.FirstTime(h, ResourceTypes.RAYCLUSTERS, t0,
                rc -> "ready".equals(Json.text(rc.object(), "status", "state")));
        h.create(ResourceTypes.RAYCLUSTERS, NS, seedCluster());
        assertThat(status("demo-raycluster").path("state").asString()).isNotEqualTo("ready");
        advanceSeconds(3);
        assertThat(ready.seconds()).isEqualTo(2.0);

        JsonNode s = status("demo-raycluster");
        assertThat(s.path("state").asString()).isEqualTo("ready");
        assertThat(s.path("readyWorkerReplicas").asInt()).isEqualTo(2);
        assertThat(s.path("availableWorkerReplicas").asInt()).isEqualTo(2);
        List<StoredObject> pods = pods(h, "ray.io/cluster=demo-raycluster");
        assertThat(pods).hasSize(3).allSatisfy(p -> {
            assertThat(phase(p)).isEqualTo("Running");
            assertThat(Json.text(p.object(), "spec", "nodeName")).startsWith("sim-node-");
            assertThat(Json.text(p.object(), "status", "podIP")).startsWith("10.244.");
        });
        StoredObject head = h.client().get(ResourceTypes.PODS, NS, "demo-raycluster-head");
        assertThat(s.path("head").path("podIP").asString()).isEqualTo(Json.text(head.object(), "status", "podIP"));
        assertThat(s.path("head").path("podName").asString()).isEqualTo("demo-raycluster-head");
    }

    @Test
    void workerLargerThanAnyNodeStaysPendingWithFailedScheduling() {
        String manifest = seedCluster().replace("name: demo-raycluster", "name: big");
        // the worker group's cpu request and limit ("2") become more than a 16-CPU node has
        int wg = manifest.indexOf("workerGroupSpecs");
        manifest = manifest.substring(0, wg) + manifest.substring(wg).replace("cpu: \"2\"", "cpu: \"40\"");
        h.create(ResourceTypes.RAYCLUSTERS, NS, manifest);
        advanceSeconds(5);

        List<StoredObject> workers = liveWorkers("big");
        assertThat(workers).hasSize(2).allSatisfy(p -> {
            assertThat(phase(p)).isEqualTo("Pending");
            assertThat(Json.text(p.object(), "spec", "nodeName")).isNull();
        });
        assertThat(events(h, "FailedScheduling")).isNotEmpty()
                .allSatisfy(e -> assertThat(e).startsWith("Warning ").contains("Insufficient cpu"));
        JsonNode s = status("big");
        assertThat(s.path("desiredWorkerReplicas").asInt()).isEqualTo(2);
        assertThat(s.path("readyWorkerReplicas").asInt()).isLessThan(2);
        assertThat(s.path("state").asString()).isNotEqualTo("ready");
        assertThat(phase(h.client().get(ResourceTypes.PODS, NS, "big-head"))).isEqualTo("Running");
    }

    @Test
    void podsOfADeletedNodeFailAndAreRecreatedOnOtherNodes() {
        h.create(ResourceTypes.RAYCLUSTERS, NS, seedCluster());
        advanceSeconds(3);
        Map<String, String> before = nodesByPod("demo-raycluster");
        String victim = before.get("demo-raycluster-worker-small-wg-0");
        List<String> lost = before.entrySet().stream().filter(e -> e.getValue().equals(victim))
                .map(Map.Entry::getKey).sorted().toList();
        Map<String, String> uids = pods(h, "ray.io/cluster=demo-raycluster").stream()
                .collect(Collectors.toMap(StoredObject::name, StoredObject::uid));
        List<String> failed = new java.util.ArrayList<>();
        h.manager().informer(ResourceTypes.PODS).addHandler(new io.kuberaysim.controller.runtime.cache.InformerHandler() {
            @Override
            public void onUpdate(StoredObject oldObj, StoredObject newObj) {
                if ("Failed".equals(phase(newObj)) && !"Failed".equals(phase(oldObj))) {
                    failed.add(newObj.name() + ":" + Json.text(newObj.object(), "status", "reason"));
                }
            }
        });

        h.client().delete(ResourceTypes.NODES, null, victim);
        h.settle();
        assertThat(failed).containsExactlyInAnyOrderElementsOf(lost.stream().map(n -> n + ":NodeLost").toList());
        advanceSeconds(10);

        Map<String, String> after = nodesByPod("demo-raycluster");
        assertThat(after.keySet()).containsExactlyInAnyOrderElementsOf(before.keySet());
        assertThat(after.values()).doesNotContain(victim);
        for (String pod : lost) {
            assertThat(h.client().get(ResourceTypes.PODS, NS, pod).uid()).as(pod).isNotEqualTo(uids.get(pod));
        }
        assertThat(pods(h, "ray.io/cluster=demo-raycluster")).allSatisfy(p -> assertThat(phase(p)).isEqualTo("Running"));
        JsonNode s = status("demo-raycluster");
        assertThat(s.path("state").asString()).isEqualTo("ready");
        assertThat(s.path("readyWorkerReplicas").asInt()).isEqualTo(2);
    }

    @Test
    void headOfADeletedNodeIsRecreatedElsewhereAndStatusFollowsItsNewIp() {
        h.create(ResourceTypes.RAYCLUSTERS, NS, seedCluster());
        advanceSeconds(3);
        StoredObject head = h.client().get(ResourceTypes.PODS, NS, "demo-raycluster-head");
        String node = Json.text(head.object(), "spec", "nodeName");
        String oldIp = Json.text(head.object(), "status", "podIP");
        assertThat(status("demo-raycluster").path("head").path("podIP").asString()).isEqualTo(oldIp);

        h.client().delete(ResourceTypes.NODES, null, node);
        h.settle();
        assertThat(events(h, "DeletedHeadPod")).hasSize(1);
        advanceSeconds(3);

        StoredObject newHead = h.client().get(ResourceTypes.PODS, NS, "demo-raycluster-head");
        assertThat(newHead.uid()).isNotEqualTo(head.uid());
        assertThat(phase(newHead)).isEqualTo("Running");
        assertThat(Json.text(newHead.object(), "spec", "nodeName")).isNotEqualTo(node);
        String newIp = Json.text(newHead.object(), "status", "podIP");
        assertThat(newIp).isNotEqualTo(oldIp);
        JsonNode s = status("demo-raycluster");
        assertThat(s.path("head").path("podIP").asString()).isEqualTo(newIp);
        assertThat(s.path("conditions").findValuesAsString("reason")).contains("HeadPodRunningAndReady");
    }

    Map<String, String> nodesByPod(String cluster) {
        return pods(h, "ray.io/cluster=" + cluster).stream().filter(p -> !p.isDeleting())
                .collect(Collectors.toMap(StoredObject::name, p -> Json.text(p.object(), "spec", "nodeName")));
    }

    @Test
    void scalesUpAndDown() {
        h.create(ResourceTypes.RAYCLUSTERS, NS, seedCluster());
        advanceSeconds(3);
        assertThat(liveWorkers("demo-raycluster")).hasSize(2);

        setReplicas("demo-raycluster", 4);
        assertThat(liveWorkers("demo-raycluster")).hasSize(4);
        advanceSeconds(3);
        JsonNode s = status("demo-raycluster");
        assertThat(s.path("desiredWorkerReplicas").asInt()).isEqualTo(4);
        assertThat(s.path("readyWorkerReplicas").asInt()).isEqualTo(4);
        assertThat(liveWorkers("demo-raycluster")).allSatisfy(p -> assertThat(phase(p)).isEqualTo("Running"));

        setReplicas("demo-raycluster", 1);
        assertThat(liveWorkers("demo-raycluster")).hasSize(1);
        advanceSeconds(3);
        assertThat(pods(h, "ray.io/cluster=demo-raycluster,ray.io/node-type=worker")).hasSize(1);
        s = status("demo-raycluster");
        assertThat(s.path("desiredWorkerReplicas").asInt()).isEqualTo(1);
        assertThat(s.path("readyWorkerReplicas").asInt()).isEqualTo(1);
        assertThat(s.path("state").asString()).isEqualTo("ready");
    }
}
