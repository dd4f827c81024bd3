package io.kuberaysim.controller.ray.job;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ray.RayJob;
import io.kuberaysim.api.ray.RayJobSpec;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.ray.RayLabels;
import io.kuberaysim.controller.ray.cluster.TokenAuth;
import io.kuberaysim.controller.ray.dashboard.JobSubmission;
import io.kuberaysim.controller.runtime.ObjectSkeleton;
import io.kuberaysim.controller.runtime.OwnerReferences;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;


/**
 * Builds KubeRay's submitter for K8sJobMode: a batch/v1 Job named after the RayJob whose Pod runs
 * {@code ray job submit --no-wait ... ; ray job logs --follow} against the cluster's dashboard
 * ({@code createNewK8sJob}, {@code getSubmitterTemplate}, {@code BuildJobSubmitCommand} in KubeRay).
 */
public final class SubmitterJobFactory {

    /** Name of the submitter container in the default template. */
    public static final String CONTAINER_NAME = "ray-job-submitter";
    /** Default backoffLimit of the submitter Job. */
    public static final int DEFAULT_SUBMITTER_BACKOFF_LIMIT = 2;
    /** Env var with the dashboard address. */
    public static final String ENV_DASHBOARD_ADDRESS = "RAY_DASHBOARD_ADDRESS";
    /** Env var with the submission id. */
    public static final String ENV_SUBMISSION_ID = "RAY_JOB_SUBMISSION_ID";

    private SubmitterJobFactory() {
    }

    /**
     * The submitter Job.
     *
     * @param rayJob        the owning RayJob as stored (for the ownerReference)
     * @param spec          its spec
     * @param headImage     image of the head's Ray container, used by the default template
     * @param dashboardURL  status.dashboardURL ({@code host:port})
     * @param jobId         status.jobId
     * @param cluster       the RayCluster the job runs on (its token auth reaches the submitter)
     */
    public static ObjectNode build(StoredObject rayJob, RayJobSpec spec, String headImage, String dashboardURL,
                                   String jobId, StoredObject cluster) {
        ObjectNode job = ObjectSkeleton.of("batch/v1", "Job", rayJob.namespace(), rayJob.name());
        ObjectNode meta = ObjectSkeleton.metadata(job);
        ObjectNode labels = meta.putObject("labels");
        originLabels(labels, rayJob.name());
        labels.put(RayLabels.CREATED_BY, RayLabels.CREATED_BY_VALUE);
        meta.putArray("ownerReferences").add(OwnerReferences.controllerReference(rayJob));

        ObjectNode jobSpec = job.putObject("spec");
        int backoff = spec.submitterConfig() != null && spec.submitterConfig().backoffLimit() != null
                ? spec.submitterConfig().backoffLimit() : DEFAULT_SUBMITTER_BACKOFF_LIMIT;
        jobSpec.put("backoffLimit", backoff);
        ObjectNode template = template(rayJob.name(), spec, headImage, dashboardURL, jobId);
        JsonNode auth = cluster == null ? null : Json.at(cluster.object(), "spec", "authOptions");
        if (TokenAuth.enabled(auth)) {
            // configureSubmitterContainer's last step, then the token volume for Kubernetes tokens
            TokenAuth.configureContainer((ObjectNode) template.path("spec").path("containers").get(0), cluster.name(),
                    auth);
        }
        if (cluster != null && TokenAuth.kubernetesTokens(auth)) {
            TokenAuth.addTokenVolume((ObjectNode) template.get("spec"));
        }
        jobSpec.set("template", template);
        return job;
    }

    /** The submitter Pod template: the user's, or KubeRay's default, with the command, env and labels added. */
    static ObjectNode template(String rayJobName, RayJobSpec spec, String headImage, String dashboardURL,
                               String jobId) {
        ObjectNode template = spec.submitterPodTemplate() != null ? spec.submitterPodTemplate().deepCopy()
                : defaultTemplate(headImage);
        // GetSubmitterTemplate: only KubeRay's default template sets restartPolicy Never; a user's is used as given
        ObjectNode podSpec = Json.child(template, "spec");
        JsonNode containers = podSpec.get("containers");
        if (!(containers instanceof ArrayNode arr) || arr.isEmpty()) {
            podSpec.set("containers", Json.MAPPER.createArrayNode().add(defaultContainer(headImage)));
            containers = podSpec.get("containers");
        }
        ObjectNode container = (ObjectNode) containers.get(0);
        JsonNode command = container.get("command");
        if (command == null || !command.isArray() || command.isEmpty()) {
            ArrayNode cmd = container.putArray("command");
            cmd.add("/bin/bash").add("-ce").add("--");
            container.putArray("args").add(String.join(" ", submitCommand(spec, jobId, dashboardURL)));
        }
        ArrayNode env = container.get("env") instanceof ArrayNode e ? e : container.putArray("env");
        env.addObject().put("name", "PYTHONUNBUFFERED").put("value", "1");
        env.addObject().put("name", ENV_DASHBOARD_ADDRESS).put("value", dashboardURL);
        env.addObject().put("name", ENV_SUBMISSION_ID).put("value", jobId);
        ObjectNode meta = Json.child(template, "metadata");
        ObjectNode labels = Json.child(meta, "labels");
        originLabels(labels, rayJobName);
        labels.put(RayLabels.CREATED_BY, RayLabels.CREATED_BY_VALUE);
        return template;
    }

    private static ObjectNode defaultTemplate(String headImage) {
        ObjectNode t = Json.object();
        t.putObject("metadata");
        ObjectNode spec = t.putObject("spec");
        spec.put("restartPolicy", "Never");
        spec.putArray("containers").add(defaultContainer(headImage));
        return t;
    }

    private static ObjectNode defaultContainer(String headImage) {
        ObjectNode c = Json.object();
        c.put("name", CONTAINER_NAME);
        if (headImage != null) {
            c.put("image", headImage);
        }
        ObjectNode res = c.putObject("resources");
        res.putObject("requests").put("cpu", "500m").put("memory", "200Mi");
        res.putObject("limits").put("cpu", "1").put("memory", "1Gi");
        return c;
    }

    /**
     * The words of the submitter's shell command: wait for the dashboard's GCS health, submit unless the job exists,
     * then follow its logs until it ends.
     */
    public static List<String> submitCommand(RayJobSpec spec, String jobId, String dashboardURL) {
        String address = dashboardURL != null && dashboardURL.startsWith("http://") ? dashboardURL
                : "http://" + dashboardURL;
        List<String> cmd = new ArrayList<>();
        cmd.add("until");
        // utils.BasePythonHealthCommand with the URL and the 10 s timeout written in
        cmd.add("python -c \"import urllib.request; r=urllib.request.urlopen('" + address + "/api/gcs_healthz', "
                + "timeout=10); exit(0 if b'success' in r.read() else 1)\"");
        cmd.addAll(List.of(">/dev/null", "2>&1", ";", "do", "echo",
                goQuote("Waiting for Ray Dashboard GCS to become healthy at " + address + " ..."), ";", "sleep", "2",
                ";", "done", ";"));
        cmd.addAll(List.of("if", "!", "ray", "job", "status", "--address", address, jobId, ">/dev/null", "2>&1", ";",
                "then"));
        cmd.addAll(List.of("ray", "job", "submit", "--address", address, "--no-wait"));
        String runtimeEnv = runtimeEnvJson(spec);
        if (runtimeEnv != null) {
            cmd.add("--runtime-env-json");
            cmd.add(goQuote(runtimeEnv));
        }
        if (spec.metadata() != null && !spec.metadata().isEmpty()) {
            cmd.add("--metadata-json");
            cmd.add(goQuote(Json.MAPPER.writeValueAsString(spec.metadata())));
        }
        if (jobId != null && !jobId.isEmpty()) {
            cmd.add("--submission-id");
            cmd.add(jobId);
        }
        if (spec.entrypointNumCpus() != null && spec.entrypointNumCpus() > 0) {
            cmd.add("--entrypoint-num-cpus");
            cmd.add(String.format(Locale.ROOT, "%f", spec.entrypointNumCpus()));
        }
        if (spec.entrypointNumGpus() != null && spec.entrypointNumGpus() > 0) {
            cmd.add("--entrypoint-num-gpus");
            cmd.add(String.format(Locale.ROOT, "%f", spec.entrypointNumGpus()));
        }
        if (spec.entrypointResources() != null && !spec.entrypointResources().isEmpty()) {
            cmd.add("--entrypoint-resources");
            cmd.add(goQuote(spec.entrypointResources()));
        }
        cmd.add("--");
        cmd.add(spec.entrypoint() == null ? "" : spec.entrypoint().strip());
        cmd.addAll(List.of(";", "fi", ";", "ray", "job", "logs", "--address", address, "--follow", jobId));
        return cmd;
    }

    /** runtimeEnvYAML as compact JSON, or null when unset (validation has already rejected bad YAML). */
    static String runtimeEnvJson(RayJobSpec spec) {
        return JobSubmission.runtimeEnvJson(spec.runtimeEnvYAML());
    }

    private static void originLabels(ObjectNode labels, String rayJobName) {
        labels.put(RayLabels.ORIGINATED_FROM_CR_NAME, rayJobName);
        labels.put(RayLabels.ORIGINATED_FROM_CRD, RayJob.KIND);
    }

    /** Go's {@code strconv.Quote} for the ASCII text KubeRay puts on the command line. */
    static String goQuote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                default -> b.append(c);
            }
        }
        return b.append('"').toString();
    }

    /** The value of env var {@code name} on the first container of a Pod (or Pod template) spec, or null. */
    public static String env(JsonNode podSpec, String name) {
        JsonNode c = Json.at(podSpec, "containers");
        if (c == null || !c.isArray() || c.isEmpty()) {
            return null;
        }
        JsonNode env = c.get(0).get("env");
        if (env == null || !env.isArray()) {
            return null;
        }
        String found = null;
        for (JsonNode e : env) {
            if (name.equals(Json.text(e, "name"))) {
                found = Json.text(e, "value"); // the last definition wins, as in the kubelet
            }
        }
        return found;
    }

}
