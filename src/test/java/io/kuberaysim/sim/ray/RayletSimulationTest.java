package io.kuberaysim.sim.ray;

import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.testing.SimulationHarness;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The workers of a cluster whose head is lost, as Ray behaves under KubeRay: without GCS fault tolerance the new head
 * terminates the workers of the old one (their containers exit 1 and restart), with it they reconnect, and a GCS
 * that stays away ends them after their reconnect timeout.
 */
class RayletSimulationTest {
    static final String NS = "default";

    /** A cluster with two workers; each extra is YAML lines at its place (indented for it), or "". */
    static String cluster(String name, String headContainerExtra, String workerPodExtra, String workerContainerExtra) {
        return """
                apiVersion: ray.io/v1
                kind: RayCluster
                metadata: {name: %s}
                spec:
                  rayVersion: "2.52.0"
                  headGroupSpec:
                    rayStartParams: {}
                    template:
                      spec:
                        containers:
                        - name: ray-head
                          image: rayproject/ray:2.52.0
                          resources: {limits: {cpu: "1", memory: 2Gi}}
                %s
                  workerGroupSpecs:
                  - groupName: small-group
                    replicas: 2
                    minReplicas: 0
                    maxReplicas: 5
                    rayStartParams: {}
                    template:
                      spec:
                %s
                        containers:
                        - name: ray-worker
                          image: rayproject/ray:2.52.0
                          resources: {limits: {cpu: "1", memory: 1Gi}}
                %s
                """.formatted(name, headContainerExtra, workerPodExtra, workerContainerExtra);
    }

    static List<StoredObject> workers(SimulationHarness h, String cluster) {
        return h.client().list(ResourceTypes.PODS, NS, "ray.io/cluster=" + cluster + ",ray.io/node-type=worker");
    }

    static JsonNode rayStatus(StoredObject pod) {
        return pod.object().at("/status/containerStatuses/0");
    }

    static String state(SimulationHarness h, String cluster) {
        return h.client().get(ResourceTypes.RAYCLUSTERS, NS, cluster).object().at("/status/state").asString();
    }

    @Test
    void withoutFaultToleranceTheNewHeadEndsTheOldWorkersAndTheyRestartAndRejoin() {
        try (SimulationHarness h = SimulationHarness.withOperator()) {
            h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("plain", "", "", ""));
            h.advance(Duration.ofSeconds(30));
            List<String> uids = workers(h, "plain").stream().map(StoredObject::uid).toList();
            assertThat(uids).hasSize(2);
            assertThat(state(h, "plain")).isEqualTo("ready");

            h.client().delete(ResourceTypes.PODS, NS, "plain-head");
            h.advance(Duration.ofSeconds(30));

            List<StoredObject> after = workers(h, "plain");
            assertThat(after).extracting(StoredObject::uid).containsExactlyElementsOf(uids);
            for (StoredObject w : after) {
                JsonNode cs = rayStatus(w);
                assertThat(cs.path("restartCount").asInt()).as(w.name()).isEqualTo(1);
                assertThat(cs.at("/lastState/terminated/exitCode").asInt()).isEqualTo(1);
                assertThat(cs.at("/lastState/terminated/reason").asString()).isEqualTo("Error");
                assertThat(cs.path("ready").asBoolean()).isTrue();
            }
            assertThat(state(h, "plain")).isEqualTo("ready");
        }
    }

    @Test
    void withFaultToleranceTheWorkersReconnectToTheNewHead() {
        try (SimulationHarness h = SimulationHarness.withOperator()) {
            h.create(ResourceTypes.SECRETS, NS, "metadata: {name: redis-password-secret}\nstringData: {password: x}\n");
            h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("ft", "", "", "").replace("  headGroupSpec:",
                    "  gcsFaultToleranceOptions:\n"
                            + "    redisAddress: \"redis:6379\"\n"
                            + "    redisPassword:\n"
                            + "      valueFrom: {secretKeyRef: {name: redis-password-secret, key: password}}\n"
                            + "  headGroupSpec:"));
            h.advance(Duration.ofSeconds(30));
            assertThat(state(h, "ft")).isEqualTo("ready");

            h.client().delete(ResourceTypes.PODS, NS, "ft-head");
            h.advance(Duration.ofSeconds(30));

            assertThat(h.client().get(ResourceTypes.PODS, NS, "ft-head").object().at("/status/phase").asString())
                    .isEqualTo("Running");
            assertThat(workers(h, "ft")).hasSize(2).allSatisfy(w ->
                    assertThat(rayStatus(w).path("restartCount").asInt()).isZero());
        }
    }

    @Test
    void aGcsThatStaysAwayEndsEachWorkerAfterItsReconnectTimeoutAgainAndAgain() {
        try (SimulationHarness h = SimulationHarness.withOperator()) {
            h.create(ResourceTypes.CONFIGMAPS, NS, "metadata: {name: head-config}\ndata: {mode: fast}\n");
            String headEnv = "          env:\n"
                    + "          - name: MODE\n"
                    + "            valueFrom: {configMapKeyRef: {name: head-config, key: mode}}";
            String workerEnv = "          env:\n"
                    + "          - {name: RAY_gcs_rpc_server_reconnect_timeout_s, value: \"30\"}";
            h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("lost", headEnv, "", workerEnv));
            h.advance(Duration.ofSeconds(30));
            assertThat(state(h, "lost")).isEqualTo("ready");

            // the head cannot come back: its ConfigMap is gone, so the new head waits in CreateContainerConfigError
            h.client().delete(ResourceTypes.CONFIGMAPS, NS, "head-config");
            h.client().delete(ResourceTypes.PODS, NS, "lost-head");
            h.advance(Duration.ofSeconds(25));
            assertThat(workers(h, "lost")).allSatisfy(w ->
                    assertThat(rayStatus(w).path("restartCount").asInt()).isZero());
            h.advance(Duration.ofSeconds(10));
            assertThat(workers(h, "lost")).hasSize(2).allSatisfy(w ->
                    assertThat(rayStatus(w).path("restartCount").asInt()).isEqualTo(1));
            h.advance(Duration.ofSeconds(35));
            assertThat(workers(h, "lost")).allSatisfy(w ->
                    assertThat(rayStatus(w).path("restartCount").asInt()).isEqualTo(2));
            assertThat(h.client().get(ResourceTypes.PODS, NS, "lost-head").object()
                    .at("/status/containerStatuses/0/state/waiting/reason").asString())
                    .isEqualTo("CreateContainerConfigError");
        }
    }

    @Test
    void workersThatMayNotRestartFailAndKubeRayReplacesThem() {
        try (SimulationHarness h = SimulationHarness.withOperator()) {
            h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("never", "", "        restartPolicy: Never", ""));
            h.advance(Duration.ofSeconds(30));
            List<String> before = workers(h, "never").stream().map(StoredObject::uid).toList();
            assertThat(before).hasSize(2);

            h.client().delete(ResourceTypes.PODS, NS, "never-head");
            h.advance(Duration.ofSeconds(60));

            List<StoredObject> after = workers(h, "never");
            assertThat(after).hasSize(2).extracting(StoredObject::uid).doesNotContainAnyElementsOf(before);
            assertThat(state(h, "never")).isEqualTo("ready");
        }
    }

    @Test
    void aReconnectTimeoutThatIsNoNumberOrHugeEndsNoWorkerAndStopsNothing() {
        try (SimulationHarness h = SimulationHarness.withOperator()) {
            for (String value : List.of("soon", "99999999999999999999999", "9223372036854775807", "")) {
                String name = "odd" + (value.isEmpty() ? "empty" : value.length());
                h.create(ResourceTypes.RAYCLUSTERS, NS, cluster(name, "", "", "          env:\n"
                        + "          - {name: RAY_gcs_rpc_server_reconnect_timeout_s, value: \"" + value + "\"}"));
            }
            h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("plain", "", "", ""));
            h.advance(Duration.ofSeconds(30));
            for (String name : List.of("odd4", "odd23", "odd19", "oddempty", "plain")) {
                h.client().delete(ResourceTypes.PODS, NS, name + "-head");
            }
            h.advance(Duration.ofSeconds(30));
            // without FT the new head ends every old worker, whatever the timeout says; nothing failed on the way
            for (String name : List.of("odd4", "odd23", "odd19", "oddempty", "plain")) {
                assertThat(workers(h, name)).as(name).hasSize(2).allSatisfy(w ->
                        assertThat(rayStatus(w).path("restartCount").asInt()).isEqualTo(1));
                assertThat(state(h, name)).isEqualTo("ready");
            }
        }
    }
}
