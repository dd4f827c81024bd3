package io.kuberaysim.api.ray;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.Quantity;
import io.kuberaysim.api.schema.FieldError;
import io.kuberaysim.api.schema.Schema;
import io.kuberaysim.api.schema.StructuralValidator;
import io.kuberaysim.api.schema.ValidationResult;
import io.kuberaysim.testing.SeedManifests;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

class RayClusterTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final YAMLMapper YAML = YAMLMapper.builder().build();

    static ObjectNode seed() {
        return (ObjectNode) YAML.readTree(SeedManifests.demoRayCluster());
    }

    @Test
    void seedManifestValidatesAndGetsCrdDefaults() {
        ValidationResult result = StructuralValidator.validate(seed(), RayCluster.schema());

        assertThat(result.errors()).isEmpty();
        assertThat(result.unknownFields()).isEmpty();
        JsonNode worker = result.value().at("/spec/workerGroupSpecs/0");
        assertThat(worker.get("replicas").asInt()).isEqualTo(2);
        assertThat(worker.get("minReplicas").asInt()).isEqualTo(1);
        assertThat(worker.get("maxReplicas").asInt()).isEqualTo(4);
        assertThat(worker.get("numOfHosts").asInt()).isEqualTo(1);
        assertThat(worker.get("priority").asInt()).isZero();
    }

    @Test
    void absentReplicaFieldsAreDefaultedFromTheCrd() {
        ObjectNode body = seed();
        ObjectNode worker = (ObjectNode) body.at("/spec/workerGroupSpecs/0");
        worker.remove(List.of("replicas", "minReplicas", "maxReplicas"));

        JsonNode defaulted = StructuralValidator.validate(body, RayCluster.schema()).value()
                .at("/spec/workerGroupSpecs/0");

        assertThat(defaulted.get("replicas").asInt()).isZero();
        assertThat(defaulted.get("minReplicas").asInt()).isZero();
        assertThat(defaulted.get("maxReplicas").asInt()).isEqualTo(Integer.MAX_VALUE);
        assertThat(defaulted.get("numOfHosts").asInt()).isEqualTo(1);
    }

    @Test
    void roundTripsThroughTheRecordsLosslessly() {
        JsonNode defaulted = StructuralValidator.validate(seed(), RayCluster.schema()).value();

        RayCluster cluster = JSON.treeToValue(defaulted, RayCluster.class);
        JsonNode back = JSON.valueToTree(cluster);

        assertThat(back).isEqualTo(defaulted);
        assertThat(cluster.spec().workerGroups()).hasSize(1);
        WorkerGroupSpec group = cluster.spec().workerGroups().get(0);
        assertThat(group.groupName()).isEqualTo("small-wg");
        assertThat(group.rayStartParams()).containsEntry("num-cpus", "2");
        assertThat(group.template().at("/spec/containers/0/name").asString()).isEqualTo("ray-worker");
        assertThat(cluster.metadata().get("name").asString()).isEqualTo("demo-raycluster");
    }

    @Test
    void unknownSpecFieldIsReportedAndPruned() {
        ObjectNode body = seed();
        ((ObjectNode) body.get("spec")).put("foo", "bar");
        ((ObjectNode) body.at("/spec/workerGroupSpecs/0")).put("bar", 1);

        ValidationResult result = StructuralValidator.validate(body, RayCluster.schema());

        assertThat(result.unknownFields()).containsExactly("spec.foo", "spec.workerGroupSpecs[0].bar");
        assertThat(result.value().get("spec").has("foo")).isFalse();
        assertThat(result.errors()).isEmpty();
    }

    @Test
    void stringReplicasAreRejectedWithTheApiserverMessage() {
        ObjectNode body = seed();
        ((ObjectNode) body.at("/spec/workerGroupSpecs/0")).put("replicas", "two");

        ValidationResult result = StructuralValidator.validate(body, RayCluster.schema());

        assertThat(result.errors()).containsExactly(new FieldError("spec.workerGroupSpecs[0].replicas",
                "FieldValueInvalid", "Invalid value: \"string\": spec.workerGroupSpecs[0].replicas in body must be "
                        + "of type integer: \"string\""));
    }

    @Test
    void numericRayStartParamsAndMissingTemplateAreRejected() {
        ObjectNode body = seed();
        ((ObjectNode) body.at("/spec/headGroupSpec/rayStartParams")).put("num-cpus", 0);
        ((ObjectNode) body.at("/spec/workerGroupSpecs/0")).remove("template");

        ValidationResult result = StructuralValidator.validate(body, RayCluster.schema());

        assertThat(result.errors()).extracting(FieldError::describe).containsExactly(
                "spec.headGroupSpec.rayStartParams.num-cpus: Invalid value: \"integer\": "
                        + "spec.headGroupSpec.rayStartParams.num-cpus in body must be of type string: \"integer\"",
                "spec.workerGroupSpecs[0].template: Required value");
    }

    @Test
    void missingHeadGroupSpecIsRequired() {
        ObjectNode body = seed();
        ((ObjectNode) body.get("spec")).remove("headGroupSpec");

        assertThat(StructuralValidator.validate(body, RayCluster.schema()).errors())
                .containsExactly(new FieldError("spec.headGroupSpec", "FieldValueRequired", "Required value"));
    }

    @Test
    void statusRoundTripsWithQuantitiesTimesAndConditions() {
        RayClusterStatus status = new RayClusterStatus(ClusterState.READY, null, new Quantity("5"),
                new Quantity("10Gi"), new Quantity("0"), null, 2, 2, 2, 1, 4, Map.of("dashboard", "8265"),
                new HeadInfo("10.0.0.1", "demo-head-abc", "10.0.0.1", "demo-head-svc"),
                Instant.parse("2026-01-02T03:04:05Z"), Map.of(ClusterState.READY, Instant.parse("2026-01-02T03:04:05Z")),
                3L, List.of(new Condition(RayClusterConditions.HEAD_POD_READY, Condition.Status.True, 3L,
                        Instant.parse("2026-01-02T03:04:00Z"), RayClusterConditions.HEAD_POD_RUNNING_AND_READY, "")));

        JsonNode tree = JSON.valueToTree(status);

        assertThat(tree.get("desiredCPU").asString()).isEqualTo("5");
        assertThat(tree.get("desiredMemory").asString()).isEqualTo("10Gi");
        assertThat(tree.get("lastUpdateTime").asString()).isEqualTo("2026-01-02T03:04:05Z");
        assertThat(tree.at("/conditions/0/status").asString()).isEqualTo("True");
        Schema statusSchema = RayCluster.schema().properties().get("status");
        assertThat(StructuralValidator.validate(tree, statusSchema).errors()).isEmpty();
        assertThat(JSON.treeToValue(tree, RayClusterStatus.class)).isEqualTo(status);
        assertThat(status.condition(RayClusterConditions.HEAD_POD_READY).isTrue()).isTrue();
    }

    @Test
    void explainFindsDescriptionsOfWorkerGroups() {
        Schema workers = RayCluster.schema().at("spec.workerGroupSpecs");

        assertThat(workers.type()).isEqualTo(Schema.Type.ARRAY);
        assertThat(workers.description()).isNotBlank();
        assertThat(workers.items().properties().get("maxReplicas").defaultValue().asInt())
                .isEqualTo(Integer.MAX_VALUE);
        assertThat(RayCluster.schema().toOpenApi(JSON).at("/properties/spec/required/0").asString())
                .isEqualTo("headGroupSpec");
    }
}
