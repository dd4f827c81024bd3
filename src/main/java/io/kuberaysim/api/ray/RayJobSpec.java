package io.kuberaysim.api.ray;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.kuberaysim.api.schema.Default;
import io.kuberaysim.api.schema.Description;
import io.kuberaysim.api.schema.Minimum;
import io.kuberaysim.api.schema.PreserveUnknownFields;
import tools.jackson.databind.node.ObjectNode;

/**
 * Desired state of a RayJob (KubeRay {@code RayJobSpec}).
 *
 * @param entrypoint                command of the Ray job
 * @param runtimeEnvYAML            runtime environment as YAML
 * @param jobId                     submission id
 * @param metadata                  job metadata
 * @param entrypointNumCpus         CPUs reserved for the entrypoint
 * @param entrypointNumGpus         GPUs reserved for the entrypoint
 * @param entrypointResources       custom resources reserved for the entrypoint, as JSON
 * @param rayClusterSpec            cluster to create for the job
 * @param clusterSelector           existing cluster to use instead
 * @param submissionMode            how the job is submitted
 * @param submitterPodTemplate      Pod template of the submitter, kept verbatim
 * @param submitterConfig           submitter settings
 * @param shutdownAfterJobFinishes  delete the cluster when the job ends
 * @param ttlSecondsAfterFinished   delay before that deletion
 * @param activeDeadlineSeconds     maximum run time
 * @param preRunningDeadlineSeconds maximum time to reach Running
 * @param backoffLimit              retries, each on a new cluster
 * @param suspend                   keep the job from running
 * @param deletionStrategy          clean-up after the job ends
 * @param managedBy                 controller responsible for this job
 */
@Description("Desired state of a RayJob: a Ray job and the cluster it runs on.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record RayJobSpec(
        @Description("Command that starts the Ray job; passed to 'ray job submit' after '--'.")
        String entrypoint,
        @Description("Runtime environment of the job as a multi-line YAML string.")
        String runtimeEnvYAML,
        @Description("Submission id of the Ray job; generated when empty.")
        String jobId,
        @Description("Metadata stored with the Ray job.")
        Map<String, String> metadata,
        @Description("Number of CPUs reserved for the entrypoint command.")
        Double entrypointNumCpus,
        @Description("Number of GPUs reserved for the entrypoint command.")
        Double entrypointNumGpus,
        @Description("Custom resources reserved for the entrypoint command, as a JSON string.")
        String entrypointResources,
        @Description("Spec of the RayCluster the operator creates for this job. Either this or clusterSelector "
                + "is required.")
        RayClusterSpec rayClusterSpec,
        @Description("Labels selecting an existing RayCluster to run on (ray.io/cluster: <name>); such a "
                + "cluster is never deleted by the job.")
        Map<String, String> clusterSelector,
        @Default("\"K8sJobMode\"")
        @Description("How the job is submitted: K8sJobMode (a Kubernetes Job runs 'ray job submit'), HTTPMode "
                + "(the operator calls the dashboard), InteractiveMode (the user submits) or SidecarMode "
                + "(a container in the head Pod submits).")
        JobSubmissionMode submissionMode,
        @PreserveUnknownFields
        @Description("Pod template of the submitter Job (K8sJobMode only).")
        ObjectNode submitterPodTemplate,
        @Description("Configuration of the submitter.")
        SubmitterConfig submitterConfig,
        @Description("When true, the RayCluster is deleted once the job finishes.")
        Boolean shutdownAfterJobFinishes,
        @Default("0")
        @Minimum(0)
        @Description("Seconds to wait after the job finished before cleaning up; needs "
                + "shutdownAfterJobFinishes when positive.")
        Integer ttlSecondsAfterFinished,
        @Description("Seconds the job may stay active, counted from status.startTime, before it is failed "
                + "with DeadlineExceeded. Must be positive.")
        Integer activeDeadlineSeconds,
        @Description("Seconds the job may take to reach Running before it is failed with "
                + "PreRunningDeadlineExceeded.")
        Integer preRunningDeadlineSeconds,
        @Default("0")
        @Minimum(0)
        @Description("Number of retries before the RayJob is marked failed; each retry creates a new "
                + "RayCluster.")
        Integer backoffLimit,
        @Description("When true, no RayCluster is created and an existing one is deleted; setting it back to "
                + "false starts over. Requires shutdownAfterJobFinishes.")
        Boolean suspend,
        @Description("Which resources are deleted after the job finishes, and when.")
        DeletionStrategy deletionStrategy,
        @Description("Controller that manages this job: 'ray.io/kuberay-operator' or "
                + "'kueue.x-k8s.io/multikueue'. Immutable.")
        String managedBy) {

    /** The submission mode, K8sJobMode when absent. */
    public JobSubmissionMode submissionModeOrDefault() {
        return submissionMode == null ? JobSubmissionMode.K8sJobMode : submissionMode;
    }

    /** Whether {@code shutdownAfterJobFinishes} is true. */
    public boolean shutsDownAfterJobFinishes() {
        return Boolean.TRUE.equals(shutdownAfterJobFinishes);
    }

    /** Whether {@code suspend} is true. */
    public boolean suspended() {
        return Boolean.TRUE.equals(suspend);
    }
}
