package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ray.RayCluster;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.ray.ValidationFailure;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Pins rules of KubeRay's utils/validation.go ValidateRayClusterSpec. */
class RayClusterValidationTest {
    static final String BASE = """
            apiVersion: ray.io/v1
            kind: RayCluster
            metadata: {name: demo}
            spec:
              rayVersion: "%s"
              enableInTreeAutoscaling: %s
              headGroupSpec:
                rayStartParams: {}
                template: {spec: {containers: [{name: ray-head, image: ray, env: %s}]}}
              workerGroupSpecs:
              - {groupName: g, minReplicas: 0, maxReplicas: 2, %s template: {spec: {containers: [{name: w, image: ray}]}}}
            """;

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "2.9.0|false|[]|idleTimeoutSeconds: 10,|worker group g: idleTimeoutSeconds is set, but autoscaler v2 is not enabled. Please set .spec.autoscalerOptions.version to 'v2' (or set RAY_enable_autoscaler_v2 environment variable to 'true' in the head pod if using KubeRay < 1.4.0)",
        "2.9.0|false|[]|priority: 3,|worker group g: priority is set, but minimum Ray version is 2.56.0, got 2.9.0",
        "latest|false|[]|priority: 3,|worker group g: priority is set, but RayVersion format is invalid: latest, could not parse \"latest\" as version",
        "2.9.0|false|[{name: RAY_enable_autoscaler_v2, value: 'true'}]||environment variable RAY_enable_autoscaler_v2 cannot be set to 'true' when enableInTreeAutoscaling is false. Please set enableInTreeAutoscaling: true to use autoscaler v2",
        "2.9.0|false|[{name: RAY_REDIS_ADDRESS, value: 'redis:6379'}]||RAY_REDIS_ADDRESS is set which implicitly enables GCS fault tolerance, but GcsFaultToleranceOptions is not set. Please set GcsFaultToleranceOptions to enable GCS fault tolerance",
        "2.9.0|false|[{name: REDIS_USERNAME, value: u}]||cannot set redis username in rayStartParams or environment variables - use GcsFaultToleranceOptions.RedisUsername instead",
    })
    void firstFailingRuleWithKubeRaysMessage(String rayVersion, boolean autoscaling, String env, String group,
                                             String message) {
        RayCluster rc = KubeClient.read(Json.YAML.readTree(BASE.formatted(rayVersion, autoscaling, env,
                group == null ? "" : group)), RayCluster.class);
        ValidationFailure f = RayClusterValidation.validate("demo", rc.spec(), Map.of(), null);
        assertThat(f).isNotNull();
        assertThat(f.message()).isEqualTo(message);
    }
}
