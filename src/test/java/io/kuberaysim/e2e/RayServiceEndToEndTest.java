package io.kuberaysim.e2e;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.api.ray.Condition;
import io.kuberaysim.api.ray.RayService;
import io.kuberaysim.api.ray.RayServiceConditions;
import io.kuberaysim.api.ray.RayServiceStatuses;
import io.kuberaysim.apiserver.registry.PatchType;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.ray.dashboard.ServeApplication;
import io.kuberaysim.controller.ray.service.RayServiceServices;
import io.kuberaysim.controller.runtime.cache.InformerHandler;
import io.kuberaysim.sim.ray.ServeApplications;
import io.kuberaysim.testing.SimulationHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.kuberaysim.e2e.OperatorE2e.NS;
import static io.kuberaysim.e2e.OperatorE2e.phase;
import static io.kuberaysim.e2e.OperatorE2e.podReady;
import static io.kuberaysim.e2e.OperatorE2e.pods;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * RayServices on the real stack: the RayService and RayCluster controllers and the simulated Serve API over the
 * simulated scheduler and kubelet, on the virtual clock. Traffic safety is checked on every write of the serve
 * Service and after every simulated second: its selector may only name a live cluster whose pods all run and are
 * Ready.
 */
class RayServiceEndToEndTest {
    static final String MANIFEST = """
            apiVersion: ray.io/v1
            kind: RayService
            metadata:
              name: svc
            spec:
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
                  rayStartParams:
                    dashboard-host: "0.0.0.0"
                  template:
                    spec:
                      containers:
                      - name: ray-head
                        image: rayproject/ray:2.9.0
                        resources:
                          requests: {cpu: "1", memory: "2Gi"}
                workerGroupSpecs:
                - groupName: small
                  replicas: 2
                  minReplicas: 1
                  maxReplicas: 5
                  rayStartParams: {}
                  template:
                    spec:
                      containers:
                      - name: ray-worker
                        image: rayproject/ray:2.9.0
                        resources:
                          requests: {cpu: "2", memory: "4Gi"}
            """;

    private final SimulationHarness h = SimulationHarness.withOperator();
    /** Every moment the serve Service selected a cluster that could not serve. */
    private final List<String> violations = new ArrayList<>();

    RayServiceEndToEndTest() {
        h.manager().informer(ResourceTypes.SERVICES).addHandler(new InformerHandler() {
            @Override
            public void onAdd(StoredObject o) {
                checkTraffic();
            }

            @Override
            public void onUpdate(StoredObject oldObj, StoredObject newObj) {
                checkTraffic();
            }
        });
    }

    @AfterEach
    void close() {
        h.close();
    }

    /** The serve Service, if any, selects a live cluster whose pods all run and are Ready. */
    void checkTraffic() {
        StoredObject svc = h.client().get(ResourceTypes.SERVICES, NS, "svc-serve-svc");
        if (svc == null) {
            return;
        }
        String cluster = RayServiceServices.selectedCluster(svc);
        StoredObject rc = h.client().get(ResourceTypes.RAYCLUSTERS, NS, cluster);
        List<StoredObject> clusterPods = pods(h, "ray.io/cluster=" + cluster);
        boolean ok = rc != null && !rc.isDeleting() && !clusterPods.isEmpty() && clusterPods.stream()
                .allMatch(p -> !p.isDeleting() && "Running".equals(phase(p)) && podReady(p));
        if (!ok) {
            violations.add(h.clock().now() + " serve svc -> " + cluster + " pods="
                    + clusterPods.stream().map(p -> p.name() + ":" + phase(p) + ":" + podReady(p)).toList());
        }
    }

    /** Advances one second at a time, checking traffic after each, until {@code done}; fails after {@code max} s. */
    void advanceUntil(java.util.function.BooleanSupplier done, int maxSeconds) {
        for (int s = 0; s < maxSeconds && !done.getAsBoolean(); s++) {
            step();
        }
        assertThat(done.getAsBoolean()).as("reached within " + maxSeconds + " s").isTrue();
    }

    void step() {
        h.advance(Duration.ofSeconds(1));
        checkTraffic();
    }

    RayServiceStatuses status() {
        return KubeClient.read(h.client().get(ResourceTypes.RAYSERVICES, NS, "svc").object(), RayService.class)
                .status();
    }

    boolean ready() {
        RayServiceStatuses s = status();
        Condition c = s == null ? null : s.condition(RayServiceConditions.READY);
        return c != null && c.isTrue();
    }

    String serveSelector() {
        return RayServiceServices.selectedCluster(h.client().get(ResourceTypes.SERVICES, NS, "svc-serve-svc"));
    }

    List<String> clusters() {
        return h.client().list(ResourceTypes.RAYCLUSTERS, NS, null).stream().map(StoredObject::name).sorted().toList();
    }

    void patch(String json) {
        h.client().patch(ResourceTypes.RAYSERVICES, NS, "svc", PatchType.MERGE, Json.MAPPER.readTree(json));
        h.settle();
    }

    @Test
    void firstDeploymentBecomesReadyWithServeEndpoints() {
        h.create(ResourceTypes.RAYSERVICES, NS, MANIFEST);
        advanceUntil(this::ready, 30);

        RayServiceStatuses s = status();
        String cluster = s.activeServiceStatus().rayClusterName();
        assertThat(cluster).matches("svc-[a-z0-9]{5}");
        assertThat(s.numServeEndpoints()).isEqualTo(3); // head + two workers, all Ready
        assertThat(s.activeServiceStatus().applicationStatuses().get("app1").status())
                .isEqualTo(ServeApplication.RUNNING);
        assertThat(s.activeServiceStatus().rayClusterStatus().state()).isEqualTo("ready");
        assertThat(serveSelector()).isEqualTo(cluster);
        assertThat(pods(h, "ray.io/cluster=" + cluster)).hasSize(3)
                .allSatisfy(p -> assertThat(Json.text(p.object(), "spec", "nodeName")).startsWith("sim-node-"));
        assertThat(violations).isEmpty();
    }

    @Test
    void blueGreenUpgradeNeverRoutesToAnUnreadyClusterAndDeletesTheOldOneAfterTheDelay() {
        h.create(ResourceTypes.RAYSERVICES, NS, MANIFEST);
        advanceUntil(this::ready, 30);
        String old = status().activeServiceStatus().rayClusterName();

        patch("""
                {"spec": {"rayClusterConfig": {"rayVersion": "2.10.0"}}}
                """);
        step();
        String pending = status().pendingServiceStatus().rayClusterName();
        assertThat(pending).isNotEqualTo(old);
        while (!pending.equals(serveSelector())) {
            assertThat(serveSelector()).isEqualTo(old);
            assertThat(ready()).isTrue();
            step();
            assertThat(h.clock().now()).isBefore(h.clock().startTime().plusSeconds(120));
        }
        java.time.Instant switched = h.clock().now();
        assertThat(status().activeServiceStatus().rayClusterName()).isEqualTo(pending);
        assertThat(status().pendingServiceStatus()).isNull();
        assertThat(pods(h, "ray.io/cluster=" + pending)).hasSize(3);

        while (clusters().contains(old)) {
            assertThat(ready()).isTrue();
            step();
            assertThat(h.clock().now()).isBefore(switched.plusSeconds(120));
        }
        long deletedAfter = Duration.between(switched, h.clock().now()).toSeconds();
        assertThat(deletedAfter).isBetween(60L, 62L);
        step();
        step();
        assertThat(pods(h, "ray.io/cluster=" + old)).isEmpty();
        assertThat(clusters()).containsExactly(pending);
        assertThat(status().numServeEndpoints()).isEqualTo(3);
        assertThat(violations).isEmpty();
    }

    @Test
    void failingApplicationOnTheNewClusterKeepsTheOldClusterServing() {
        h.create(ResourceTypes.RAYSERVICES, NS, MANIFEST);
        advanceUntil(this::ready, 30);
        String old = status().activeServiceStatus().rayClusterName();

        patch("""
                {"metadata": {"annotations": {"sim.kuberay.io/serve-app-status": "{\\"app1\\": \\"DEPLOY_FAILED\\"}"}},
                 "spec": {"rayClusterConfig": {"rayVersion": "2.10.0"}}}
                """);
        for (int i = 0; i < 90; i++) {
            step();
            assertThat(serveSelector()).isEqualTo(old);
            assertThat(ready()).isTrue();
        }
        RayServiceStatuses s = status();
        assertThat(s.activeServiceStatus().rayClusterName()).isEqualTo(old);
        String pending = s.pendingServiceStatus().rayClusterName();
        assertThat(s.pendingServiceStatus().applicationStatuses().get("app1").status())
                .isEqualTo(ServeApplication.DEPLOY_FAILED);
        assertThat(clusters()).containsExactlyInAnyOrder(old, pending);
        assertThat(pods(h, "ray.io/cluster=" + old)).hasSize(3)
                .allSatisfy(p -> assertThat(phase(p)).isEqualTo("Running"));
        assertThat(s.numServeEndpoints()).isEqualTo(3);
        assertThat(violations).isEmpty();
    }
}
