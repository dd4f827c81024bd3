package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.PatchType;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.sim.ray.SimulatedAutoscaler;
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
        h = SimulationHarness.withSimulatedCluster();
        client = h.client();
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
        assertThat(s.has("reason")).as("an empty reason is omitted (omitempty), not \"\"").isFalse();
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
        // raycluster_controller.go calculateStatus, default branch: both suspend conditions False, always
        assertThat(condition(s, "RayClusterSuspended").path("status").asString()).isEqualTo("False");
        assertThat(condition(s, "RayClusterSuspending").path("status").asString()).isEqualTo("False");
        assertThat(condition(s, "RayClusterSuspending").path("reason").asString()).isEqualTo("RayClusterSuspending");
        assertThat(s.path("conditions")).hasSize(4);
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
        // common/pod.go convertParamMap writes each flag " --k=v "
        assertThat(ray.path("args").get(0).asString()).isEqualTo("ulimit -n ${RAY_START_ULIMIT_OPEN_FILES:-65536}; "
                + "ray start --head  --block  --dashboard-agent-listen-port=52365  --dashboard-host=0.0.0.0 "
                + " --memory=2147483648  --metrics-export-port=8080  --num-cpus=0 ");
        assertThat(envNames(ray)).contains("RAY_CLUSTER_NAME", "RAY_CLUSTER_NAMESPACE", "RAY_PORT", "RAY_ADDRESS",
                "KUBERAY_GEN_RAY_START_CMD").doesNotContain("FQ_RAY_IP");

        JsonNode worker = client.get(ResourceTypes.PODS, NS, "demo-worker-small-wg-0").object();
        assertThat(worker.path("metadata").path("labels").path("ray.io/worker-group-replica-index").asString())
                .isEqualTo("0");
        assertThat(worker.path("metadata").path("labels").path("ray.io/identifier").asString()).isEqualTo("demo-worker");
        JsonNode wray = worker.path("spec").path("containers").get(0);
        assertThat(wray.path("args").get(0).asString())
                .contains("ray start  --address=demo-head-svc.default.svc.cluster.local:6379  --block ");
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

    // RC reconcilePods step 6f: scale-out creates the missing Pods with the lowest free
    // ray.io/worker-group-replica-index; scale-in (autoscaling off) deletes the surplus. The simulation deletes the
    // highest indices, so names stay compact.
    @Test
    void scaleOutTwoToFourAndInFourToOne() {
        h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("demo", 2, 1, 4));
        converge();
        setReplicas("demo", 4);
        assertThat(workerNames("demo")).containsExactly("demo-worker-small-wg-0", "demo-worker-small-wg-1",
                "demo-worker-small-wg-2", "demo-worker-small-wg-3");
        converge();
        assertThat(status("demo").path("readyWorkerReplicas").asInt()).isEqualTo(4);
        assertThat(status("demo").path("desiredWorkerReplicas").asInt()).isEqualTo(4);

        setReplicas("demo", 1);
        converge();
        assertThat(workerNames("demo")).containsExactly("demo-worker-small-wg-0");
        assertThat(status("demo").path("readyWorkerReplicas").asInt()).isEqualTo(1);
        assertThat(status("demo").path("state").asString()).isEqualTo("ready");
        // client-go tools/events (KubeRay's recorder): the three deletions of one pass are isomorphic (the note
        // does not count), so one Event with a series of 2; the third occurrence is counted until the series ends
        assertThat(events("DeletedWorkerPod")).hasSize(1);
        assertThat(events("DeletedWorkerPod").get(0).path("series").path("count").asInt()).isEqualTo(2);

        setReplicas("demo", 3);
        converge();
        assertThat(workerNames("demo")).containsExactly("demo-worker-small-wg-0", "demo-worker-small-wg-1",
                "demo-worker-small-wg-2");
    }

    // utils/util.go GetWorkerGroupDesiredReplicas: replicas below min → min, above max → max.
    @Test
    void replicasAreClampedToMinAndMax() {
        h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("demo", 0, 2, 3));
        assertThat(workerNames("demo")).hasSize(2);
        setReplicas("demo", 10);
        assertThat(workerNames("demo")).hasSize(3);
        converge();
        JsonNode s = status("demo");
        assertThat(s.path("desiredWorkerReplicas").asInt()).isEqualTo(3);
        // desiredCPU uses the raw replicas (utils/util.go CalculateDesiredResources): 1 + 10 × 2
        assertThat(s.path("desiredCPU").asString()).isEqualTo("21");
    }

    // A RayCluster managed by another controller is skipped with a log line naming the manager: a newline in that
    // field must not forge a second log line.
    @Test
    void valuesFromTheObjectAreEscapedInTheLog() {
        ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger)
                org.slf4j.LoggerFactory.getLogger(RayClusterReconciler.class);
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> logs =
                new ch.qos.logback.core.read.ListAppender<>();
        logs.start();
        logger.addAppender(logs);
        try {
            h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("demo", 1, 0, 4).replace("spec:\n  rayVersion",
                    "spec:\n  managedBy: \"other\\n2026-01-01T00:00:00Z  INFO forged: cluster deleted\"\n  rayVersion"));
            assertThat(logs.list).extracting(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage)
                    .contains("Skipping RayCluster default/demo managed by other\\n2026-01-01T00:00:00Z  INFO forged: "
                            + "cluster deleted")
                    .allSatisfy(line -> assertThat(line).doesNotContain("\n"));
        } finally {
            logger.detachAppender(logs);
        }
    }

    // The CRD has no minimum on replicas: a negative count is clamped to minReplicas for Pods, and counts as
    // nothing (not as negative cpus) in the desired resources.
    @Test
    void negativeReplicasNeverGiveNegativeResources() {
        h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("demo", -5, 0, 3));
        converge();
        JsonNode s = status("demo");
        assertThat(workerNames("demo")).isEmpty();
        assertThat(s.path("desiredWorkerReplicas").asInt()).isZero();
        assertThat(s.path("desiredCPU").asString()).isEqualTo("1");
        assertThat(s.path("desiredMemory").asString()).isEqualTo("2Gi");
    }

    // RC reconcilePods step 6e: Pods named in scaleStrategy.workersToDelete are deleted regardless of replicas.
    @Test
    void workersToDeleteRemovesTheNamedPods() {
        h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("demo", 3, 0, 5));
        converge();
        mergePatch("demo", """
                {"spec": {"workerGroupSpecs": [%s]}}""".formatted(groupJson(2, "[\"demo-worker-small-wg-1\"]")));
        converge();
        assertThat(workerNames("demo")).containsExactly("demo-worker-small-wg-0", "demo-worker-small-wg-2");
        assertThat(events("DeletedWorkerPod")).anySatisfy(e ->
                assertThat(Json.text(e, "message")).isEqualTo("Deleted pod default/demo-worker-small-wg-1"));
    }

    String groupJson(int replicas, String workersToDelete) {
        JsonNode g = rc("demo").object().path("spec").path("workerGroupSpecs").get(0);
        ObjectNode copy = (ObjectNode) g.deepCopy();
        copy.put("replicas", replicas);
        copy.putObject("scaleStrategy").set("workersToDelete", Json.MAPPER.readTree(workersToDelete));
        return copy.toString();
    }

    // RC reconcilePods 6d + shouldDeletePod: a Failed worker is deleted (DeletedWorkerPod) and recreated on a later
    // pass; a worker deleted by hand is recreated with its index.
    @Test
    void failedOrDeletedWorkerIsRecreated() {
        h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("demo", 2, 0, 4));
        converge();
        StoredObject w1 = client.get(ResourceTypes.PODS, NS, "demo-worker-small-wg-1");
        ObjectNode failed = w1.copy();
        ((ObjectNode) failed.get("status")).put("phase", "Failed");
        client.updateStatus(ResourceTypes.PODS, failed);
        h.settle();
        assertThat(events("DeletedWorkerPod")).anySatisfy(e -> assertThat(Json.text(e, "message"))
                .startsWith("Deleted worker Pod default/demo-worker-small-wg-1; Pod status: Failed"));
        converge();
        StoredObject again = client.get(ResourceTypes.PODS, NS, "demo-worker-small-wg-1");
        assertThat(again).isNotNull();
        assertThat(again.uid()).isNotEqualTo(w1.uid());
        assertThat(Json.text(again.object(), "status", "phase")).isEqualTo("Running");

        StoredObject w0 = client.get(ResourceTypes.PODS, NS, "demo-worker-small-wg-0");
        client.delete(ResourceTypes.PODS, NS, "demo-worker-small-wg-0");
        converge();
        assertThat(client.get(ResourceTypes.PODS, NS, "demo-worker-small-wg-0").uid()).isNotEqualTo(w0.uid());
        assertThat(status("demo").path("readyWorkerReplicas").asInt()).isEqualTo(2);
    }

    // raycluster_controller.go Reconcile: the autoscaler v1 restartPolicy warning (the cluster is reconciled anyway)
    @Test
    void autoscalerV1WorkerRestartPolicyIsWarnedAbout() {
        h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("demo", 1, 0, 4)
                .replaceFirst("(?m)^(\\s*)rayVersion: \"2.9.0\"\n",
                        "$1rayVersion: \"2.9.0\"\n$1enableInTreeAutoscaling: true\n$1autoscalerOptions: {version: v1}\n")
                .replaceFirst("(?m)^(\\s*)containers:\n(\\s*)- name: ray-worker",
                        "$1restartPolicy: Always\n$1containers:\n$2- name: ray-worker"));
        converge();
        assertThat(events("InvalidRayClusterSpec")).anySatisfy(e -> assertThat(Json.text(e, "message")).isEqualTo(
                "RayCluster spec warning default/demo: restartPolicy for worker groups [small-wg] should be Never or "
                        + "unset when using autoscaler V1"));
        assertThat(podNames("demo")).isNotEmpty();
    }

    // raycluster_controller.go Reconcile: ValidateRayClusterMetadata. The API takes any DNS-1123 subdomain as a
    // custom resource's name (KubeRay's admission webhook is optional); the operator refuses the rest with an event.
    @Test
    void namesKubeRayRefusesAreStoredAndGetAWarningInsteadOfPods() {
        String tooLong = "a".repeat(54);
        for (String name : List.of("1abc", "with.dot", tooLong)) {
            h.create(ResourceTypes.RAYCLUSTERS, NS, cluster(name, 1, 0, 4));
        }
        converge();
        List<String> messages = events("InvalidRayClusterMetadata").stream()
                .peek(e -> assertThat(Json.text(e, "type")).isEqualTo("Warning"))
                .map(e -> Json.text(e, "message")).toList();
        assertThat(messages).anyMatch(m -> m.startsWith("The RayCluster metadata is invalid default/1abc: "
                + "RayCluster name should be a valid DNS1035 label: [a DNS-1035 label must consist of lower case"));
        assertThat(messages).anyMatch(m -> m.startsWith("The RayCluster metadata is invalid default/with.dot: "));
        assertThat(messages).contains("The RayCluster metadata is invalid default/" + tooLong
                + ": RayCluster name should be no more than 53 characters");
        for (String name : List.of("1abc", "with.dot", tooLong)) {
            assertThat(podNames(name)).as(name).isEmpty();
        }
        assertThat(client.list(ResourceTypes.SERVICES, NS, null)).isEmpty();

        // the longest name the API takes: its Event's name (<name>.<hex>) is too long to store, as with client-go,
        // and the operator goes on serving the others
        h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("a".repeat(253), 1, 0, 4));
        h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("fine", 1, 0, 4));
        converge();
        assertThat(client.list(ResourceTypes.PODS, NS, null)).extracting(StoredObject::name)
                .noneMatch(n -> n.startsWith("aaaa"));
        assertThat(status("fine").path("state").asString()).isEqualTo("ready");
    }

    // RC reconcilePods step 5: with 0 head Pods the head is created again (CreatedHeadPod).
    @Test
    void deletedHeadIsRecreated() {
        h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("demo", 1, 0, 4));
        converge();
        StoredObject head = client.get(ResourceTypes.PODS, NS, "demo-head");
        client.delete(ResourceTypes.PODS, NS, "demo-head");
        converge();
        StoredObject again = client.get(ResourceTypes.PODS, NS, "demo-head");
        assertThat(again.uid()).isNotEqualTo(head.uid());
        // client-go tools/events keys isomorphic events by the regarding object's resourceVersion too: the
        // cluster changed between the two creations, so two Events
        assertThat(events("CreatedHeadPod")).hasSize(2);
        assertThat(status("demo").path("head").path("podIP").asString())
                .isEqualTo(Json.text(again.object(), "status", "podIP"));
    }

    // RC reconcilePods step 2 and calculateStatus (utils/util.go FindRayClusterSuspendStatus): suspend deletes every
    // Pod, Suspending then Suspended, state suspended; resume recreates them and the cluster becomes ready again.
    @Test
    void suspendAndResume() {
        h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("demo", 2, 0, 4));
        converge();
        mergePatch("demo", "{\"spec\": {\"suspend\": true}}");
        assertThat(condition(status("demo"), "RayClusterSuspending").path("status").asString()).isEqualTo("True");
        converge();
        JsonNode s = status("demo");
        assertThat(podNames("demo")).isEmpty();
        assertThat(s.path("state").asString()).isEqualTo("suspended");
        assertThat(condition(s, "RayClusterSuspending").path("status").asString()).isEqualTo("False");
        assertThat(condition(s, "RayClusterSuspended").path("status").asString()).isEqualTo("True");
        assertThat(condition(s, "RayClusterProvisioned").path("message").asString())
                .isEqualTo("RayCluster has been suspended");
        assertThat(condition(s, "HeadPodReady").path("reason").asString()).isEqualTo("HeadPodNotFound");
        assertThat(events("DeletedPod")).anySatisfy(e -> assertThat(Json.text(e, "message"))
                .isEqualTo("Deleted Pods for RayCluster default/demo due to suspension"));
        // raycluster_controller.go reconcilePods records DeletedPod on every Suspending pass, also the one that
        // finds no Pod left: more than the single deletion pass
        int occurrences = events("DeletedPod").stream()
                .mapToInt(e -> Math.max(1, e.path("series").path("count").asInt())).sum();
        assertThat(occurrences).isGreaterThan(1);

        mergePatch("demo", "{\"spec\": {\"suspend\": false}}");
        converge();
        s = status("demo");
        assertThat(podNames("demo")).hasSize(3);
        assertThat(s.path("state").asString()).isEqualTo("ready");
        assertThat(condition(s, "RayClusterSuspended").path("status").asString()).isEqualTo("False");
    }

    // utils/validation.go ValidateRayClusterSpec / ValidateRayClusterMetadata: Warning events with action Validate,
    // nothing created, no requeue.
    @Test
    void invalidSpecsAreRejectedWithEvents() {
        h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("bad", 1, 3, 2));
        h.create(ResourceTypes.RAYCLUSTERS, NS, """
                apiVersion: ray.io/v1
                kind: RayCluster
                metadata: {name: nocontainers}
                spec:
                  headGroupSpec:
                    template: {spec: {containers: []}}
                """);
        converge();
        assertThat(podNames("bad")).isEmpty();
        assertThat(podNames("nocontainers")).isEmpty();
        assertThat(client.list(ResourceTypes.SERVICES, NS, null)).isEmpty();
        List<String> messages = events("InvalidRayClusterSpec").stream().map(e -> Json.text(e, "message")).toList();
        assertThat(messages).containsExactlyInAnyOrder(
                "The RayCluster spec is invalid default/bad: worker group small-wg has minReplicas 3 greater than maxReplicas 2",
                "The RayCluster spec is invalid default/nocontainers: headGroupSpec should have at least one container");
        assertThat(events("InvalidRayClusterSpec")).allSatisfy(e -> {
            assertThat(Json.text(e, "type")).isEqualTo("Warning");
            assertThat(Json.text(e, "action")).isEqualTo("Validate");
        });

        // fixing the spec lets the controller go on
        ObjectNode fixed = rc("bad").copy();
        ((ObjectNode) fixed.path("spec").path("workerGroupSpecs").get(0)).put("maxReplicas", 5);
        client.update(ResourceTypes.RAYCLUSTERS, fixed);
        h.settle();
        assertThat(podNames("bad")).hasSize(4);
    }

    // A RayCluster without a spec is stored (the CRD does not require one); ValidateRayClusterSpec then finds no head
    // container. The controller answered with a ReconcileError event quoting a NullPointerException instead.
    @Test
    void aClusterWithoutASpecGetsKubeRaysInvalidSpecEvent() {
        h.create(ResourceTypes.RAYCLUSTERS, NS, """
                apiVersion: ray.io/v1
                kind: RayCluster
                metadata: {name: nospec}
                """);
        h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("healthy", 1, 0, 4));
        converge();
        assertThat(events("InvalidRayClusterSpec").stream().map(e -> Json.text(e, "message")).toList())
                .containsExactly("The RayCluster spec is invalid default/nospec: headGroupSpec should have at least "
                        + "one container");
        assertThat(events("ReconcileError")).isEmpty();
        assertThat(podNames("nospec")).isEmpty();
        assertThat(podNames("healthy")).hasSize(2);
    }

    // utils/util.go CalculateDesiredResources / CalculatePodResource: head + Σ replicas × pod resources.
    @Test
    void desiredResourcesAreSummed() {
        h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("demo", 2, 1, 4));
        JsonNode s = status("demo");
        assertThat(s.path("desiredCPU").asString()).isEqualTo("5");
        assertThat(s.path("desiredMemory").asString()).isEqualTo("10Gi");
        assertThat(s.path("desiredGPU").asString()).isEqualTo("0");
        assertThat(s.path("desiredTPU").asString()).isEqualTo("0");
    }

    // ownerReferences (controllerutil.SetControllerReference) + the Kubernetes garbage collector.
    @Test
    void deletingTheClusterRemovesPodsAndServices() {
        h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("demo", 2, 1, 4));
        converge();
        client.delete(ResourceTypes.RAYCLUSTERS, NS, "demo");
        converge();
        assertThat(rc("demo")).isNull();
        assertThat(client.list(ResourceTypes.PODS, NS, null)).isEmpty();
        assertThat(client.list(ResourceTypes.SERVICES, NS, null)).isEmpty();
    }

    // RC calculateStatus: readyWorkerReplicas counts running and ready workers; an unplaceable worker stays
    // Pending, so ready < desired and the state never becomes ready.
    @Test
    void unschedulableWorkerLeavesStatusBelowDesired() {
        String yaml = cluster("demo", 2, 0, 4).replace("requests: {cpu: \"2\", memory: \"4Gi\"}",
                "requests: {cpu: \"100\", memory: \"4Gi\"}").replace("limits: {cpu: \"2\", memory: \"4Gi\"}",
                "limits: {cpu: \"100\", memory: \"4Gi\"}");
        h.create(ResourceTypes.RAYCLUSTERS, NS, yaml);
        converge();
        JsonNode s = status("demo");
        assertThat(s.path("desiredWorkerReplicas").asInt()).isEqualTo(2);
        assertThat(s.path("readyWorkerReplicas").asInt()).isEqualTo(0);
        assertThat(s.path("state").isMissingNode()).isTrue();
        assertThat(condition(s, "HeadPodReady").path("status").asString()).isEqualTo("True");
        assertThat(condition(s, "RayClusterProvisioned").path("status").asString()).isEqualTo("False");
        assertThat(Json.text(client.get(ResourceTypes.PODS, NS, "demo-worker-small-wg-0").object(), "status", "phase"))
                .isEqualTo("Pending");
    }

    // utils/consistency.go InconsistentRayClusterStatus: /status is written only when a compared field changed.
    @Test
    void statusIsWrittenOnlyWhenItChanges() {
        h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("demo", 2, 1, 4));
        converge();
        int afterReady = statusWrites;
        assertThat(afterReady).isBetween(2, 5);
        long rv = rc("demo").resourceVersion();
        h.advance(Duration.ofSeconds(900)); // three steady 300 s requeues
        assertThat(statusWrites).isEqualTo(afterReady);
        assertThat(rc("demo").resourceVersion()).isEqualTo(rv);
    }

    // Ray autoscaler (node_provider.py) + RC reconcilePods: with autoscaling on, the autoscaler writes replicas
    // and workersToDelete; the operator deletes only the named Pods.
    @Test
    void simulatedAutoscalerScalesUpAndDown() {
        String yaml = cluster("demo", 1, 1, 4).replace("  rayVersion: \"2.9.0\"\n",
                "  rayVersion: \"2.9.0\"\n  enableInTreeAutoscaling: true\n");
        h.create(ResourceTypes.RAYCLUSTERS, NS, yaml);
        converge();
        assertThat(client.get(ResourceTypes.PODS, NS, "demo-head").object().path("spec").path("containers")
                .findValuesAsString("name")).contains("autoscaler");
        assertThat(workerNames("demo")).hasSize(1);

        mergePatch("demo", "{\"metadata\": {\"annotations\": {\"sim.kuberay.io/autoscaler-demand\": \"{\\\"small-wg\\\": 3}\"}}}");
        converge();
        assertThat(rc("demo").object().path("spec").path("workerGroupSpecs").get(0).path("replicas").asInt()).isEqualTo(3);
        assertThat(workerNames("demo")).hasSize(3);

        // demand above max is clamped to max
        mergePatch("demo", "{\"metadata\": {\"annotations\": {\"sim.kuberay.io/autoscaler-demand\": \"{\\\"small-wg\\\": 9}\"}}}");
        converge();
        assertThat(workerNames("demo")).hasSize(4);

        mergePatch("demo", "{\"metadata\": {\"annotations\": {\"sim.kuberay.io/autoscaler-demand\": \"{\\\"small-wg\\\": 0}\"}}}");
        for (int i = 0; i < 3; i++) {
            converge();
        }
        JsonNode group = rc("demo").object().path("spec").path("workerGroupSpecs").get(0);
        assertThat(group.path("replicas").asInt()).isEqualTo(1);
        assertThat(workerNames("demo")).containsExactly("demo-worker-small-wg-0");
        // the autoscaler cleared workersToDelete once the Pods were gone
        assertThat(group.path("scaleStrategy").path("workersToDelete")).isEmpty();
        assertThat(status("demo").path("state").asString()).isEqualTo("ready");
    }

    // RC reconcilePods 6f: with autoscaling on, a surplus of Pods is not deleted unless named in workersToDelete.
    @Test
    void withAutoscalingTheOperatorDoesNotScaleInByItself() {
        String yaml = cluster("demo", 3, 0, 4).replace("  rayVersion: \"2.9.0\"\n",
                "  rayVersion: \"2.9.0\"\n  enableInTreeAutoscaling: true\n");
        h.create(ResourceTypes.RAYCLUSTERS, NS, yaml);
        converge();
        setReplicas("demo", 1);
        converge();
        assertThat(workerNames("demo")).hasSize(3);
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

    private String recreateCluster(String strategy) {
        return cluster("demo", 1, 0, 4).replace("spec:\n  rayVersion", "spec:\n  upgradeStrategy: {type: " + strategy
                + "}\n  rayVersion");
    }

    private String headUid() {
        return client.get(ResourceTypes.PODS, NS, "demo-head").uid();
    }

    // raycluster_controller.go shouldRecreatePodsForUpgrade / reconcilePods with upgradeStrategy Recreate: a template
    // change deletes every Pod (DeletedPod "Deleted all Pods ... due to spec change with Recreate upgradeStrategy"),
    // the next pass creates them from the new spec; createHeadPod annotates the head with the spec hash and version
    @Test
    void recreateUpgradeStrategyReplacesEveryPodOnATemplateChange() {
        h.create(ResourceTypes.RAYCLUSTERS, NS, recreateCluster("Recreate"));
        h.advance(Duration.ofSeconds(3));
        String oldHead = headUid();
        String oldHash = client.get(ResourceTypes.PODS, NS, "demo-head").annotations()
                .get("ray.io/upgrade-strategy-recreate-hash");
        assertThat(oldHash).isNotEmpty();
        assertThat(client.get(ResourceTypes.PODS, NS, "demo-head").annotations())
                .containsEntry("ray.io/kuberay-version", "v1.7.0");

        client.patch(ResourceTypes.RAYCLUSTERS, NS, "demo", PatchType.JSON, Json.MAPPER.readTree(
                "[{\"op\":\"replace\",\"path\":\"/spec/workerGroupSpecs/0/replicas\",\"value\":2}]"));
        h.advance(Duration.ofSeconds(3));
        assertThat(headUid()).as("a replicas change alone is muted in the hash").isEqualTo(oldHead);

        mergePatch("demo", "{\"spec\":{\"rayVersion\":\"2.10.0\"}}");
        h.advance(Duration.ofSeconds(5));

        assertThat(events("DeletedPod").stream().map(e -> Json.text(e, "message")).toList()).contains(
                "Deleted all Pods for RayCluster default/demo due to spec change with Recreate upgradeStrategy");
        assertThat(headUid()).isNotEqualTo(oldHead);
        assertThat(client.get(ResourceTypes.PODS, NS, "demo-head").annotations()
                .get("ray.io/upgrade-strategy-recreate-hash")).isNotEqualTo(oldHash);
        assertThat(podNames("demo")).hasSize(3);
    }

    // without Recreate (None), a spec change leaves the Pods alone
    @Test
    void upgradeStrategyNoneLeavesPodsAlone() {
        h.create(ResourceTypes.RAYCLUSTERS, NS, recreateCluster("None"));
        h.advance(Duration.ofSeconds(3));
        String oldHead = headUid();

        mergePatch("demo", "{\"spec\":{\"rayVersion\":\"2.10.0\"}}");
        h.advance(Duration.ofSeconds(5));

        assertThat(headUid()).isEqualTo(oldHead);
        assertThat(events("DeletedPod")).isEmpty();
    }

    // utils/validation.go ValidateRayClusterUpgradeOptions: not on a cluster a RayJob or RayService made
    @Test
    void upgradeStrategyOnAClusterMadeByARayJobIsInvalid() {
        h.create(ResourceTypes.RAYCLUSTERS, NS, recreateCluster("Recreate").replace("  name: demo\n",
                "  name: demo\n  labels: {ray.io/originated-from-crd: RayJob}\n"));

        assertThat(events("InvalidRayClusterSpec").stream().map(e -> Json.text(e, "message")).toList()).contains(
                "The RayCluster UpgradeStrategy is invalid default/demo: upgradeStrategy cannot be set when "
                        + "RayCluster is created by RayJob");
        assertThat(podNames("demo")).isEmpty();
    }

}
