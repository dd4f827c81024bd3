package io.kuberaysim.controller.ray.service;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.api.ray.Condition;
import io.kuberaysim.api.ray.RayService;
import io.kuberaysim.api.ray.RayServiceConditions;
import io.kuberaysim.api.ray.RayServiceStatuses;
import io.kuberaysim.apiserver.registry.PatchType;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.ray.dashboard.ClusterKey;
import io.kuberaysim.controller.ray.dashboard.ServeApplication;
import io.kuberaysim.controller.runtime.cache.InformerHandler;
import io.kuberaysim.sim.ray.ServeApplications;
import io.kuberaysim.testing.SimulationHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The RayService state machine on the whole operator and simulated cluster (real RayCluster controller, scheduler
 * and kubelet; simulated Serve API), on the virtual clock. Traffic safety over a whole upgrade is in
 * {@code e2e.RayServiceEndToEndTest}.
 */
class RayServiceReconcilerTest {

    static final String NS = "default";
    static final String SERVE_CONFIG = """
            applications:
            - name: app1
              import_path: fruit.deployment_graph
              route_prefix: /fruit
              deployments:
              - name: MangoStand
                num_replicas: 1
              - name: FruitMarket
                num_replicas: 1
            """;

    static String manifest(String extraSpec, String annotations) {
        return """
                apiVersion: ray.io/v1
                kind: RayService
                metadata:
                  name: svc
                %s
                spec:
                %s
                  serveConfigV2: |
                    applications:
                    - name: app1
                      import_path: fruit.deployment_graph
                      route_prefix: /fruit
                      deployments:
                      - name: MangoStand
                        num_replicas: 1
                      - name: FruitMarket
                        num_replicas: 1
                  rayClusterConfig:
                    rayVersion: "2.9.0"
                    headGroupSpec:
                      rayStartParams: {}
                      template:
                        spec:
                          containers:
                          - name: ray-head
                            image: rayproject/ray:2.9.0
                    workerGroupSpecs:
                    - groupName: small
                      replicas: 1
                      minReplicas: 1
                      maxReplicas: 5
                      rayStartParams: {}
                      template:
                        spec:
                          containers:
                          - name: ray-worker
                            image: rayproject/ray:2.9.0
                """.formatted(annotations == null ? "" : "  annotations:\n" + annotations.indent(4).stripTrailing(),
                extraSpec == null ? "" : extraSpec.indent(2).stripTrailing());
    }

    SimulationHarness h;
    ServeApplications serve;
    /** Every serve-Service selector change that pointed at a cluster whose applications were not all RUNNING. */
    final List<String> violations = new ArrayList<>();

    @BeforeEach
    void setUp() {
        h = SimulationHarness.withOperator();
        serve = h.serve();
        h.manager().informer(ResourceTypes.SERVICES).addHandler(new InformerHandler() {
            @Override
            public void onAdd(StoredObject o) {
                checkTraffic(o);
            }

            @Override
            public void onUpdate(StoredObject oldObj, StoredObject newObj) {
                checkTraffic(newObj);
            }

            @Override
            public void onDelete(StoredObject o) {
            }
        });
    }

    @AfterEach
    void tearDown() {
        h.close();
    }

    /** Traffic may only go to a cluster whose head is up and whose applications all run. */
    void checkTraffic(StoredObject svc) {
        if (!svc.name().equals("svc-serve-svc")) {
            return;
        }
        String cluster = RayServiceServices.selectedCluster(svc);
        StoredObject head = h.client().get(ResourceTypes.PODS, NS, cluster + "-head");
        var apps = head == null ? java.util.Map.<String, ServeApplication>of()
                : serve.applications(new ClusterKey(NS, cluster), head.uid());
        boolean ready = !apps.isEmpty() && apps.values().stream().allMatch(a -> a.status().equals("RUNNING"));
        StoredObject rc = h.client().get(ResourceTypes.RAYCLUSTERS, NS, cluster);
        if (!ready || rc == null || rc.isDeleting()) {
            violations.add(h.clock().now() + " serve svc -> " + cluster + " apps=" + apps);
        }
    }

    RayServiceStatuses status() {
        StoredObject o = h.client().get(ResourceTypes.RAYSERVICES, NS, "svc");
        return KubeClient.read(o.object(), RayService.class).status();
    }

    Condition condition(String type) {
        RayServiceStatuses s = status();
        return s == null ? null : s.condition(type);
    }

    List<String> clusters() {
        return h.client().list(ResourceTypes.RAYCLUSTERS, NS, null).stream().map(StoredObject::name).sorted().toList();
    }

    String serveSelector() {
        return RayServiceServices.selectedCluster(h.client().get(ResourceTypes.SERVICES, NS, "svc-serve-svc"));
    }

    /** Advances one second at a time until {@code done} holds; fails after {@code max}. */
    void advanceUntil(Supplier<Boolean> done, Duration max) {
        for (long s = 0; s <= max.toSeconds(); s++) {
            if (done.get()) {
                return;
            }
            h.advance(Duration.ofSeconds(1));
        }
        assertThat(done.get()).as("condition reached within " + max).isTrue();
    }

    boolean ready() {
        Condition c = condition(RayServiceConditions.READY);
        return c != null && c.isTrue();
    }

    void patchSpec(String json) {
        h.client().patch(ResourceTypes.RAYSERVICES, NS, "svc", PatchType.MERGE, Json.MAPPER.readTree(json));
        h.settle();
    }

    void deployReady(String manifest) {
        h.create(ResourceTypes.RAYSERVICES, NS, manifest);
        advanceUntil(this::ready, Duration.ofSeconds(30));
    }

    @Test
    void firstDeploymentBecomesReadyAndServesFromOneCluster() {
        h.create(ResourceTypes.RAYSERVICES, NS, manifest(null, null));
        h.advance(Duration.ofSeconds(2)); // the first pass only adds the finalizer
        Condition initial = condition(RayServiceConditions.READY);
        assertThat(initial.reason()).isEqualTo(RayServiceConditions.INITIALIZING);
        assertThat(status().pendingServiceStatus().rayClusterName()).matches("svc-[a-z0-9]{5}");
        assertThat(h.client().get(ResourceTypes.SERVICES, NS, "svc-serve-svc"))
                .as("no Services before a cluster is ready").isNull();

        advanceUntil(this::ready, Duration.ofSeconds(30));

        RayServiceStatuses s = status();
        String cluster = s.activeServiceStatus().rayClusterName();
        assertThat(cluster).matches("svc-[a-z0-9]{5}");
        assertThat(s.pendingServiceStatus()).isNull();
        assertThat(s.serviceStatus()).isEqualTo("Running");
        assertThat(s.numServeEndpoints()).isEqualTo(2); // head + one worker
        assertThat(s.observedGeneration()).isEqualTo(1L);
        assertThat(s.activeServiceStatus().applicationStatuses().get("app1").status()).isEqualTo("RUNNING");
        assertThat(s.activeServiceStatus().applicationStatuses().get("app1").serveDeploymentStatuses())
                .containsOnlyKeys("MangoStand", "FruitMarket");
        assertThat(s.activeServiceStatus().rayClusterStatus().state()).isEqualTo("ready");
        Condition upgrade = s.condition(RayServiceConditions.UPGRADE_IN_PROGRESS);
        assertThat(upgrade.status()).isEqualTo(Condition.Status.False);
        assertThat(upgrade.reason()).isEqualTo(RayServiceConditions.NO_PENDING_CLUSTER);
        assertThat(s.condition(RayServiceConditions.READY).reason())
                .isEqualTo(RayServiceConditions.NON_ZERO_SERVE_ENDPOINTS);

        StoredObject rc = h.client().get(ResourceTypes.RAYCLUSTERS, NS, cluster);
        assertThat(rc.labels()).containsEntry("ray.io/originated-from-cr-name", "svc")
                .containsEntry("ray.io/originated-from-crd", "RayService");
        assertThat(Json.text(rc.object(), "metadata", "annotations", ServiceKeys.HASH)).isNotEmpty();
        assertThat(Json.text(rc.object(), "metadata", "ownerReferences", "0")).isNull();
        assertThat(rc.object().at("/metadata/ownerReferences/0/kind").asString()).isEqualTo("RayService");
        assertThat(serveSelector()).isEqualTo(cluster);
        StoredObject headSvc = h.client().get(ResourceTypes.SERVICES, NS, "svc-head-svc");
        assertThat(headSvc.object().at("/spec/selector/ray.io~1cluster").asString()).isEqualTo(cluster);
        assertThat(h.client().get(ResourceTypes.PODS, NS, cluster + "-head").labels())
                .containsEntry("ray.io/serve", "true");
        assertThat(h.client().get(ResourceTypes.SERVICES, NS, "svc-serve-svc").object()
                .at("/spec/selector/ray.io~1serve").asString()).isEqualTo("true");
        assertThat(eventReasons()).contains("CreatedRayCluster", "UpdatedServeApplications", "CreatedService",
                "UpdatedHeadPodServeLabel");
        assertThat(violations).isEmpty();
        assertThat(h.client().get(ResourceTypes.RAYSERVICES, NS, "svc").object().at("/metadata/finalizers/0")
                .asString()).isEqualTo(ServiceKeys.FINALIZER);
    }

    @Test
    void clusterSpecChangeUpgradesBlueGreenAndDeletesTheOldClusterAfterTheDelay() {
        deployReady(manifest(null, null));
        String old = status().activeServiceStatus().rayClusterName();

        patchSpec("""
                {"spec": {"rayClusterConfig": {"workerGroupSpecs": [{"groupName": "small", "replicas": 1,
                  "minReplicas": 1, "maxReplicas": 5, "rayStartParams": {},
                  "template": {"spec": {"containers": [{"name": "ray-worker", "image": "rayproject/ray:2.10.0"}]}}}]}}}
                """);
        h.advance(Duration.ofSeconds(1));
        String pending = status().pendingServiceStatus().rayClusterName();
        assertThat(pending).isNotEqualTo(old).matches("svc-[a-z0-9]{5}");
        assertThat(condition(RayServiceConditions.UPGRADE_IN_PROGRESS).reason())
                .isEqualTo(RayServiceConditions.BOTH_ACTIVE_PENDING_CLUSTERS_EXIST);

        // Until the switch, traffic stays on the old cluster and the service stays Ready.
        for (int i = 0; i < 30 && !pending.equals(serveSelector()); i++) {
            assertThat(serveSelector()).isEqualTo(old);
            assertThat(ready()).isTrue();
            h.advance(Duration.ofSeconds(1));
        }
        assertThat(serveSelector()).isEqualTo(pending);
        assertThat(RayServiceServices.selectedCluster(h.client().get(ResourceTypes.SERVICES, NS, "svc-head-svc")))
                .isEqualTo(pending);
        RayServiceStatuses s = status();
        assertThat(s.activeServiceStatus().rayClusterName()).isEqualTo(pending);
        assertThat(s.pendingServiceStatus()).isNull();
        assertThat(condition(RayServiceConditions.UPGRADE_IN_PROGRESS).reason())
                .isEqualTo(RayServiceConditions.NO_PENDING_CLUSTER);
        assertThat(ready()).isTrue();

        // The old cluster stays for the deletion delay (60 s), then goes.
        h.advance(Duration.ofSeconds(55));
        assertThat(clusters()).contains(old, pending);
        h.advance(Duration.ofSeconds(10));
        assertThat(clusters()).containsExactly(pending);
        assertThat(eventReasons()).contains("UpdatedService", "DeletedRayCluster");
        assertThat(violations).isEmpty();
        assertThat(status().numServeEndpoints()).isEqualTo(2);
    }

    @Test
    void serveConfigChangeIsAppliedInPlace() {
        deployReady(manifest(null, null));
        String cluster = status().activeServiceStatus().rayClusterName();

        patchSpec("""
                {"spec": {"serveConfigV2": "applications:\\n- name: app1\\n  import_path: fruit.deployment_graph\\n  route_prefix: /fruit\\n  deployments:\\n  - name: MangoStand\\n    num_replicas: 2\\n- name: app2\\n  import_path: math.graph\\n  route_prefix: /calc\\n"}}
                """);
        h.advance(Duration.ofSeconds(1));
        var apps = status().activeServiceStatus().applicationStatuses();
        assertThat(apps).containsKeys("app1", "app2");
        assertThat(apps.get("app1").status()).isEqualTo("DEPLOYING");
        assertThat(status().pendingServiceStatus()).isNull();

        h.advance(Duration.ofSeconds(4));
        apps = status().activeServiceStatus().applicationStatuses();
        assertThat(apps.get("app1").status()).isEqualTo("RUNNING");
        assertThat(apps.get("app2").status()).isEqualTo("RUNNING");
        assertThat(apps.get("app2").serveDeploymentStatuses()).containsOnlyKeys("graph");
        assertThat(clusters()).containsExactly(cluster);
        assertThat(status().activeServiceStatus().rayClusterName()).isEqualTo(cluster);
    }

    @Test
    void appendedWorkerGroupUpdatesTheClusterInPlace() {
        deployReady(manifest(null, null));
        String cluster = status().activeServiceStatus().rayClusterName();
        patchSpec("""
                {"spec": {"rayClusterConfig": {"workerGroupSpecs": [
                  {"groupName": "small", "replicas": 1, "minReplicas": 1, "maxReplicas": 5, "rayStartParams": {},
                   "template": {"spec": {"containers": [{"name": "ray-worker", "image": "rayproject/ray:2.9.0"}]}}},
                  {"groupName": "gpu", "replicas": 1, "minReplicas": 0, "maxReplicas": 2, "rayStartParams": {},
                   "template": {"spec": {"containers": [{"name": "ray-worker", "image": "rayproject/ray:2.9.0"}]}}}]}}}
                """);
        h.advance(Duration.ofSeconds(10));
        assertThat(clusters()).containsExactly(cluster);
        StoredObject rc = h.client().get(ResourceTypes.RAYCLUSTERS, NS, cluster);
        assertThat(rc.object().at("/spec/workerGroupSpecs").size()).isEqualTo(2);
        assertThat(Json.text(rc.object(), "metadata", "annotations", ServiceKeys.NUM_WORKER_GROUPS)).isEqualTo("2");
        assertThat(status().pendingServiceStatus()).isNull();
        assertThat(eventReasons()).contains("UpdatedRayCluster");
        assertThat(status().numServeEndpoints()).isEqualTo(3);
    }

    @Test
    void excludedHeadPodIsNotAServeEndpoint() {
        deployReady(manifest("excludeHeadPodFromServeSvc: true", null));
        String cluster = status().activeServiceStatus().rayClusterName();
        assertThat(status().numServeEndpoints()).isEqualTo(1);
        assertThat(h.client().get(ResourceTypes.PODS, NS, cluster + "-head").labels())
                .containsEntry("ray.io/serve", "false");
    }

    @Test
    void upgradeStrategyNoneIgnoresClusterSpecChanges() {
        deployReady(manifest("upgradeStrategy:\n  type: None", null));
        String cluster = status().activeServiceStatus().rayClusterName();
        patchSpec("""
                {"spec": {"rayClusterConfig": {"rayVersion": "2.10.0"}}}
                """);
        h.advance(Duration.ofSeconds(20));
        assertThat(clusters()).containsExactly(cluster);
        assertThat(status().pendingServiceStatus()).isNull();
        assertThat(status().observedGeneration()).isEqualTo(2L);
        assertThat(ready()).isTrue();
        assertThat(condition(RayServiceConditions.UPGRADE_IN_PROGRESS).status()).isEqualTo(Condition.Status.False);
    }

    @Test
    void failingApplicationOnTheNewClusterKeepsTheOldClusterServing() {
        deployReady(manifest(null, null));
        String old = status().activeServiceStatus().rayClusterName();
        h.client().patch(ResourceTypes.RAYSERVICES, NS, "svc", PatchType.MERGE, Json.MAPPER.readTree("""
                {"metadata": {"annotations": {"sim.kuberay.io/serve-app-status": "{\\"app1\\": \\"DEPLOY_FAILED\\"}"}},
                 "spec": {"rayClusterConfig": {"rayVersion": "2.10.0"}}}
                """));
        h.settle();
        h.advance(Duration.ofSeconds(120));

        RayServiceStatuses s = status();
        assertThat(serveSelector()).isEqualTo(old);
        assertThat(s.activeServiceStatus().rayClusterName()).isEqualTo(old);
        // rayservice_controller.go Reconcile: with a pending cluster only its applications are reconciled, so the
        // active cluster's applicationStatuses stay empty during the upgrade
        assertThat(s.activeServiceStatus().applicationStatuses()).isNullOrEmpty();
        String pending = s.pendingServiceStatus().rayClusterName();
        assertThat(pending).isNotNull().isNotEqualTo(old);
        assertThat(s.pendingServiceStatus().applicationStatuses().get("app1").status()).isEqualTo("DEPLOY_FAILED");
        assertThat(s.pendingServiceStatus().applicationStatuses().get("app1").serveDeploymentStatuses()
                .get("MangoStand").status()).isEqualTo("UNHEALTHY");
        assertThat(ready()).isTrue();
        assertThat(condition(RayServiceConditions.UPGRADE_IN_PROGRESS).isTrue()).isTrue();
        assertThat(clusters()).containsExactlyInAnyOrder(old, pending);
        assertThat(h.client().get(ResourceTypes.PODS, NS, pending + "-head").labels())
                .containsEntry("ray.io/serve", "false");
        assertThat(violations).isEmpty();
    }

    @Test
    void suspendDeletesClustersAndServicesAndResumeStartsOver() {
        deployReady(manifest(null, null));
        patchSpec("{\"spec\": {\"suspend\": true}}");
        h.advance(Duration.ofSeconds(6));

        assertThat(clusters()).isEmpty();
        assertThat(h.client().get(ResourceTypes.SERVICES, NS, "svc-serve-svc")).isNull();
        assertThat(h.client().get(ResourceTypes.SERVICES, NS, "svc-head-svc")).isNull();
        assertThat(condition(RayServiceConditions.SUSPENDED).isTrue()).isTrue();
        assertThat(condition(RayServiceConditions.SUSPENDING).isTrue()).isFalse();
        assertThat(ready()).isFalse();
        assertThat(status().serviceStatus()).isNull();
        assertThat(status().activeServiceStatus()).isNull();

        patchSpec("{\"spec\": {\"suspend\": false}}");
        assertThat(condition(RayServiceConditions.SUSPENDED).reason())
                .isEqualTo(RayServiceConditions.RAY_SERVICE_RESUMED);
        advanceUntil(this::ready, Duration.ofSeconds(30));
        assertThat(clusters()).hasSize(1);
    }

    @Test
    void deletionRemovesClustersServicesAndTheFinalizer() {
        deployReady(manifest(null, null));
        assertThat(clusters()).hasSize(1);
        h.client().delete(ResourceTypes.RAYSERVICES, NS, "svc");
        h.settle();
        h.advance(Duration.ofSeconds(5));
        assertThat(h.client().get(ResourceTypes.RAYSERVICES, NS, "svc")).isNull();
        assertThat(clusters()).isEmpty();
        assertThat(h.client().list(ResourceTypes.SERVICES, NS, "ray.io/originated-from-cr-name=svc")).isEmpty();
        assertThat(h.client().list(ResourceTypes.PODS, NS, null)).isEmpty();
    }

    // The API stores any DNS-1123 subdomain as a custom resource's name; the RayService controller refuses the rest.
    @Test
    void aNameKubeRayRefusesIsReportedAsValidationFailed() {
        h.create(ResourceTypes.RAYSERVICES, NS, manifest(null, null).replace("  name: svc\n", "  name: svc.v2\n"));
        h.advance(Duration.ofSeconds(3));
        RayServiceStatuses s = KubeClient.read(h.client().get(ResourceTypes.RAYSERVICES, NS, "svc.v2").object(),
                RayService.class).status();
        assertThat(s.condition(RayServiceConditions.READY).reason()).isEqualTo(RayServiceConditions.VALIDATION_FAILED);
        assertThat(s.condition(RayServiceConditions.READY).message()).startsWith(
                "The RayService metadata is invalid: RayService name should be a valid DNS1035 label");
        assertThat(clusters()).isEmpty();
        assertThat(eventReasons()).contains("InvalidRayServiceMetadata");
    }

    @Test
    void invalidSpecIsReportedAsValidationFailed() {
        String manifest = manifest(null, null).replace("    headGroupSpec:\n",
                "    headGroupSpec:\n      headService:\n        metadata:\n          name: custom-head\n");
        assertThat(manifest).contains("custom-head");
        h.create(ResourceTypes.RAYSERVICES, NS, manifest);
        h.advance(Duration.ofSeconds(3));
        RayServiceStatuses s = status();
        assertThat(s.condition(RayServiceConditions.READY).reason()).isEqualTo(RayServiceConditions.VALIDATION_FAILED);
        assertThat(s.condition(RayServiceConditions.READY).message()).contains("headService.metadata.name");
        assertThat(clusters()).isEmpty();
        assertThat(eventReasons()).contains("InvalidRayServiceSpec");
    }

    // utils/validation.go ValidateRayServiceSpec runs ValidateRayClusterSpec on rayClusterConfig
    @Test
    void invalidClusterConfigFailsValidationWithKubeRaysPrefix() {
        h.create(ResourceTypes.RAYSERVICES, NS, manifest(null, null).replace("maxReplicas: 5", "maxReplicas: 0"));
        h.advance(Duration.ofSeconds(3));
        RayServiceStatuses s = status();
        assertThat(s.condition(RayServiceConditions.READY).reason()).isEqualTo(RayServiceConditions.VALIDATION_FAILED);
        assertThat(s.condition(RayServiceConditions.READY).message()).isEqualTo("The RayService spec is invalid: "
                + "worker group small has minReplicas 1 greater than maxReplicas 0");
        assertThat(clusters()).isEmpty();
    }

    // no spec at all: ValidateRayServiceSpec validates the zero RayClusterSpec (was a ReconcileError event quoting a
    // NullPointerException)
    @Test
    void aServiceWithoutASpecFailsValidationAsKubeRayDoes() {
        h.create(ResourceTypes.RAYSERVICES, NS, """
                apiVersion: ray.io/v1
                kind: RayService
                metadata: {name: svc}
                """);
        h.advance(Duration.ofSeconds(3));
        RayServiceStatuses s = status();
        assertThat(s.condition(RayServiceConditions.READY).reason()).isEqualTo(RayServiceConditions.VALIDATION_FAILED);
        assertThat(s.condition(RayServiceConditions.READY).message()).isEqualTo("The RayService spec is invalid: "
                + "headGroupSpec should have at least one container");
        assertThat(eventReasons()).contains("InvalidRayServiceSpec").doesNotContain("ReconcileError");
        assertThat(clusters()).isEmpty();
    }

    // ValidateRayServiceMetadata / validateInitializingTimeout
    @Test
    void malformedInitializingTimeoutIsInvalidMetadata() {
        h.create(ResourceTypes.RAYSERVICES, NS, manifest(null, "ray.io/initializing-timeout: soon"));
        h.advance(Duration.ofSeconds(3));
        assertThat(status().condition(RayServiceConditions.READY).message()).isEqualTo("The RayService metadata is "
                + "invalid: RayService annotations is invalid: annotation ray.io/initializing-timeout has invalid "
                + "format: soon. Expected Go duration format (e.g., '5m', '1h') or positive integer seconds");
        assertThat(eventReasons()).contains("InvalidRayServiceMetadata");
    }

    // rayservice_controller.go markFailedOnInitializingTimeout and isInitializingTimeout
    @Test
    void initializingTimeoutFailsTheRayServiceForGood() {
        h.create(ResourceTypes.RAYSERVICES, NS, manifest(null,
                "ray.io/initializing-timeout: 1s\nsim.kuberay.io/serve-deploy-seconds: \"600\""));
        h.advance(Duration.ofSeconds(10));
        RayServiceStatuses s = status();
        assertThat(s.condition(RayServiceConditions.READY).reason()).isEqualTo("InitializingTimeout");
        assertThat(s.condition(RayServiceConditions.READY).message()).startsWith("RayService failed to become ready "
                + "within the configured timeout of 1s. Time spent initializing: ");
        assertThat(s.activeServiceStatus() == null ? null : s.activeServiceStatus().rayClusterName()).isNull();
        assertThat(eventReasons()).contains("RayServiceInitializingTimeout");
        h.advance(Duration.ofSeconds(120)); // the clusters are cleaned up and nothing new is created
        assertThat(clusters()).isEmpty();
        assertThat(status().condition(RayServiceConditions.READY).reason()).isEqualTo("InitializingTimeout");
    }

    // rayservice_controller.go handleSuspend: KubeRay's messages, RollbackInProgress, atomic once Suspending
    @Test
    void suspendCompletesOnceRecordedWithKubeRaysConditions() {
        deployReady(manifest(null, null));
        List<String> before = clusters();
        patchSpec("{\"spec\": {\"suspend\": true}}");
        RayServiceStatuses s = status();
        assertThat(s.condition(RayServiceConditions.SUSPENDING).message())
                .isEqualTo("Spec.Suspend is true; will delete all Kubernetes resources owned by this RayService.");
        assertThat(s.condition(RayServiceConditions.READY).message()).isEqualTo("RayService is suspending.");
        assertThat(s.condition(RayServiceConditions.UPGRADE_IN_PROGRESS).message()).isEqualTo("No upgrade in progress.");
        assertThat(s.condition(RayServiceConditions.ROLLBACK_IN_PROGRESS).status()).isEqualTo(Condition.Status.False);
        patchSpec("{\"spec\": {\"suspend\": false}}"); // too late: Suspending is recorded
        h.advance(Duration.ofSeconds(6));
        // the suspend ran to completion (the old cluster is gone), then the RayService resumed
        assertThat(clusters()).doesNotContainAnyElementsOf(before);
        assertThat(status().condition(RayServiceConditions.SUSPENDED).reason())
                .isEqualTo(RayServiceConditions.RAY_SERVICE_RESUMED);
        advanceUntil(this::ready, Duration.ofSeconds(30));
        assertThat(clusters()).hasSize(1);
    }

    // common/service.go BuildHeadServiceForRayService (over BuildServiceForHeadPod) and BuildServeService
    @Test
    void servicesAreLabelledAndPortedAsKubeRayBuildsThem() {
        deployReady(manifest(null, null));

        JsonNode head = h.client().get(ResourceTypes.SERVICES, NS, "svc-head-svc").object();
        assertThat(head.at("/metadata/labels").toString()).isEqualTo("{\"ray.io/originated-from-cr-name\":\"svc\","
                + "\"ray.io/originated-from-crd\":\"RayService\",\"ray.io/node-type\":\"head\","
                + "\"ray.io/identifier\":\"svc-head\"}");
        assertThat(head.at("/spec/ports").findValuesAsString("appProtocol")).containsOnly("tcp");
        assertThat(head.at("/spec/clusterIP").asString()).isEqualTo("None");
        JsonNode serve = h.client().get(ResourceTypes.SERVICES, NS, "svc-serve-svc").object();
        assertThat(serve.at("/metadata/labels/ray.io~1serve").asString()).isEqualTo("svc-serve");
        assertThat(serve.at("/metadata/labels/ray.io~1node-type").isMissingNode()).isTrue();
        assertThat(serve.at("/spec/ports").toString()).isEqualTo("[{\"name\":\"serve\",\"port\":8000,"
                + "\"protocol\":\"TCP\",\"targetPort\":8000}]");
    }

    // BuildServiceForHeadPod: the type is headGroupSpec.serviceType, headless only for ClusterIP (or unset);
    // BuildServeService: the serve Service takes the same type
    @Test
    void headGroupServiceTypeIsTheServicesType() {
        deployReady(manifest(null, null).replace("    headGroupSpec:\n", "    headGroupSpec:\n      serviceType: NodePort\n"));

        JsonNode head = h.client().get(ResourceTypes.SERVICES, NS, "svc-head-svc").object();
        assertThat(head.at("/spec/type").asString()).isEqualTo("NodePort");
        assertThat(head.at("/spec/clusterIP").asString()).isNotEqualTo("None");
        assertThat(h.client().get(ResourceTypes.SERVICES, NS, "svc-serve-svc").object().at("/spec/type").asString())
                .isEqualTo("NodePort");
    }

    // BuildServeService: a port the user's serveService defines under a detected name is used as written
    @Test
    void userServeServicePortReplacesTheDetectedOneOfTheSameName() {
        deployReady(manifest("""
                serveService:
                  metadata: {labels: {team: ml, ray.io/serve: mine}}
                  spec:
                    ports:
                    - {name: serve, port: 8000, appProtocol: kubernetes.io/h2c}
                    - {name: other, port: 9999}
                """, null));

        JsonNode serve = h.client().get(ResourceTypes.SERVICES, NS, "svc-serve-svc").object();
        assertThat(serve.at("/spec/ports").size()).isEqualTo(1);
        assertThat(serve.at("/spec/ports/0/appProtocol").asString()).isEqualTo("kubernetes.io/h2c");
        assertThat(serve.at("/metadata/labels/team").asString()).isEqualTo("ml");
        assertThat(serve.at("/metadata/labels/ray.io~1serve").asString()).isEqualTo("svc-serve");
    }

    // BuildServeService's error, returned by reconcileServices after the head Service was made: no serve Service,
    // no status written for that pass, the reconcile retried; KubeRay's message
    @Test
    void headWithoutServePortGetsKubeRaysMessageAndNoServeService() {
        h.create(ResourceTypes.RAYSERVICES, NS, manifest(null, null).replaceFirst(
                "image: rayproject/ray:2.9.0\n", "image: rayproject/ray:2.9.0\n"
                        + "            ports: [{name: dashboard, containerPort: 8265}]\n"));
        h.advance(Duration.ofSeconds(30));

        assertThat(h.client().get(ResourceTypes.SERVICES, NS, "svc-head-svc")).isNotNull();
        assertThat(h.client().get(ResourceTypes.SERVICES, NS, "svc-serve-svc")).isNull();
        assertThat(h.client().list(ResourceTypes.EVENTS, NS, null).stream()
                .map(e -> Json.text(e.object(), "message")).filter(m -> m != null && m.contains("serve")).toList())
                .contains("Reconcile failed: Please specify a port named 'serve' (or with the prefix 'serve-', e.g. "
                        + "'serve-grpc') in the Ray head container; otherwise, the Kubernetes service for Ray Serve "
                        + "will not be created.");
        assertThat(ready()).isFalse();
    }

    List<String> eventReasons() {
        return h.client().list(ResourceTypes.EVENTS, NS, null).stream()
                .map(e -> Json.text(e.object(), "reason")).toList();
    }
}
