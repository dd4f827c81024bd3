package io.kuberaysim.controller.ray.job;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.api.ray.RayJob;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The submitter Job {@code kubectl get job <rayjob> -o yaml} shows, per RayJob spec, as KubeRay's common/job.go
 * {@code BuildJobSubmitCommand} (K8sJobMode: status check, {@code --no-wait}, flags only when set, entrypoint
 * trimmed after {@code --}, then {@code ray job logs --follow}) and {@code GetSubmitterTemplate} / rayjob_controller.go
 * {@code createNewK8sJob} (backoffLimit 2 unless submitterConfig says otherwise) build it.
 */
class SubmitterJobFactoryTableTest {
    private static final String URL = "example-head-svc.default.svc.cluster.local:8265";
    private static final String ADDRESS = "http://" + URL;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            # case                    | spec fields (YAML flow)                                     | shell command contains
            plain entrypoint          | {entrypoint: python x.py}                                    | ray job submit --address ADDR --no-wait --submission-id job-1 -- python x.py ; fi ; ray job logs --address ADDR --follow job-1
            entrypoint trimmed        | {entrypoint: '  python x.py  '}                              | -- python x.py ; fi
            status check first        | {entrypoint: python x.py}                                    | if ! ray job status --address ADDR job-1 >/dev/null 2>&1 ; then ray job submit
            waits for GCS health      | {entrypoint: python x.py}                                    | until python -c "import urllib.request; r=urllib.request.urlopen('ADDR/api/gcs_healthz', timeout=10); exit(0 if b'success' in r.read() else 1)" >/dev/null 2>&1 ; do echo "Waiting for Ray Dashboard GCS to become healthy at ADDR ..." ; sleep 2 ; done ;
            entrypoint CPUs as %f     | {entrypoint: python x.py, entrypointNumCpus: 1.5}            | --submission-id job-1 --entrypoint-num-cpus 1.500000 --
            zero CPUs left out        | {entrypoint: python x.py, entrypointNumCpus: 0}              | --submission-id job-1 --
            GPUs as %f                | {entrypoint: python x.py, entrypointNumGpus: 2}              | --entrypoint-num-gpus 2.000000 --
            metadata as quoted JSON   | {entrypoint: python x.py, metadata: {owner: ann}}            | --metadata-json "{\\"owner\\":\\"ann\\"}" --submission-id job-1
            runtime env as JSON       | {entrypoint: python x.py, runtimeEnvYAML: 'pip: [requests]'} | --no-wait --runtime-env-json "{\\"pip\\":[\\"requests\\"]}" --submission-id
            entrypoint resources      | {entrypoint: python x.py, entrypointResources: '{"r": 1}'}   | --entrypoint-resources "{\\"r\\": 1}" --
            """)
    void submitterCommandAsBuildJobSubmitCommand(String name, String spec, String expected) {
        ObjectNode job = SubmitterJobFactory.build(rayJob(spec), typed(spec), "rayproject/ray:2.46.0", URL, "job-1",
                null);

        JsonNode container = job.at("/spec/template/spec/containers/0");
        assertThat(container.at("/command").toString()).isEqualTo("[\"/bin/bash\",\"-ce\",\"--\"]");
        assertThat(container.at("/args/0").asString()).contains(expected.replace("ADDR", ADDRESS));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            # case                    | spec fields (YAML flow)                                                   | backoffLimit | restartPolicy | container name
            default template          | {entrypoint: python x.py}                                                  | 2            | Never         | ray-job-submitter
            submitterConfig           | {entrypoint: python x.py, submitterConfig: {backoffLimit: 0}}              | 0            | Never         | ray-job-submitter
            user template kept as is  | {entrypoint: python x.py, submitterPodTemplate: {spec: {containers: [{name: mine, image: img}]}}} | 2 | <none> | mine
            """)
    void submitterJobAsCreateNewK8sJob(String name, String spec, int backoffLimit, String restartPolicy,
            String containerName) {
        ObjectNode job = SubmitterJobFactory.build(rayJob(spec), typed(spec), "rayproject/ray:2.46.0", URL, "job-1",
                null);

        assertThat(job.at("/metadata/name").asString()).isEqualTo("example-job");
        assertThat(job.at("/metadata/labels/ray.io~1originated-from-crd").asString()).isEqualTo("RayJob");
        assertThat(job.at("/spec/backoffLimit").asInt()).isEqualTo(backoffLimit);
        JsonNode policy = job.at("/spec/template/spec/restartPolicy");
        assertThat(policy.isMissingNode() ? "<none>" : policy.asString()).isEqualTo(restartPolicy);
        assertThat(job.at("/spec/template/spec/containers/0/name").asString()).isEqualTo(containerName);
        assertThat(SubmitterJobFactory.env(job.at("/spec/template/spec"), "RAY_JOB_SUBMISSION_ID")).isEqualTo("job-1");
        assertThat(SubmitterJobFactory.env(job.at("/spec/template/spec"), "RAY_DASHBOARD_ADDRESS")).isEqualTo(URL);
    }

    private static StoredObject rayJob(String spec) {
        return StoredObject.unstored(ResourceTypes.RAYJOBS, (ObjectNode) Json.YAML.readTree("""
                apiVersion: ray.io/v1
                kind: RayJob
                metadata: {name: example-job, namespace: default, uid: u-1}
                spec: %s
                """.formatted(spec)));
    }

    private static io.kuberaysim.api.ray.RayJobSpec typed(String spec) {
        return KubeClient.read(rayJob(spec).object(), RayJob.class).spec();
    }
}
