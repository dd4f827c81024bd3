package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.api.ray.RayCluster;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Pins KubeRay's common/pod.go DefaultHeadPodTemplate, DefaultWorkerPodTemplate and BuildPod. */
class RayPodFactoryTest {
    static final String CLUSTER = """
            apiVersion: ray.io/v1
            kind: RayCluster
            metadata:
              name: demo
              namespace: default
              uid: u-1
              labels: %s
            spec:
              enableInTreeAutoscaling: %s
              autoscalerOptions: {version: v2, env: [{name: X, value: "1"}]}
              headGroupSpec:
                labels: {tier: head-tier}
                rayStartParams: {port: "6380"}
                template:
                  metadata: {labels: {team: ml, tier: from-template}}
                  spec:
                    initContainers: [{name: setup, image: busybox}]
                    containers:
                    - name: ray-head
                      image: rayproject/ray:2.46.0
                      resources: {limits: {cpu: "2", memory: 4Gi, nvidia.com/gpu: "1"}}
              workerGroupSpecs:
              - groupName: BigGroup
                replicas: 1
                minReplicas: 0
                maxReplicas: 2
                labels: {ray.io/group: hijack, zone: a}
                resources: {CPU: "3", memory: 1Gi, custom: "2"}
                template:
                  spec:
                    containers:
                    - name: ray-worker
                      image: rayproject/ray:2.46.0
                      securityContext: {runAsUser: 1000}
                      env: [{name: MY, value: v}]
            """;

    static StoredObject cluster(String labels, boolean autoscaling) {
        ObjectNode obj = (ObjectNode) Json.YAML.readTree(CLUSTER.formatted(labels, autoscaling));
        return StoredObject.unstored(ResourceTypes.RAYCLUSTERS, obj);
    }

    static RayCluster typed(StoredObject o) {
        return KubeClient.read(o.object(), RayCluster.class);
    }

    static String env(JsonNode container, String name) {
        for (JsonNode e : container.path("env")) {
            if (name.equals(e.path("name").asString())) {
                return e.has("value") ? e.path("value").asString() : "fieldRef:" + e.at("/valueFrom/fieldRef/fieldPath")
                        .asString();
            }
        }
        return null;
    }

    static List<String> names(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.forEach(n -> out.add(n.path("name").asString()));
        return out;
    }

    // utils/util.go PodName lowercases; DefaultWorkerPodTemplate merges the group's labels into the Pod's
    @Test
    void workerNamesAreLowercaseAndGroupLabelsReachThePod() {
        StoredObject c = cluster("{}", false);
        RayCluster rc = typed(c);
        JsonNode worker = RayPodFactory.workerPod(c, rc.spec(), rc.spec().workerGroupSpecs().get(0), 0);
        assertThat(worker.at("/metadata/name").asString()).isEqualTo("demo-worker-biggroup-0");
        assertThat(worker.at("/metadata/labels/zone").asString()).isEqualTo("a");
        assertThat(worker.at("/metadata/labels/ray.io~1group").asString()).isEqualTo("BigGroup");
        JsonNode head = RayPodFactory.headPod(c, rc.spec());
        assertThat(head.at("/metadata/labels/tier").asString()).isEqualTo("head-tier");
        assertThat(head.at("/metadata/labels/team").asString()).isEqualTo("ml");
    }

    // updateRayStartParamsResources, generateRayStartCommand, GetHeadPort, setContainerEnvVars
    @Test
    void startCommandAndEnvAsKubeRay() {
        StoredObject c = cluster("{}", false);
        RayCluster rc = typed(c);
        JsonNode head = RayPodFactory.headPod(c, rc.spec()).at("/spec/containers/0");
        assertThat(env(head, "KUBERAY_GEN_RAY_START_CMD")).isEqualTo("ray start --head  --block "
                + " --dashboard-agent-listen-port=52365  --dashboard-host=0.0.0.0  --labels=tier=head-tier "
                + " --memory=4294967296 "
                + " --metrics-export-port=8080  --num-cpus=2  --num-gpus=1  --port=6380 ");
        assertThat(env(head, "RAY_ADDRESS")).isEqualTo("127.0.0.1:6380");
        assertThat(env(head, "RAY_USAGE_STATS_EXTRA_TAGS")).endsWith(";kuberay_crd=RayCluster");
        JsonNode worker = RayPodFactory.workerPod(c, rc.spec(), rc.spec().workerGroupSpecs().get(0), 0)
                .at("/spec/containers/0");
        assertThat(env(worker, "KUBERAY_GEN_RAY_START_CMD")).isEqualTo("ray start "
                + " --address=demo-head-svc.default.svc.cluster.local:6380  --block "
                + " --dashboard-agent-listen-port=52365  --labels=ray.io/group=hijack,zone=a  --memory=1073741824 "
                + " --metrics-export-port=8080 "
                + " --num-cpus=3  --resources='{\"custom\":2}' ");
        assertThat(env(worker, "RAY_PORT")).isEqualTo("6380");
    }

    // DefaultWorkerPodTemplate's wait-gcs-ready and BuildPod's setInitContainerEnvVars
    @Test
    void initContainersWaitOnTheHeadPortAndLearnTheHeadAddress() {
        StoredObject c = cluster("{}", false);
        RayCluster rc = typed(c);
        JsonNode worker = RayPodFactory.workerPod(c, rc.spec(), rc.spec().workerGroupSpecs().get(0), 0);
        JsonNode init = worker.at("/spec/initContainers/0");
        assertThat(init.path("name").asString()).isEqualTo("wait-gcs-ready");
        assertThat(init.at("/securityContext/runAsUser").asInt()).isEqualTo(1000);
        assertThat(names(init.path("env"))).containsExactly("MY", "FQ_RAY_IP", "RAY_IP");
        assertThat(init.at("/args/0").asString()).contains("--address demo-head-svc.default.svc.cluster.local:6380");
        JsonNode userInit = RayPodFactory.headPod(c, rc.spec()).at("/spec/initContainers/0");
        assertThat(env(userInit, "FQ_RAY_IP")).isEqualTo("demo-head-svc.default.svc.cluster.local");
        assertThat(env(userInit, "RAY_IP")).isEqualTo("demo-head-svc");
    }

    // DefaultHeadPodTemplate with enableInTreeAutoscaling, BuildAutoscalerContainer, BuildPod's ray-logs volume
    @Test
    void autoscalingHeadGetsTheSidecarServiceAccountLogsVolumeAndV2Settings() {
        StoredObject c = cluster("{}", true);
        RayCluster rc = typed(c);
        JsonNode head = RayPodFactory.headPod(c, rc.spec());
        assertThat(head.at("/spec/serviceAccountName").asString()).isEqualTo("demo");
        assertThat(head.at("/spec/restartPolicy").asString()).isEqualTo("Never");
        assertThat(names(head.at("/spec/containers"))).containsExactly("ray-head", "autoscaler");
        JsonNode ray = head.at("/spec/containers/0");
        assertThat(env(ray, "RAY_enable_autoscaler_v2")).isEqualTo("true");
        assertThat(env(ray, "KUBERAY_GEN_RAY_START_CMD")).contains(" --no-monitor ");
        JsonNode sidecar = head.at("/spec/containers/1");
        assertThat(env(sidecar, "X")).isEqualTo("1");
        assertThat(env(sidecar, "KUBERAY_GEN_AUTOSCALER_START_CMD")).startsWith("ray kuberay-autoscaler");
        assertThat(sidecar.at("/volumeMounts/0/mountPath").asString()).isEqualTo("/tmp/ray");
        assertThat(names(head.at("/spec/volumes"))).contains("shared-mem", "ray-logs");
        JsonNode worker = RayPodFactory.workerPod(c, rc.spec(), rc.spec().workerGroupSpecs().get(0), 0);
        assertThat(worker.at("/spec/restartPolicy").asString()).isEqualTo("Never");
    }

    // BuildPod / setContainerEnvVars for a cluster a RayService created
    @Test
    void rayServiceClustersGetServeLabelsAndTimeouts() {
        StoredObject c = cluster("{ray.io/originated-from-crd: RayService, ray.io/originated-from-cr-name: svc}",
                false);
        RayCluster rc = typed(c);
        JsonNode head = RayPodFactory.headPod(c, rc.spec());
        assertThat(head.at("/metadata/labels/ray.io~1serve").asString()).isEqualTo("false");
        JsonNode ray = head.at("/spec/containers/0");
        assertThat(env(ray, "RAY_timeout_ms_task_wait_for_death_info")).isEqualTo("0");
        assertThat(env(ray, "RAY_gcs_server_request_timeout_seconds")).isEqualTo("5");
        assertThat(env(ray, "RAY_SERVE_KV_TIMEOUT_S")).isEqualTo("5");
        assertThat(env(ray, "RAY_USAGE_STATS_EXTRA_TAGS")).endsWith(";kuberay_crd=RayService");
        JsonNode worker = RayPodFactory.workerPod(c, rc.spec(), rc.spec().workerGroupSpecs().get(0), 0);
        assertThat(worker.at("/metadata/labels/ray.io~1serve").asString()).isEqualTo("true");
    }
}
