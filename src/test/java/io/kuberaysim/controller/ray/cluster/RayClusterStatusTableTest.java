package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.api.ray.RayClusterStatus;
import io.kuberaysim.apiserver.storage.StoredObject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What {@code kubectl get raycluster} shows (STATE, DESIRED/AVAILABLE/READY WORKERS) for one worker group and a set
 * of Pods, as KubeRay's raycluster_controller.go {@code calculateStatus} computes it: desired replicas as
 * {@code utils.GetWorkerGroupDesiredReplicas} (replicas clamped to [min, max], max when min > max, 0 when the group
 * is suspended), available = running workers, ready = running workers whose Ready condition is True, and
 * {@code ready} only without a reconcile error when exactly desired + 1 Pods exist and all are running and ready
 * ({@code utils.CheckAllPodsRunning}).
 */
class RayClusterStatusTableTest {
    private static final Instant NOW = Instant.parse("2025-01-01T00:00:00Z");

    @ParameterizedTest(name = "replicas={0} min={1} max={2} suspend={3} head={4} workers={5} error={6} -> {7} {8}/{9}/{10}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            # replicas | min | max | suspend | head        | workers              | error | state | desired | available | ready
              2        | 1   | 4   | false   | ready       | ready ready          | false | ready | 2       | 2         | 2
              2        | 1   | 4   | false   | ready       | ready pending        | false | -     | 2       | 1         | 1
              2        | 1   | 4   | false   | ready       | ready unready        | false | -     | 2       | 2         | 1
              2        | 1   | 4   | false   | pending     | ready ready          | false | -     | 2       | 2         | 2
              2        | 1   | 4   | false   | ready       | ready ready ready    | false | -     | 2       | 3         | 3
              2        | 1   | 4   | false   | ready       | ready ready          | true  | -     | 2       | 2         | 2
              9        | 1   | 3   | false   | ready       | ready ready ready    | false | ready | 3       | 3         | 3
              0        | 1   | 4   | false   | ready       | ready                | false | ready | 1       | 1         | 1
              2        | 5   | 3   | false   | ready       | ready ready ready    | false | ready | 3       | 3         | 3
              2        | 1   | 4   | true    | ready       | -                    | false | ready | 0       | 0         | 0
              2        | 1   | 4   | false   | -           | -                    | false | -     | 2       | 0         | 0
            """)
    void kubectlGetShowsKubeRaysCounts(int replicas, int min, int max, boolean suspend, String head, String workers,
            boolean error, String state, int desired, int available, int ready) {
        StoredObject cluster = cluster(replicas, min, max, suspend);
        List<StoredObject> pods = new ArrayList<>();
        if (head != null) {
            pods.add(pod("demo-head", "head", head));
        }
        if (workers != null) {
            String[] states = workers.trim().split("\\s+");
            for (int i = 0; i < states.length; i++) {
                pods.add(pod("demo-worker-" + i, "worker", states[i]));
            }
        }
        RayClusterStatus s = RayClusterStatusCalculator.calculate(cluster, RayPodFactoryTest.typed(cluster).spec(),
                pods, null, error ? new ReconcileFailure(null, "boom") : null, NOW);

        assertThat(s.state()).isEqualTo(state);
        // int32 omitempty in KubeRay's RayClusterStatus: a zero count is not written at all
        assertThat(s.desiredWorkerReplicas()).isEqualTo(desired == 0 ? null : desired);
        assertThat(s.availableWorkerReplicas()).isEqualTo(available == 0 ? null : available);
        assertThat(s.readyWorkerReplicas()).isEqualTo(ready == 0 ? null : ready);
    }

    private static StoredObject cluster(int replicas, int min, int max, boolean suspend) {
        return StoredObject.unstored(ResourceTypes.RAYCLUSTERS, (ObjectNode) Json.YAML.readTree("""
                apiVersion: ray.io/v1
                kind: RayCluster
                metadata: {name: demo, namespace: default, uid: u, generation: 1}
                spec:
                  headGroupSpec:
                    template: {spec: {containers: [{name: ray-head, image: ray}]}}
                  workerGroupSpecs:
                  - groupName: g
                    replicas: %d
                    minReplicas: %d
                    maxReplicas: %d
                    suspend: %s
                    template: {spec: {containers: [{name: ray-worker, image: ray}]}}
                """.formatted(replicas, min, max, suspend)));
    }

    /** A Pod of the cluster: {@code ready} (Running, Ready=True), {@code unready} (Running, Ready=False), {@code pending}. */
    private static StoredObject pod(String name, String nodeType, String state) {
        String phase = state.equals("pending") ? "Pending" : "Running";
        String readyCondition = state.equals("ready") ? "True" : "False";
        return StoredObject.unstored(ResourceTypes.PODS, (ObjectNode) Json.YAML.readTree("""
                apiVersion: v1
                kind: Pod
                metadata: {name: %s, namespace: default, labels: {ray.io/cluster: demo, ray.io/node-type: %s, ray.io/group: g}}
                status:
                  phase: %s
                  conditions: [{type: Ready, status: "%s"}]
                """.formatted(name, nodeType, phase, readyCondition)));
    }
}
