package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.PatchType;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.testing.SimulationHarness;
import io.kuberaysim.testing.TestCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The RayCluster controller against KubeRay's behaviour. References are to
 * {@code ray-operator/controllers/ray/raycluster_controller.go} (RC), {@code .../common/pod.go},
 * {@code .../common/service.go} and {@code .../utils/*.go}, as summarised in kuberay-behaviour.md §1–§3.
 */
class RayClusterReconcilerTest {
    static final String NS = "default";

    static String cluster(String name, int replicas, int min, int max) {
        return """
                apiVersion: ray.io/v1
                kind: RayCluster
                metadata:
                  name: %s
                spec:
                  rayVersion: "2.9.0"
                  headGroupSpec:
                    rayStartParams:
                      dashboard-host: "0.0.0.0"
                      num-cpus: "0"
                    template:
                      spec:
                        containers:
                        - name: ray-head
                          image: rayproject/ray:2.9.0
                          resources:
                            requests: {cpu: "1", memory: "2Gi"}
                            limits: {cpu: "1", memory: "2Gi"}
                  workerGroupSpecs:
                  - groupName: small-wg
                    replicas: %d
                    minReplicas: %d
                    maxReplicas: %d
                    rayStartParams:
                      num-cpus: "2"
                    template:
                      spec:
                        containers:
                        - name: ray-worker
                          image: rayproject/ray:2.9.0
                          resources:
                            requests: {cpu: "2", memory: "4Gi"}
                            limits: {cpu: "2", memory: "4Gi"}
                """.formatted(name, replicas, min, max);
    }

    SimulationHarness h;
    KubeClient client;
    int statusWrites;

    @BeforeEach
    void setUp() {
        h = new SimulationHarness();
        client = h.client();
        new TestKubelet(h.manager(), 16);
        RayClusterReconciler.register(h.manager(), RayClusterReconciler.DEFAULT_STEADY_REQUEUE);
        SimulatedAutoscaler.register(h.manager());
        h.manager().informer(ResourceTypes.RAYCLUSTERS).addHandler(new io.kuberaysim.controller.runtime.cache.InformerHandler() {
            @Override
            public void onAdd(StoredObject o) {
            }

            @Override
            public void onUpdate(StoredObject oldObj, StoredObject newObj) {
                if (!java.util.Objects.equals(oldObj.object().get("status"), newObj.object().get("status"))) {
                    statusWrites++;
                }
            }

            @Override
            public void onDelete(StoredObject o) {
            }
        });
        h.settle();
    }

    @AfterEach
    void tearDown() {
        h.close();
    }

    StoredObject rc(String name) {
        return client.get(ResourceTypes.RAYCLUSTERS, NS, name);
    }

    JsonNode status(String name) {
        return rc(name).object().path("status");
    }

    List<String> podNames(String cluster) {
        return client.list(ResourceTypes.PODS, NS, "ray.io/cluster=" + cluster).stream()
                .map(StoredObject::name).sorted().toList();
    }

    List<String> workerNames(String cluster) {
        return client.list(ResourceTypes.PODS, NS, "ray.io/cluster=" + cluster + ",ray.io/node-type=worker").stream()
                .map(StoredObject::name).sorted().toList();
    }

    List<String> eventReasons() {
        return client.list(ResourceTypes.EVENTS, NS, null).stream()
                .map(e -> Json.text(e.object(), "reason")).toList();
    }

    List<JsonNode> events(String reason) {
        return client.list(ResourceTypes.EVENTS, NS, null).stream().map(StoredObject::object)
                .filter(e -> reason.equals(Json.text(e, "reason"))).map(e -> (JsonNode) e).toList();
    }

    void mergePatch(String name, String json) {
        client.patch(ResourceTypes.RAYCLUSTERS, NS, name, PatchType.MERGE, Json.MAPPER.readTree(json));
        h.settle();
    }

    void setReplicas(String name, int replicas) {
        ObjectNode obj = rc(name).copy();
        ((ObjectNode) obj.path("spec").path("workerGroupSpecs").get(0)).put("replicas", replicas);
        client.update(ResourceTypes.RAYCLUSTERS, obj);
        h.settle();
    }

    void converge() {
        for (int i = 0; i < 10; i++) {
            h.advance(Duration.ofSeconds(1));
        }
    }

    // RC reconcileHeadService/reconcilePods/calculateStatus; common/pod.go labelPod; common/service.go:
    // Services and Pods appear at once, the cluster turns ready when the Pods run (2 s startup delay).
    @Test
    void creationConvergesToReadyAtPodStartupDelay() {
        h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("demo", 2, 1, 4));

        assertThat(client.get(ResourceTypes.SERVICES, NS, "demo-head-svc")).isNotNull();
        assertThat(podNames("demo")).containsExactly("demo-head", "demo-worker-small-wg-0", "demo-worker-small-wg-1");
        assertThat(status("demo").path("state").isMissingNode()).isTrue();
        assertThat(status("demo").path("desiredWorkerReplicas").asInt()).isEqualTo(2);
        assertThat(eventReasons()).contains("CreatedService", "CreatedHeadPod", "CreatedWorkerPod");

        h.advance(Duration.ofMillis(1900));
        assertThat(status("demo").path("state").isMissingNode()).isTrue();
        h.advance(Duration.ofMillis(100));
        JsonNode s = status("demo");
        assertThat(s.path("state").asString()).isEqualTo("ready");
        assertThat(s.path("readyWorkerReplicas").asInt()).isEqualTo(2);
        assertThat(s.path("availableWorkerReplicas").asInt()).isEqualTo(2);
        assertThat(s.path("minWorkerReplicas").asInt()).isEqualTo(1);
        assertThat(s.path("maxWorkerReplicas").asInt()).isEqualTo(4);
        assertThat(s.path("head").path("podName").asString()).isEqualTo("demo-head");
        assertThat(s.path("head").path("serviceName").asString()).isEqualTo("demo-head-svc");
        // headless head Service: serviceIP is the head Pod IP
        assertThat(s.path("head").path("serviceIP").asString()).isEqualTo(s.path("head").path("podIP").asString())
                .isNotEmpty();
        assertThat(s.path("endpoints").path("dashboard").asString()).isEqualTo("8265");
        assertThat(s.path("endpoints").path("gcs-server").asString()).isEqualTo("6379");
        assertThat(s.path("observedGeneration").asLong()).isEqualTo(1);
        assertThat(condition(s, "HeadPodReady").path("reason").asString()).isEqualTo("HeadPodRunningAndReady");
        assertThat(condition(s, "RayClusterProvisioned").path("status").asString()).isEqualTo("True");
    }

    static JsonNode condition(JsonNode status, String type) {
        for (JsonNode c : status.path("conditions")) {
            if (type.equals(Json.text(c, "type"))) {
                return c;
            }
        }
        return Json.object();
    }

    // common/pod.go (labelPod, DefaultHeadPodTemplate, BuildPod, setContainerEnvVars), common/service.go
    // (BuildServiceForHeadPod): labels, ownerReferences, generated ray start, env and the headless head Service.
    @Test
    void podsAndServiceCarryKubeRayLabelsCommandEnvAndOwnerReferences() {
        StoredObject rc = h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("demo", 1, 0, 4));
        JsonNode head = client.get(ResourceTypes.PODS, NS, "demo-head").object();
        JsonNode labels = head.path("metadata").path("labels");
        assertThat(labels.path("ray.io/cluster").asString()).isEqualTo("demo");
        assertThat(labels.path("ray.io/node-type").asString()).isEqualTo("head");
        assertThat(labels.path("ray.io/group").asString()).isEqualTo("headgroup");
        assertThat(labels.path("ray.io/identifier").asString()).isEqualTo("demo-head");
        assertThat(labels.path("ray.io/is-ray-node").asString()).isEqualTo("yes");
        assertThat(labels.path("app.kubernetes.io/name").asString()).isEqualTo("kuberay");
        assertThat(labels.path("app.kubernetes.io/created-by").asString()).isEqualTo("kuberay-operator");
        assertThat(head.path("metadata").path("annotations").path("ray.io/ft-enabled").asString()).isEqualTo("false");
        JsonNode owner = head.path("metadata").path("ownerReferences").get(0);
        assertThat(owner.path("kind").asString()).isEqualTo("RayCluster");
        assertThat(owner.path("uid").asString()).isEqualTo(rc.uid());
        assertThat(owner.path("controller").asBoolean()).isTrue();
        assertThat(owner.path("blockOwnerDeletion").asBoolean()).isTrue();
        JsonNode ray = head.path("spec").path("containers").get(0);
        assertThat(ray.path("command").toString()).isEqualTo("[\"/bin/bash\",\"-c\",\"--\"]");
        assertThat(ray.path("args").get(0).asString()).isEqualTo("ulimit -n ${RAY_START_ULIMIT_OPEN_FILES:-65536}; "
                + "ray start --head --block --dashboard-agent-listen-port=52365 --dashboard-host=0.0.0.0 "
                + "--memory=2147483648 --metrics-export-port=8080 --num-cpus=0");
        assertThat(envNames(ray)).contains("RAY_CLUSTER_NAME", "RAY_CLUSTER_NAMESPACE", "RAY_PORT", "RAY_ADDRESS",
                "KUBERAY_GEN_RAY_START_CMD").doesNotContain("FQ_RAY_IP");

        JsonNode worker = client.get(ResourceTypes.PODS, NS, "demo-worker-small-wg-0").object();
        assertThat(worker.path("metadata").path("labels").path("ray.io/worker-group-replica-index").asString())
                .isEqualTo("0");
        assertThat(worker.path("metadata").path("labels").path("ray.io/identifier").asString()).isEqualTo("demo-worker");
        JsonNode wray = worker.path("spec").path("containers").get(0);
        assertThat(wray.path("args").get(0).asString())
                .contains("ray start --address=demo-head-svc.default.svc.cluster.local:6379 --block");
        assertThat(env(wray, "FQ_RAY_IP")).isEqualTo("demo-head-svc.default.svc.cluster.local");
        assertThat(env(wray, "RAY_IP")).isEqualTo("demo-head-svc");
        assertThat(worker.path("spec").path("initContainers").get(0).path("name").asString()).isEqualTo("wait-gcs-ready");

        JsonNode svc = client.get(ResourceTypes.SERVICES, NS, "demo-head-svc").object();
        assertThat(svc.path("spec").path("clusterIP").asString()).isEqualTo("None");
        assertThat(svc.path("spec").path("publishNotReadyAddresses").asBoolean()).isTrue();
        assertThat(svc.path("spec").path("selector").path("ray.io/node-type").asString()).isEqualTo("head");
        assertThat(svc.path("spec").path("ports").findValuesAsString("name"))
                .containsExactly("client", "dashboard", "gcs-server", "metrics", "serve");
        // no serve Service without the ray.io/enable-serve-service annotation
        assertThat(client.get(ResourceTypes.SERVICES, NS, "demo-serve-svc")).isNull();
    }

    static List<String> envNames(JsonNode container) {
        return container.path("env").findValuesAsString("name");
    }

    static String env(JsonNode container, String name) {
        for (JsonNode e : container.path("env")) {
            if (name.equals(Json.text(e, "name"))) {
                return Json.text(e, "value");
            }
        }
        return null;
    }
}
