package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.testing.SimulationHarness;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;

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
        for (JsonNode e : container.path("env")) {
            if (name.equals(e.path("name").asString())) {
                return e;
            }
        }
        return null;
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
}
