package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.apiserver.storage.WatchEvent;
import io.kuberaysim.testing.SimulationHarness;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * GCS fault tolerance written into the Pods as KubeRay writes it ({@code configureGCSFaultTolerance}): the shape of
 * KubeRay's own {@code ray-cluster.external-redis.yaml} sample, and the legacy annotation.
 */
class GcsFaultToleranceTest {
    static final String NS = "default";

    static final String EXTERNAL_REDIS = """
            apiVersion: ray.io/v1
            kind: RayCluster
            metadata: {name: external-redis}
            spec:
              rayVersion: "2.52.0"
              gcsFaultToleranceOptions:
                redisAddress: "redis:6379"
                redisPassword:
                  valueFrom: {secretKeyRef: {name: redis-password-secret, key: password}}
              headGroupSpec:
                rayStartParams: {num-cpus: "0"}
                template:
                  spec:
                    containers:
                    - name: ray-head
                      image: rayproject/ray:2.52.0
                      resources: {limits: {cpu: "1", memory: 5Gi}, requests: {cpu: "1", memory: 2Gi}}
              workerGroupSpecs:
              - groupName: small-group
                replicas: 1
                minReplicas: 1
                maxReplicas: 2
                rayStartParams: {}
                template:
                  spec:
                    containers:
                    - name: ray-worker
                      image: rayproject/ray:2.52.0
                      resources: {limits: {cpu: "1", memory: 1Gi}}
            """;

    static JsonNode env(JsonNode container, String name) {
        return AutoscalerRbacAndTokenAuthTest.env(container, name);
    }

    @Test
    void theHeadGetsRedisAddressPasswordAndStorageNamespaceAndWorkersWaitLongerForTheGcs() {
        try (SimulationHarness h = SimulationHarness.withOperator()) {
            h.create(ResourceTypes.SECRETS, NS, "metadata: {name: redis-password-secret}\nstringData: {password: "
                    + "\"5241590000000000\"}\n");
            StoredObject cluster = h.create(ResourceTypes.RAYCLUSTERS, NS, EXTERNAL_REDIS);
            h.advance(Duration.ofSeconds(60));
            JsonNode head = h.client().get(ResourceTypes.PODS, NS, "external-redis-head").object();
            assertThat(head.at("/metadata/annotations/ray.io~1ft-enabled").asString()).isEqualTo("true");
            assertThat(head.at("/metadata/annotations/ray.io~1external-storage-namespace").asString())
                    .isEqualTo(cluster.uid());
            JsonNode ray = head.at("/spec/containers/0");
            assertThat(env(ray, "RAY_REDIS_ADDRESS").path("value").asString()).isEqualTo("redis:6379");
            assertThat(env(ray, "REDIS_PASSWORD").at("/valueFrom/secretKeyRef/name").asString())
                    .isEqualTo("redis-password-secret");
            assertThat(env(ray, "RAY_external_storage_namespace").path("value").asString()).isEqualTo(cluster.uid());
            assertThat(env(ray, "KUBERAY_GEN_RAY_START_CMD").path("value").asString())
                    .contains("--redis-password=$REDIS_PASSWORD");
            JsonNode worker = h.client().list(ResourceTypes.PODS, NS, "ray.io/node-type=worker").get(0).object();
            assertThat(env(worker.at("/spec/containers/0"), "RAY_gcs_rpc_server_reconnect_timeout_s").path("value")
                    .asString()).isEqualTo("600");
            assertThat(env(worker.at("/spec/initContainers/0"), "RAY_gcs_rpc_server_reconnect_timeout_s")).isNull();
            assertThat(h.client().get(ResourceTypes.RAYCLUSTERS, NS, "external-redis").object().at("/status/state")
                    .asString()).isEqualTo("ready");
        }
    }

    @Test
    void withoutThePasswordSecretTheHeadWaitsInCreateContainerConfigError() {
        try (SimulationHarness h = SimulationHarness.withOperator()) {
            h.create(ResourceTypes.RAYCLUSTERS, NS, EXTERNAL_REDIS);
            h.advance(Duration.ofSeconds(60));
            JsonNode head = h.client().get(ResourceTypes.PODS, NS, "external-redis-head").object();
            assertThat(head.at("/status/containerStatuses/0/state/waiting/reason").asString())
                    .isEqualTo("CreateContainerConfigError");
            assertThat(h.client().get(ResourceTypes.RAYCLUSTERS, NS, "external-redis").object().at("/status/state")
                    .asString()).isNotEqualTo("ready");
        }
    }

    @Test
    void withoutFaultToleranceTheHeadSaysSoAndNothingIsAdded() {
        try (SimulationHarness h = SimulationHarness.withOperator()) {
            h.create(ResourceTypes.RAYCLUSTERS, NS, EXTERNAL_REDIS.replaceAll("(?s)  gcsFaultToleranceOptions:.*?"
                    + "  headGroupSpec:", "  headGroupSpec:"));
            h.advance(Duration.ofSeconds(60));
            JsonNode head = h.client().get(ResourceTypes.PODS, NS, "external-redis-head").object();
            assertThat(head.at("/metadata/annotations/ray.io~1ft-enabled").asString()).isEqualTo("false");
            assertThat(head.at("/metadata/annotations").has("ray.io/external-storage-namespace")).isFalse();
            assertThat(env(head.at("/spec/containers/0"), "RAY_REDIS_ADDRESS")).isNull();
            JsonNode worker = h.client().list(ResourceTypes.PODS, NS, "ray.io/node-type=worker").get(0).object();
            assertThat(env(worker.at("/spec/containers/0"), "RAY_gcs_rpc_server_reconnect_timeout_s")).isNull();
        }
    }

    @Test
    void deletingTheClusterRunsKubeRaysRedisCleanupJobBeforeTheFinalizerLetsItGo() {
        try (SimulationHarness h = SimulationHarness.withOperator()) {
            h.create(ResourceTypes.SECRETS, NS, "metadata: {name: redis-password-secret}\nstringData: {password: x}\n");
            h.create(ResourceTypes.RAYCLUSTERS, NS, EXTERNAL_REDIS);
            h.advance(Duration.ofSeconds(60));
            StoredObject cluster = h.client().get(ResourceTypes.RAYCLUSTERS, NS, "external-redis");
            assertThat(cluster.finalizers()).containsExactly("ray.io/gcs-ft-redis-cleanup-finalizer");

            List<String> seen = new ArrayList<>();
            ObjectStore.Subscription sub = h.registry().store().watch(null, 0, e -> {
                if (e.object().type().equals(ResourceTypes.JOBS) && e.type() == WatchEvent.Type.ADDED) {
                    seen.add(e.object().name() + " after head gone: "
                            + (h.client().get(ResourceTypes.PODS, NS, "external-redis-head") == null));
                    JsonNode job = e.object().object();
                    assertThat(job.at("/metadata/labels/ray.io~1node-type").asString()).isEqualTo("redis-cleanup");
                    assertThat(job.at("/spec/backoffLimit").asInt()).isZero();
                    assertThat(job.at("/spec/activeDeadlineSeconds").asInt()).isEqualTo(300);
                    JsonNode containers = job.at("/spec/template/spec/containers");
                    assertThat(containers).hasSize(1);
                    assertThat(containers.get(0).path("args").get(0).asString()).contains("cleanup_redis_storage",
                            "storage_namespace=os.getenv('RAY_external_storage_namespace')");
                    assertThat(env(containers.get(0), "RAY_redis_db_connect_retries").path("value").asString())
                            .isEqualTo("120");
                    assertThat(job.at("/spec/template/spec/restartPolicy").asString()).isEqualTo("Never");
                }
            });
            h.client().delete(ResourceTypes.RAYCLUSTERS, NS, "external-redis");
            h.settle();
            assertThat(h.client().get(ResourceTypes.RAYCLUSTERS, NS, "external-redis").isDeleting()).isTrue();
            h.advance(Duration.ofSeconds(120));
            sub.close();
            assertThat(seen).containsExactly("external-redis-redis-cleanup after head gone: true");
            assertThat(h.client().get(ResourceTypes.RAYCLUSTERS, NS, "external-redis")).isNull();
            assertThat(h.client().list(ResourceTypes.PODS, NS, "ray.io/cluster=external-redis")).isEmpty();
            assertThat(h.client().get(ResourceTypes.JOBS, NS, "external-redis-redis-cleanup")).isNull(); // collected
            assertThat(h.client().list(ResourceTypes.EVENTS, NS, null).stream().map(e -> e.object().path("reason")
                    .asString())).contains("CreatedRedisCleanupJob");
        }
    }
}
