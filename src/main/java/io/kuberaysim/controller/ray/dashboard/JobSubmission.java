package io.kuberaysim.controller.ray.dashboard;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ray.RayJob;
import io.kuberaysim.api.ray.RayJobSpec;
import tools.jackson.databind.JsonNode;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The body of {@code POST /api/jobs/}, as KubeRay builds it from a RayJob ({@code ConvertRayJobToReq}).
 *
 * @param submissionId     the job id
 * @param entrypoint       the command
 * @param metadata         {@code spec.metadata}
 * @param runtimeEnvJson   {@code spec.runtimeEnvYAML} as JSON, or null
 * @param ownerAnnotations the RayJob's annotations: a real dashboard never sees them; the simulated one reads its
 *                         knobs ({@code sim.kuberay.io/job-*}) from them
 */
public record JobSubmission(String submissionId, String entrypoint, Map<String, String> metadata,
                            String runtimeEnvJson, Map<String, String> ownerAnnotations) {

    /** The submission of {@code rayJob} (whose annotations are {@code annotations}) under {@code jobId}. */
    public static JobSubmission of(RayJob rayJob, Map<String, String> annotations, String jobId) {
        RayJobSpec spec = rayJob.spec();
        Map<String, String> metadata = spec == null || spec.metadata() == null
                ? Map.of() : new LinkedHashMap<>(spec.metadata());
        return new JobSubmission(jobId, spec == null ? null : spec.entrypoint(), metadata,
                spec == null ? null : runtimeEnvJson(spec.runtimeEnvYAML()), annotations);
    }

    /** runtimeEnvYAML as compact JSON, or null when unset or unreadable. */
    public static String runtimeEnvJson(String yaml) {
        if (yaml == null || yaml.isBlank()) {
            return null;
        }
        try {
            JsonNode n = Json.YAML.readTree(yaml);
            return n == null || n.isNull() || n.isMissingNode() ? null : Json.MAPPER.writeValueAsString(n);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
