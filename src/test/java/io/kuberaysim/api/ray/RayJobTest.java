package io.kuberaysim.api.ray;

import static org.assertj.core.api.Assertions.assertThat;

import io.kuberaysim.api.schema.FieldError;
import io.kuberaysim.api.schema.StructuralValidator;
import io.kuberaysim.api.schema.ValidationResult;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

class RayJobTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final YAMLMapper YAML = YAMLMapper.builder().build();

    private static final String MANIFEST = """
            apiVersion: ray.io/v1
            kind: RayJob
            metadata:
              name: demo-rayjob
            spec:
              entrypoint: python /home/ray/samples/sample_code.py
              runtimeEnvYAML: |
                env_vars:
                  counter_name: "test_counter"
              shutdownAfterJobFinishes: true
              entrypointNumCpus: 0.5
              deletionStrategy:
                deletionRules:
                - policy: DeleteWorkers
                  condition: {jobStatus: FAILED}
                - policy: DeleteSelf
                  condition: {jobStatus: SUCCEEDED, ttlSeconds: 30}
              submitterPodTemplate:
                spec:
                  restartPolicy: Never
                  containers: [{name: submitter, image: rayproject/ray:2.9.0}]
              rayClusterSpec:
                rayVersion: "2.9.0"
                headGroupSpec:
                  rayStartParams: {}
                  template:
                    spec:
                      containers: [{name: ray-head, image: rayproject/ray:2.9.0}]
            status:
              jobDeploymentStatus: Running
              startTime: "2026-01-02T03:04:05Z"
            """;

    private static ObjectNode manifest() {
        return (ObjectNode) YAML.readTree(MANIFEST);
    }

    @Test
    void appliesRayJobCrdDefaults() {
        ValidationResult result = StructuralValidator.validate(manifest(), RayJob.schema());

        assertThat(result.errors()).isEmpty();
        assertThat(result.unknownFields()).isEmpty();
        JsonNode spec = result.value().get("spec");
        assertThat(spec.get("submissionMode").asString()).isEqualTo("K8sJobMode");
        assertThat(spec.get("backoffLimit").asInt()).isZero();
        assertThat(spec.get("ttlSecondsAfterFinished").asInt()).isZero();
        assertThat(spec.at("/deletionStrategy/deletionRules/0/condition/ttlSeconds").asInt()).isZero();
        assertThat(spec.at("/deletionStrategy/deletionRules/1/condition/ttlSeconds").asInt()).isEqualTo(30);
        assertThat(spec.at("/rayClusterSpec/headGroupSpec/rayStartParams").isObject()).isTrue();
        assertThat(result.value().at("/status/succeeded").asInt()).isZero();
        assertThat(result.value().at("/status/failed").asInt()).isZero();
    }

    @Test
    void roundTripsThroughTheRecordsLosslessly() {
        JsonNode defaulted = StructuralValidator.validate(manifest(), RayJob.schema()).value();

        RayJob job = JSON.treeToValue(defaulted, RayJob.class);

        assertThat((JsonNode) JSON.valueToTree(job)).isEqualTo(defaulted);
        assertThat(job.spec().submissionModeOrDefault()).isEqualTo(JobSubmissionMode.K8sJobMode);
        assertThat(job.spec().shutsDownAfterJobFinishes()).isTrue();
        assertThat(job.spec().entrypointNumCpus()).isEqualTo(0.5);
        assertThat(job.spec().deletionStrategy().deletionRules().get(1).policy())
                .isEqualTo(DeletionPolicyType.DeleteSelf);
        assertThat(job.status().jobDeploymentStatus()).isEqualTo(JobDeploymentStatus.RUNNING);
        assertThat(job.status().startTime()).hasToString("2026-01-02T03:04:05Z");
    }

    @Test
    void rejectsUnknownEnumValues() {
        ObjectNode body = manifest();
        ((ObjectNode) body.get("spec")).put("submissionMode", "CronMode");
        ((ObjectNode) body.at("/spec/deletionStrategy/deletionRules/0")).put("policy", "DeleteAll");

        ValidationResult result = StructuralValidator.validate(body, RayJob.schema());

        assertThat(result.errors()).containsExactlyInAnyOrder(
                new FieldError("spec.submissionMode", "FieldValueNotSupported", "Unsupported value: \"CronMode\": "
                        + "supported values: \"K8sJobMode\", \"HTTPMode\", \"InteractiveMode\", \"SidecarMode\""),
                new FieldError("spec.deletionStrategy.deletionRules[0].policy", "FieldValueNotSupported",
                        "Unsupported value: \"DeleteAll\": supported values: \"DeleteCluster\", \"DeleteWorkers\", "
                                + "\"DeleteSelf\", \"DeleteNone\""));
    }

    @Test
    void rejectsNegativeBackoffLimitAndMissingRuleCondition() {
        ObjectNode body = manifest();
        ((ObjectNode) body.get("spec")).put("backoffLimit", -1);
        ((ObjectNode) body.at("/spec/deletionStrategy/deletionRules/0")).remove("condition");

        assertThat(StructuralValidator.validate(body, RayJob.schema()).errors()).extracting(FieldError::describe)
                .containsExactly("spec.deletionStrategy.deletionRules[0].condition: Required value",
                        "spec.backoffLimit: Invalid value: -1: spec.backoffLimit in body should be greater than "
                                + "or equal to 0");
    }

    @Test
    void terminalStatusHelpers() {
        assertThat(JobStatus.isTerminal(JobStatus.SUCCEEDED)).isTrue();
        assertThat(JobStatus.isTerminal(JobStatus.RUNNING)).isFalse();
        assertThat(JobStatus.isTerminal(null)).isFalse();
        assertThat(JobDeploymentStatus.isTerminal(JobDeploymentStatus.FAILED)).isTrue();
        assertThat(JobDeploymentStatus.isTerminal(JobDeploymentStatus.RETRYING)).isFalse();
    }
}
