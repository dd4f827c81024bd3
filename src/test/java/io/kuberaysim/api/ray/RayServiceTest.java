package io.kuberaysim.api.ray;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import io.kuberaysim.api.schema.FieldError;
import io.kuberaysim.api.schema.StructuralValidator;
import io.kuberaysim.api.schema.ValidationResult;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

class RayServiceTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final YAMLMapper YAML = YAMLMapper.builder().build();

    private static final String MANIFEST = """
            apiVersion: ray.io/v1
            kind: RayService
            metadata:
              name: demo-rayservice
            spec:
              serveConfigV2: |
                applications:
                - name: fruit_app
                  import_path: fruit.deployment_graph
              upgradeStrategy:
                type: NewClusterWithIncrementalUpgrade
                clusterUpgradeOptions: {stepSizePercent: 10, intervalSeconds: 30, gatewayClassName: istio}
              rayClusterConfig:
                headGroupSpec:
                  template:
                    spec:
                      containers: [{name: ray-head, image: rayproject/ray:2.9.0}]
                workerGroupSpecs:
                - groupName: wg
                  template: {spec: {containers: [{name: w, image: rayproject/ray:2.9.0}]}}
            status:
              serviceStatus: Running
              numServeEndpoints: 2
              activeServiceStatus:
                rayClusterName: demo-rayservice-raycluster-abcde
                applicationStatuses:
                  fruit_app:
                    status: RUNNING
                    serveDeploymentStatuses:
                      FruitMarket: {status: HEALTHY}
              conditions:
              - type: Ready
                status: "True"
                reason: NonZeroServeEndpoints
                message: ""
                lastTransitionTime: "2026-01-02T03:04:05Z"
            """;

    private static ObjectNode manifest() {
        return (ObjectNode) YAML.readTree(MANIFEST);
    }

    @Test
    void validatesAndDefaultsNestedClusterConfig() {
        ValidationResult result = StructuralValidator.validate(manifest(), RayService.schema());

        assertThat(result.errors()).isEmpty();
        assertThat(result.unknownFields()).isEmpty();
        JsonNode group = result.value().at("/spec/rayClusterConfig/workerGroupSpecs/0");
        assertThat(group.get("replicas").asInt()).isZero();
        assertThat(group.get("maxReplicas").asInt()).isEqualTo(Integer.MAX_VALUE);
        assertThat(result.value().at("/spec/upgradeStrategy/clusterUpgradeOptions/maxSurgePercent").asInt())
                .isEqualTo(100);
    }

    @Test
    void roundTripsStatusWithApplicationsAndConditions() {
        JsonNode defaulted = StructuralValidator.validate(manifest(), RayService.schema()).value();

        RayService service = JSON.treeToValue(defaulted, RayService.class);

        assertThat((JsonNode) JSON.valueToTree(service)).isEqualTo(defaulted);
        RayServiceStatuses status = service.status();
        assertThat(status.numServeEndpoints()).isEqualTo(2);
        assertThat(status.condition(RayServiceConditions.READY).isTrue()).isTrue();
        assertThat(status.activeServiceStatus().applicationStatuses())
                .containsOnlyKeys("fruit_app")
                .extractingByKey("fruit_app").extracting(AppStatus::serveDeploymentStatuses)
                .isEqualTo(Map.of("FruitMarket", new ServeDeploymentStatus(ServeDeploymentStatus.HEALTHY, null, null)));
        assertThat(service.spec().upgradeStrategy().type())
                .isEqualTo(RayServiceUpgradeStrategy.Type.NewClusterWithIncrementalUpgrade);
    }

    @Test
    void reportsMissingClusterConfigAndBadConditionStatus() {
        ObjectNode body = manifest();
        ((ObjectNode) body.get("spec")).remove("rayClusterConfig");
        ((ObjectNode) body.at("/status/conditions/0")).put("status", "Yes");

        ValidationResult result = StructuralValidator.validate(body, RayService.schema());

        assertThat(result.errors()).extracting(FieldError::field)
                .containsExactly("spec.rayClusterConfig", "status.conditions[0].status");
    }

    @Test
    void schemasAreReachableByKindAndResource() {
        assertThat(RaySchemas.forKindOrResource("rayservices")).isSameAs(RayService.schema());
        assertThat(RaySchemas.forKindOrResource("RayJob")).isSameAs(RayJob.schema());
        assertThat(RaySchemas.forKindOrResource("pods")).isNull();
        assertThat(RaySchemas.byKind()).containsOnlyKeys("RayCluster", "RayJob", "RayService");
    }

    @Test
    void publishesOpenApiComponentsTaggedWithTheirKind() {
        ObjectNode components = RaySchemas.openApiComponents(JSON);

        assertThat(components.propertyNames()).containsExactly("io.ray.v1.RayCluster", "io.ray.v1.RayJob",
                "io.ray.v1.RayService");
        JsonNode job = components.get("io.ray.v1.RayJob");
        assertThat(job.at("/x-kubernetes-group-version-kind/0/kind").asString()).isEqualTo("RayJob");
        assertThat(job.at("/x-kubernetes-group-version-kind/0/group").asString()).isEqualTo("ray.io");
        assertThat(job.at("/properties/spec/properties/submissionMode/default").asString()).isEqualTo("K8sJobMode");
        assertThat(job.at("/properties/spec/properties/submitterPodTemplate/x-kubernetes-preserve-unknown-fields")
                .asBoolean()).isTrue();
        assertThat(job.at("/properties/status/properties/rayClusterStatus/properties/desiredCPU/"
                + "x-kubernetes-int-or-string").asBoolean()).isTrue();
    }
}
