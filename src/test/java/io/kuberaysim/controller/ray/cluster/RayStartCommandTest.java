package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.api.Json;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Pins KubeRay's common/pod.go generateRayStartCommand, updateRayStartParamsResources and convertParamMap. */
class RayStartCommandTest {

    static Stream<Arguments> acceleratorCases() {
        // the cases of KubeRay's common/pod_test.go TestGenerateRayStartCommand
        return Stream.of(
                Arguments.of(false, Map.of(), "{\"nvidia.com/gpu\":\"1\"}", "ray start  --num-gpus=1 "),
                Arguments.of(false, Map.of(), "{\"nvidia.com/mig-2g.32gb\":\"1\"}", "ray start  --num-gpus=1 "),
                Arguments.of(false, Map.of(), "{\"google.com/tpu\":\"4\"}", "ray start  --resources='{\"TPU\":4}' "),
                Arguments.of(true, Map.of(), "{\"aws.amazon.com/neuroncore\":\"4\"}",
                        "ray start --head  --resources='{\"neuron_cores\":4}' "),
                Arguments.of(true, Map.of(), "{\"aws.amazon.com/neuroncore\":\"4\",\"nvidia.com/gpu\":\"1\"}",
                        "ray start --head  --num-gpus=1  --resources='{\"neuron_cores\":4}' "),
                Arguments.of(true, Map.of(), "{\"google.com/tpu\":\"8\",\"aws.amazon.com/neuroncore\":\"4\","
                        + "\"nvidia.com/gpu\":\"1\"}", "ray start --head  --num-gpus=1  --resources='{\"neuron_cores\":4}' "),
                Arguments.of(true, Map.of("resources", "\"{\"custom_resource\":2}\""),
                        "{\"aws.amazon.com/neuroncore\":\"4\"}",
                        "ray start --head  --resources='{\"custom_resource\":2,\"neuron_cores\":4}' "),
                Arguments.of(true, Map.of("resources", "'{\"custom_resource\":2,\"neuron_cores\":3}'"),
                        "{\"aws.amazon.com/neuroncore\":\"4\"}",
                        "ray start --head  --resources='{\"custom_resource\":2,\"neuron_cores\":3}' "),
                Arguments.of(true, Map.of("resources", "'{\"custom_resource\":2,\"TPU\":4}'"),
                        "{\"google.com/tpu\":\"8\"}",
                        "ray start --head  --resources='{\"custom_resource\":2,\"TPU\":4}' "),
                Arguments.of(true, Map.of("resources", "{"), "{\"aws.amazon.com/neuroncore\":\"4\"}",
                        "ray start --head  --resources={ "));
    }

    @ParameterizedTest
    @MethodSource("acceleratorCases")
    void generateRayStartCommandAsKubeRay(boolean head, Map<String, String> params, String limits, String expected) {
        var resources = Json.object();
        resources.set("limits", Json.MAPPER.readTree(limits));
        assertThat(RayStartCommand.generate(head, new HashMap<>(params), resources)).isEqualTo(expected);
    }

    // common/pod_test.go TestBuildPod: head with 1 CPU / 1Gi limits
    @Test
    void headCommandHasKubeRaysFlagsAndSpacing() {
        var resources = Json.MAPPER.readTree("{\"limits\":{\"cpu\":\"1\",\"memory\":\"1Gi\"},"
                + "\"requests\":{\"cpu\":\"500m\"}}");
        RayStartCommand head = RayStartCommand.of(true, Map.of("block", "false"), null, null, resources, null,
                false);
        assertThat(head.command()).isEqualTo("ray start --head  --block  --dashboard-agent-listen-port=52365 "
                + " --dashboard-host=0.0.0.0  --memory=1073741824  --metrics-export-port=8080  --num-cpus=1 ");
    }

    // common/pod.go updateRayStartParamsResources: names compared in lower case, quantities converted
    @Test
    void groupResourcesOverrideParamsWithConvertedQuantities() {
        Map<String, String> group = new java.util.LinkedHashMap<>();
        group.put("CPU", "500m");
        group.put("Memory", "2Gi");
        group.put("nvidia.com/GPU", "2");
        group.put("Custom", "1.5");
        group.put("bad", "x-y");
        RayStartCommand worker = RayStartCommand.of(false, Map.of("num-cpus", "8"), group, Map.of("b", "2", "a", "1"),
                null, "c-head-svc.default.svc.cluster.local:6379", false);
        assertThat(worker.params()).containsEntry("num-cpus", "1").containsEntry("memory", "2147483648")
                .containsEntry("num-gpus", "2").containsEntry("resources", "'{\"Custom\":1.5}'")
                .containsEntry("labels", "a=1,b=2").containsEntry("block", "true")
                .containsEntry("address", "c-head-svc.default.svc.cluster.local:6379");
    }

    @Test
    void autoscalingHeadGetsNoMonitorAndTriStateFlagsKeepFalse() {
        RayStartCommand head = RayStartCommand.of(true, Map.of("include-dashboard", "false", "disable-usage-stats",
                "false"), null, null, null, null, true);
        assertThat(head.command()).contains(" --include-dashboard=false ", " --no-monitor ")
                .doesNotContain("disable-usage-stats");
    }

    @Test
    void goJsonFloats() {
        assertThat(RayStartCommand.goFloat(4)).isEqualTo("4");
        assertThat(RayStartCommand.goFloat(0.5)).isEqualTo("0.5");
        assertThat(RayStartCommand.goFloat(1073741824)).isEqualTo("1073741824");
        assertThat(RayStartCommand.goFloat(1e21)).isEqualTo("1e+21");
        assertThat(RayStartCommand.goFloat(1e-7)).isEqualTo("1e-07");
    }
}
