package io.kuberaysim.e2e;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.DeleteOptions;
import io.kuberaysim.apiserver.registry.PatchType;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.runtime.reconcile.Request;
import io.kuberaysim.testing.SeedManifests;
import io.kuberaysim.testing.SimulationHarness;
import io.kuberaysim.testing.TestCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static io.kuberaysim.e2e.OperatorE2e.NS;
import static io.kuberaysim.e2e.OperatorE2e.phase;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One object a controller cannot interpret, next to a healthy one, for every controller of the simulated cluster
 * and the operator. The API refuses such objects, so each poison is written straight into the store, as an object
 * from before a validation rule (or written around the API) would be. Every controller keeps serving the healthy
 * object, records one Warning Event on the poison however often it retries, and retries it with backoff.
 */
class PoisonObjectEndToEndTest {
    private final SimulationHarness h = SimulationHarness.withOperator();

    @AfterEach
    void close() {
        h.close();
    }

    /** Stores {@code yaml} as it is, past every validation, and lets the controllers see it. */
    StoredObject poison(ResourceType type, String namespace, String yaml) {
        ObjectNode obj = TestCluster.yaml(yaml);
        obj.put("apiVersion", type.apiVersion());
        obj.put("kind", type.kind());
        ObjectNode meta = Json.child(obj, "metadata");
        if (namespace != null) {
            meta.put("namespace", namespace);
        }
        meta.put("uid", UUID.randomUUID().toString());
        meta.put("creationTimestamp", h.registry().now().toString());
        StoredObject stored = h.registry().store().create(type, obj);
        h.settle();
        return stored;
    }

    /**
     * How often an Event happened: {@code series.count} for events.k8s.io recorders (1 without a series),
     * {@code count} for the legacy core/v1 recorder, as kubectl's event printer counts.
     */
    static int occurrences(StoredObject e) {
        int series = e.object().path("series").path("count").asInt();
        int count = e.object().path("count").asInt();
        return series > 0 ? series : count > 0 ? count : 1;
    }

    /** Warning Events about {@code name} with {@code reason}, as {@code count × message}. */
    List<String> warnings(String namespace, String name, String reason) {
        List<String> out = new ArrayList<>();
        for (StoredObject e : h.client().list(ResourceTypes.EVENTS, namespace, null)) {
            if (name.equals(Json.text(e.object(), "involvedObject", "name"))
                    && reason.equals(Json.text(e.object(), "reason"))) {
                assertThat(Json.text(e.object(), "type")).isEqualTo("Warning");
                out.add(occurrences(e) + " × " + Json.text(e.object(), "message"));
            }
        }
        return out;
    }

    /** Long enough for many backoff retries (5 ms doubling) and for every healthy lifecycle here. */
    void runAWhile() {
        for (int i = 0; i < 30; i++) {
            h.advance(Duration.ofSeconds(1));
        }
    }

    static String pod(String name, String extraSpec) {
        return """
                metadata: {name: %s}
                spec:
                  %s
                  containers: [{name: c, image: busybox, resources: {requests: {cpu: 100m}}}]
                """.formatted(name, extraSpec);
    }

    StoredObject pod(String name) {
        return h.client().get(ResourceTypes.PODS, NS, name);
    }

    @Test
    @DisplayName("scheduler: a Node whose allocatable cannot be read takes no Pods; the others still get them")
    void schedulerSkipsAPoisonNode() {
        poison(ResourceTypes.NODES, null, """
                metadata: {name: aaa-poison-node}
                status:
                  allocatable: {cpu: many, memory: 64Gi, pods: "110"}
                  capacity: {cpu: many, memory: 64Gi, pods: "110"}
                  conditions: [{type: Ready, status: "True"}]
                """);
        h.create(ResourceTypes.PODS, NS, pod("healthy", ""));
        runAWhile();
        assertThat(Json.text(pod("healthy").object(), "spec", "nodeName")).startsWith("sim-node-");
        assertThat(phase(pod("healthy"))).isEqualTo("Running");
        assertThat(warnings("default", "aaa-poison-node", "InvalidAllocatable")).containsExactly("1 × "
                + "status.allocatable cannot be read, no Pods are scheduled here: cpu: quantities must match the "
                + "regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
    }

    @Test
    @DisplayName("scheduler: a Pod whose requests cannot be read gets one Warning and backs off; others are scheduled")
    void schedulerSurvivesAPoisonPod() {
        poison(ResourceTypes.PODS, NS, pod("poison", "").replace("cpu: 100m", "cpu: many"));
        h.create(ResourceTypes.PODS, NS, pod("healthy", ""));
        runAWhile();
        assertThat(phase(pod("healthy"))).isEqualTo("Running");
        assertThat(Json.text(pod("poison").object(), "spec", "nodeName")).isNull();
        assertThat(warnings(NS, "poison", "ReconcileError")).containsExactly(
                "1 × Reconcile failed: IllegalArgumentException: cpu: quantities must match the regular expression "
                        + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
        assertThat(h.manager().controllers()).filteredOn(c -> c.name().equals("scheduler"))
                .allSatisfy(c -> assertThat(c.queue().numRequeues(
                        new Request(NS, "poison"))).isGreaterThan(3));
    }

    @Test
    @DisplayName("kubelet: a bound Pod with an unreadable scheduling time gets one Warning; others start")
    void kubeletSurvivesAPoisonPod() {
        poison(ResourceTypes.PODS, NS, pod("poison", "nodeName: sim-node-0") + """
                status:
                  phase: Pending
                  conditions: [{type: PodScheduled, status: "True", lastTransitionTime: yesterday}]
                """);
        h.create(ResourceTypes.PODS, NS, pod("healthy", "nodeName: sim-node-0"));
        runAWhile();
        assertThat(phase(pod("healthy"))).isEqualTo("Running");
        assertThat(phase(pod("poison"))).isEqualTo("Pending");
        assertThat(warnings(NS, "poison", "ReconcileError")).singleElement().asString()
                .startsWith("1 × Reconcile failed: DateTimeParseException: Text 'yesterday' could not be parsed");
    }

    @Test
    @DisplayName("garbage collector: a dependent with a malformed owner reference does not stop its siblings")
    void garbageCollectorSurvivesAPoisonDependent() {
        StoredObject owner = h.create(ResourceTypes.CONFIGMAPS, NS, "metadata: {name: owner}\ndata: {a: b}");
        String ref = "{apiVersion: v1, kind: ConfigMap, name: owner, uid: " + owner.uid() + "}";
        poison(ResourceTypes.PODS, NS, pod("poison", "").replace("metadata: {name: poison}",
                "metadata: {name: poison, ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: x, uid: {bad: 1}}, "
                        + ref + "]}"));
        for (String name : List.of("sibling-1", "sibling-2")) {
            h.create(ResourceTypes.PODS, NS, pod(name, "").replace("metadata: {name: " + name + "}",
                    "metadata: {name: " + name + ", ownerReferences: [" + ref + "]}"));
        }
        h.client().delete(ResourceTypes.CONFIGMAPS, NS, "owner", DeleteOptions.propagation("Orphan"));
        h.settle();
        // as kube's collector, the owner waits (orphan finalizer kept) until every dependent is orphaned
        assertThat(h.client().get(ResourceTypes.CONFIGMAPS, NS, "owner").isDeleting()).isTrue();
        for (String name : List.of("sibling-1", "sibling-2")) {
            assertThat(pod(name).object().at("/metadata/ownerReferences").isMissingNode()).as(name).isTrue();
        }
        runAWhile(); // the poison's orphaning is retried with backoff, and still fails
        assertThat(warnings(NS, "poison", "OwnerRefInvalid")).containsExactly("1 × ownerReferences[0] "
                + "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"name\":\"x\",\"uid\":{\"bad\":1}} cannot be read "
                + "(uid must be a non-empty string): the garbage collector ignores it");
        assertThat(warnings(NS, "poison", "GarbageCollectionFailed")).isEmpty();
        assertThat(warnings(NS, "sibling-1", "OwnerRefInvalid")).isEmpty();

        StoredObject owner2 = h.create(ResourceTypes.CONFIGMAPS, NS, "metadata: {name: owner2}\ndata: {a: b}");
        String ref2 = "{apiVersion: v1, kind: ConfigMap, name: owner2, uid: " + owner2.uid() + "}";
        poison(ResourceTypes.PODS, NS, pod("poison-2", "").replace("metadata: {name: poison-2}",
                "metadata: {name: poison-2, ownerReferences: [{uid: [1]}, " + ref2 + "]}"));
        h.create(ResourceTypes.PODS, NS, pod("sibling-3", "").replace("metadata: {name: sibling-3}",
                "metadata: {name: sibling-3, ownerReferences: [" + ref2 + "]}"));
        h.client().delete(ResourceTypes.CONFIGMAPS, NS, "owner2");
        runAWhile(); // sibling-3 runs, so it terminates gracefully
        assertThat(pod("sibling-3")).isNull();
        assertThat(pod("poison-2")).isNull();
    }

    @Test
    @DisplayName("garbage collector: a dependent it cannot write gets one Warning, is retried with backoff, and "
            + "is collected once fixed; its healthy sibling is collected at once")
    void garbageCollectorBacksOffAPoisonDependentAlone() {
        StoredObject owner = h.create(ResourceTypes.CONFIGMAPS, NS, "metadata: {name: owner}\ndata: {a: b}");
        String ref = "{apiVersion: v1, kind: ConfigMap, name: owner, uid: " + owner.uid() + "}";
        // a finalizer name the API refuses: every write of this Pod is refused until it is fixed
        poison(ResourceTypes.CONFIGMAPS, NS,
                "metadata: {name: poison, finalizers: [\"bad finalizer!\"], ownerReferences: [" + ref + "]}");
        h.create(ResourceTypes.CONFIGMAPS, NS, "metadata: {name: healthy, ownerReferences: [" + ref + "]}");
        h.client().delete(ResourceTypes.CONFIGMAPS, NS, "owner", DeleteOptions.propagation("Orphan"));
        h.settle();
        assertThat(h.client().get(ResourceTypes.CONFIGMAPS, NS, "healthy").object()
                .at("/metadata/ownerReferences").isMissingNode()).isTrue();
        runAWhile();
        assertThat(warnings(NS, "poison", "GarbageCollectionFailed")).singleElement().asString()
                .startsWith("1 × garbage collection (orphan " + owner.uid() + ") failed and is retried with "
                        + "backoff: ")
                .contains("bad finalizer!");
        assertThat(h.client().get(ResourceTypes.CONFIGMAPS, NS, "poison").object()
                .at("/metadata/ownerReferences").size()).isEqualTo(1);

        assertThat(h.client().get(ResourceTypes.CONFIGMAPS, NS, "owner").isDeleting()).isTrue();

        // fixed behind the API's back: the next retry orphans it, and then the owner goes
        h.registry().store().guaranteedUpdate(ResourceTypes.CONFIGMAPS, NS, "poison", current -> {
            ObjectNode fixed = current.copy();
            ((ObjectNode) fixed.get("metadata")).remove("finalizers");
            return ObjectStore.UpdateResult.replace(fixed);
        });
        for (int i = 0; i < 3; i++) {
            runAWhile(); // the backoff has doubled past 30 s by now
        }
        assertThat(h.client().get(ResourceTypes.CONFIGMAPS, NS, "poison").object()
                .at("/metadata/ownerReferences").isMissingNode()).isTrue();
        assertThat(h.client().get(ResourceTypes.CONFIGMAPS, NS, "owner")).isNull();
        assertThat(warnings(NS, "poison", "GarbageCollectionFailed")).hasSize(1);
    }

    @Test
    @DisplayName("Job controller: a Job whose Pods the API refuses gets one Warning; other Jobs run")
    void jobControllerSurvivesAPoisonJob() {
        String job = """
                metadata: {name: %s}
                spec:
                  backoffLimit: 0
                  template:
                    metadata:
                      annotations: {sim.kuberay.io/run-seconds: "1"}
                    spec:
                      restartPolicy: Never
                      containers: [{name: c, image: busybox, resources: {requests: {cpu: %s}}}]
                """;
        poison(ResourceTypes.JOBS, NS, job.formatted("poison", "many"));
        h.create(ResourceTypes.JOBS, NS, job.formatted("healthy", "100m"));
        runAWhile();
        StoredObject healthy = h.client().get(ResourceTypes.JOBS, NS, "healthy");
        assertThat(healthy.object().at("/status/succeeded").asInt()).isEqualTo(1);
        // as kube's Job controller: each refused create is a FailedCreate (one series), tried again with back-off
        assertThat(warnings(NS, "poison", "FailedCreate")).singleElement().asString().matches("\\d+ × Error "
                + "creating: Pod in version \"v1\" cannot be handled as a Pod: quantities must match the regular "
                + "expression '\\^\\(\\[\\+-\\]\\?\\[0-9\\.\\]\\+\\).*");
        assertThat(warnings(NS, "poison", "ReconcileError")).isEmpty();
    }

    static String cluster(String name) {
        return SeedManifests.exampleCluster().replace("name: example-cluster", "name: " + name);
    }

    String clusterState(String name) {
        return Json.text(h.client().get(ResourceTypes.RAYCLUSTERS, NS, name).object(), "status", "state");
    }

    @Test
    @DisplayName("RayCluster controller: a cluster with an int32 overflow gets one Warning; others become ready")
    void rayClusterControllerSurvivesAPoisonCluster() {
        poison(ResourceTypes.RAYCLUSTERS, NS, cluster("poison").replace("replicas: 2", "replicas: 2147483648"));
        h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("healthy"));
        runAWhile();
        assertThat(clusterState("healthy")).isEqualTo("ready");
        assertThat(warnings(NS, "poison", "ReconcileError")).singleElement().asString()
                .startsWith("1 × Reconcile failed: cannot decode workerGroupSpecs[0].replicas: Numeric value "
                        + "(2147483648) out of range of `int`");
        assertThat(h.client().list(ResourceTypes.PODS, NS, "ray.io/cluster=poison")).isEmpty();
    }

    @Test
    @DisplayName("autoscaler: a cluster it cannot read gets one Warning; other clusters are still scaled")
    void autoscalerSurvivesAPoisonCluster() {
        String autoscaled = "spec:\n  enableInTreeAutoscaling: true\n  rayVersion";
        poison(ResourceTypes.RAYCLUSTERS, NS, cluster("poison").replace("spec:\n  rayVersion", autoscaled)
                .replace("replicas: 2", "replicas: many"));
        h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("healthy").replace("spec:\n  rayVersion", autoscaled));
        runAWhile();
        h.client().patch(ResourceTypes.RAYCLUSTERS, NS, "healthy", PatchType.MERGE,
                Json.MAPPER.readTree("{\"metadata\":{\"annotations\":{\"sim.kuberay.io/autoscaler-demand\":"
                        + "\"{\\\"cpu-workers\\\": 4}\"}}}"));
        runAWhile();
        StoredObject healthy = h.client().get(ResourceTypes.RAYCLUSTERS, NS, "healthy");
        assertThat(healthy.object().at("/spec/workerGroupSpecs/0/replicas").asInt()).isEqualTo(4);
        assertThat(clusterState("healthy")).isEqualTo("ready");
        List<StoredObject> poisonEvents = h.client().list(ResourceTypes.EVENTS, NS, null).stream()
                .filter(e -> "poison".equals(Json.text(e.object(), "involvedObject", "name"))
                        && "ReconcileError".equals(Json.text(e.object(), "reason")))
                .toList();
        assertThat(poisonEvents).extracting(e -> Json.text(e.object(), "reportingComponent"))
                .containsExactlyInAnyOrder("raycluster-controller", "raycluster-autoscaler");
        assertThat(poisonEvents).allSatisfy(e -> assertThat(occurrences(e)).isEqualTo(1));
    }

    @Test
    @DisplayName("RayJob controller: a RayJob it cannot read gets one Warning; other RayJobs complete")
    void rayJobControllerSurvivesAPoisonJob() {
        String job = SeedManifests.exampleJob();
        poison(ResourceTypes.RAYJOBS, NS, job.replace("name: example-job", "name: poison")
                .replace("shutdownAfterJobFinishes: true", "shutdownAfterJobFinishes: sometimes"));
        h.create(ResourceTypes.RAYJOBS, NS, job.replace("name: example-job", "name: healthy"));
        runAWhile();
        StoredObject healthy = h.client().get(ResourceTypes.RAYJOBS, NS, "healthy");
        assertThat(Json.text(healthy.object(), "status", "jobDeploymentStatus")).isEqualTo("Complete");
        assertThat(warnings(NS, "poison", "ReconcileError")).singleElement().asString()
                .startsWith("1 × Reconcile failed: cannot decode spec.shutdownAfterJobFinishes:");
    }

    @Test
    @DisplayName("RayService controller: a RayService it cannot read gets one Warning; others serve")
    void rayServiceControllerSurvivesAPoisonService() throws Exception {
        String service = SeedManifests.rayService();
        poison(ResourceTypes.RAYSERVICES, NS, service.replace("name: rayservice-sample", "name: poison")
                .replace("replicas: 1\n", "replicas: [1]\n"));
        h.create(ResourceTypes.RAYSERVICES, NS, service.replace("name: rayservice-sample", "name: healthy"));
        runAWhile();
        StoredObject healthy = h.client().get(ResourceTypes.RAYSERVICES, NS, "healthy");
        assertThat(Json.text(healthy.object(), "status", "serviceStatus")).isEqualTo("Running");
        assertThat(warnings(NS, "poison", "ReconcileError")).singleElement().asString()
                .startsWith("1 × Reconcile failed: cannot decode spec.rayClusterConfig.workerGroupSpecs[0].replicas:");
    }
}
