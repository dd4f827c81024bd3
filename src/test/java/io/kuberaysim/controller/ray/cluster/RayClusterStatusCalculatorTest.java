package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.api.ray.Condition;
import io.kuberaysim.api.ray.RayClusterStatus;
import io.kuberaysim.apiserver.storage.StoredObject;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Pins KubeRay's utils/util.go FindHeadPodReadyCondition and the ReplicaFailure message of calculateStatus. */
class RayClusterStatusCalculatorTest {
    static final Instant NOW = Instant.parse("2025-01-01T00:00:00Z");

    static StoredObject cluster() {
        return StoredObject.unstored(ResourceTypes.RAYCLUSTERS, (ObjectNode) Json.YAML.readTree("""
                apiVersion: ray.io/v1
                kind: RayCluster
                metadata: {name: demo, namespace: default, uid: u}
                spec:
                  headGroupSpec:
                    template: {spec: {containers: [{name: ray-head, image: ray}]}}
                """));
    }

    static StoredObject headPod(String containerStatuses) {
        return StoredObject.unstored(ResourceTypes.PODS, (ObjectNode) Json.YAML.readTree("""
                apiVersion: v1
                kind: Pod
                metadata: {name: demo-head, namespace: default, labels: {ray.io/cluster: demo, ray.io/node-type: head}}
                status:
                  phase: Running
                  conditions:
                  - {type: Ready, status: "False", reason: ContainersNotReady,
                     message: "containers with unready status: [ray-head sidecar]"}
                  containerStatuses: %s
                """.formatted(containerStatuses)));
    }

    static Condition condition(RayClusterStatus s, String type) {
        return s.condition(type);
    }

    // firstNotReadyContainerStatus: the first waiting or terminated container, its name and message appended
    @Test
    void containersNotReadyTakesTheFirstWaitingOrTerminatedContainer() {
        StoredObject pod = headPod("""
                [{name: ok, state: {running: {}}},
                 {name: ray-head, state: {terminated: {reason: Error, message: "exit 1"}}},
                 {name: sidecar, state: {waiting: {reason: CrashLoopBackOff, message: back-off}}}]""");
        StoredObject c = cluster();
        RayClusterStatus s = RayClusterStatusCalculator.calculate(c, RayPodFactoryTest.typed(c).spec(), List.of(pod),
                null, null, NOW);
        Condition ready = condition(s, "HeadPodReady");
        assertThat(ready.reason()).isEqualTo("Error");
        assertThat(ready.message()).isEqualTo("containers with unready status: [ray-head sidecar]; ray-head: exit 1");
    }

    // calculateStatus: ReplicaFailure's message is errors.Join(marker, err).Error()
    @Test
    void replicaFailureMessageIsMarkerNewlineError() {
        StoredObject c = cluster();
        RayClusterStatus s = RayClusterStatusCalculator.calculate(c, RayPodFactoryTest.typed(c).spec(), List.of(),
                null, new ReconcileFailure("FailedCreateHeadPod", "pods \"demo-head\" is forbidden"), NOW);
        assertThat(condition(s, "ReplicaFailure").message()).isEqualTo(
                "FailedCreateHeadPod\npods \"demo-head\" is forbidden");
    }
}
