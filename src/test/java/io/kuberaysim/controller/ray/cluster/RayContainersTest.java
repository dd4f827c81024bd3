package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.api.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/** Pins KubeRay's common/pod.go BuildAutoscalerContainer, mergeAutoscalerOverrides and the wait-gcs-ready init container. */
class RayContainersTest {
    static final JsonNode RAY = Json.MAPPER.readTree("""
            {"name":"ray-head","image":"rayproject/ray:2.46.0","imagePullPolicy":"Always",
             "securityContext":{"runAsUser":1000},"env":[{"name":"TLS","value":"1"}],
             "volumeMounts":[{"name":"certs","mountPath":"/certs"}]}""");

    @Test
    void autoscalerSidecarAsBuildAutoscalerContainer() {
        JsonNode c = RayContainers.autoscaler(RAY, null);
        assertThat(c.get("image").asString()).isEqualTo("rayproject/ray:2.46.0");
        assertThat(c.get("imagePullPolicy").asString()).isEqualTo("IfNotPresent");
        assertThat(c.get("command").toString()).isEqualTo("[\"/bin/bash\",\"-c\",\"--\"]");
        assertThat(c.at("/args/0").asString()).isEqualTo("ray kuberay-autoscaler --cluster-name $(RAY_CLUSTER_NAME) "
                + "--cluster-namespace $(RAY_CLUSTER_NAMESPACE)");
        assertThat(c.get("env")).extracting(e -> e.get("name").asString()).containsExactly("RAY_CLUSTER_NAME",
                "RAY_CLUSTER_NAMESPACE", "RAY_HEAD_POD_NAME", "KUBERAY_CRD_VER", "KUBERAY_GEN_AUTOSCALER_START_CMD");
        assertThat(c.at("/env/4/value").asString()).isEqualTo(c.at("/args/0").asString());
        assertThat(c.at("/resources/limits/cpu").asString()).isEqualTo("500m");
        assertThat(c.at("/resources/requests/memory").asString()).isEqualTo("512Mi");
    }

    // common/pod.go mergeAutoscalerOverrides
    @Test
    void autoscalerOptionsOverrideAndAppend() {
        JsonNode opts = Json.MAPPER.readTree("""
                {"image":"my/autoscaler:1","imagePullPolicy":"Always","resources":{"limits":{"cpu":"1"}},
                 "env":[{"name":"X","value":"1"}],"envFrom":[{"configMapRef":{"name":"cm"}}],
                 "volumeMounts":[{"name":"v","mountPath":"/v"}],"securityContext":{"privileged":false},
                 "args":["ulimit -n 65536; $KUBERAY_GEN_AUTOSCALER_START_CMD"]}""");
        JsonNode c = RayContainers.autoscaler(RAY, opts);
        assertThat(c.get("image").asString()).isEqualTo("my/autoscaler:1");
        assertThat(c.get("imagePullPolicy").asString()).isEqualTo("Always");
        assertThat(c.get("resources").toString()).isEqualTo("{\"limits\":{\"cpu\":\"1\"}}");
        assertThat(c.get("env")).hasSize(6);
        assertThat(c.at("/env/5/name").asString()).isEqualTo("X");
        assertThat(c.at("/envFrom/0/configMapRef/name").asString()).isEqualTo("cm");
        assertThat(c.at("/volumeMounts/0/mountPath").asString()).isEqualTo("/v");
        assertThat(c.at("/securityContext/privileged").asBoolean()).isFalse();
        assertThat(c.at("/args/0").asString()).isEqualTo("ulimit -n 65536; $KUBERAY_GEN_AUTOSCALER_START_CMD");
        assertThat(c.get("command").toString()).isEqualTo("[\"/bin/bash\",\"-c\",\"--\"]");
    }

    // common/pod.go DefaultWorkerPodTemplate: the init container copies the Ray container's env, mounts, securityContext
    @Test
    void waitGcsReadyCopiesTheRayContainerAndWaitsForTheHeadPort() {
        JsonNode c = RayContainers.waitGcsReady(RAY, "demo-head-svc.default.svc.cluster.local", "6380");
        assertThat(c.get("name").asString()).isEqualTo("wait-gcs-ready");
        assertThat(c.get("imagePullPolicy").asString()).isEqualTo("Always");
        assertThat(c.at("/securityContext/runAsUser").asInt()).isEqualTo(1000);
        assertThat(c.at("/env/0/name").asString()).isEqualTo("TLS");
        assertThat(c.at("/volumeMounts/0/name").asString()).isEqualTo("certs");
        assertThat(c.at("/resources/limits/cpu").asString()).isEqualTo("200m");
        String script = c.at("/args/0").asString();
        assertThat(script).startsWith("\n\t\t\t\t\tSECONDS=0\n\t\t\t\t\twhile true; do\n")
                .contains("\t\t\t\t\t\t\tif ray health-check --address demo-head-svc.default.svc.cluster.local:6380 "
                        + "> /dev/null 2>&1; then\n")
                .endsWith("\t\t\t\t\t\tsleep 5\n\t\t\t\t\tdone\n\t\t\t\t");
    }
}
