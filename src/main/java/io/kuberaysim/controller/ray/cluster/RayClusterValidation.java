package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ray.AutoscalerOptions;
import io.kuberaysim.api.ray.HeadGroupSpec;
import io.kuberaysim.api.ray.RayClusterConditions;
import io.kuberaysim.api.ray.RayClusterSpec;
import io.kuberaysim.api.ray.RayClusterStatus;
import io.kuberaysim.api.ray.WorkerGroupSpec;
import io.kuberaysim.apiserver.validation.NameValidation;
import io.kuberaysim.controller.ray.GenericVersion;
import io.kuberaysim.controller.ray.RayLabels;
import io.kuberaysim.controller.ray.ValidationFailure;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The operator-side checks KubeRay runs at the top of every reconcile ({@code utils/validation.go}
 * {@code ValidateRayClusterMetadata} and the main rules of {@code ValidateRayClusterSpec}; the unique group name
 * rule is KubeRay's optional webhook). Each method answers the first error message, as the Go code returns the
 * first error.
 */
public final class RayClusterValidation {
    /** 63 minus {@code len("-serve-svc")} ({@code utils/constant.go MaxRayClusterNameLength}). */
    public static final int MAX_NAME_LENGTH = 53;

    private RayClusterValidation() {
    }

    /**
     * KubeRay's {@code ValidateRayClusterMetadata}, {@code ValidateRayClusterSpec} and
     * {@code ValidateRayClusterStatus} in that order: the first failure, or null when the RayCluster is valid.
     *
     * @param spec   the parsed spec, null when absent
     * @param status the stored status, null when absent
     */
    public static ValidationFailure validate(String name, RayClusterSpec spec, Map<String, String> annotations,
                                             RayClusterStatus status) {
        Optional<String> metadata = validateMetadata(name);
        if (metadata.isPresent()) {
            return ValidationFailure.metadata(metadata.get());
        }
        Optional<String> specError = spec == null || spec.headGroupSpec() == null
                ? Optional.of("headGroupSpec should have at least one container")
                : validateSpec(spec, annotations);
        if (specError.isPresent()) {
            return ValidationFailure.spec(specError.get());
        }
        if (status != null && isTrue(status, RayClusterConditions.RAY_CLUSTER_SUSPENDING)
                && isTrue(status, RayClusterConditions.RAY_CLUSTER_SUSPENDED)) {
            return ValidationFailure.status("invalid RayCluster State: rayv1.RayClusterSuspending and "
                    + "rayv1.RayClusterSuspended conditions should not be both true");
        }
        return null;
    }

    private static boolean isTrue(RayClusterStatus status, String type) {
        var c = status.condition(type);
        return c != null && c.isTrue();
    }

    /** {@code ValidateRayClusterMetadata}: name length and DNS-1035 label. */
    static Optional<String> validateMetadata(String name) {
        if (name.length() > MAX_NAME_LENGTH) {
            return Optional.of("RayCluster name should be no more than " + MAX_NAME_LENGTH + " characters");
        }
        List<String> errs = NameValidation.isDns1035Label(name);
        if (!errs.isEmpty()) {
            return Optional.of("RayCluster name should be a valid DNS1035 label: [" + String.join(" ", errs) + "]");
        }
        return Optional.empty();
    }

    /** The main {@code ValidateRayClusterSpec} rules. */
    static Optional<String> validateSpec(RayClusterSpec spec, Map<String, String> annotations) {
        HeadGroupSpec head = spec.headGroupSpec();
        if (head == null || containerCount(head.template()) == 0) {
            return Optional.of("headGroupSpec should have at least one container");
        }
        Optional<String> err = groupResources("Head", head.rayStartParams(), head.resources());
        if (err.isEmpty()) {
            err = groupLabels("Head", head.rayStartParams(), head.labels());
        }
        if (err.isPresent()) {
            return err;
        }
        boolean autoscaling = Boolean.TRUE.equals(spec.enableInTreeAutoscaling());
        for (WorkerGroupSpec g : spec.workerGroups()) {
            if (containerCount(g.template()) == 0) {
                return Optional.of("workerGroupSpec should have at least one container");
            }
            String n = g.groupName();
            if (!autoscaling && (g.minReplicas() == null || g.maxReplicas() == null)) {
                return Optional.of("worker group " + n
                        + " must set both minReplicas and maxReplicas when autoscaling is disabled");
            }
            if (g.minReplicas() != null && g.minReplicas() < 0) {
                return Optional.of("worker group " + n + " has negative minReplicas " + g.minReplicas());
            }
            if (g.maxReplicas() != null && g.maxReplicas() < 0) {
                return Optional.of("worker group " + n + " has negative maxReplicas " + g.maxReplicas());
            }
            if (g.minReplicas() != null && g.maxReplicas() != null && g.minReplicas() > g.maxReplicas()) {
                return Optional.of("worker group " + n + " has minReplicas " + g.minReplicas()
                        + " greater than maxReplicas " + g.maxReplicas());
            }
            err = groupResources(n, g.rayStartParams(), g.resources());
            if (err.isEmpty()) {
                err = groupLabels(n, g.rayStartParams(), g.labels());
            }
            if (err.isEmpty()) {
                err = idleTimeout(g, spec);
            }
            if (err.isEmpty()) {
                err = priority(g, spec);
            }
            if (err.isPresent()) {
                return err;
            }
            // duplicate group names are checked only by KubeRay's optional webhook, not by the operator
        }
        if (annotations.containsKey(RayLabels.FT_ENABLED) && !annotations.get(RayLabels.FT_ENABLED).isEmpty()
                && spec.gcsFaultToleranceOptions() != null) {
            return Optional.of(RayLabels.FT_ENABLED + " annotation and GcsFaultToleranceOptions are both set. "
                    + "Please use only GcsFaultToleranceOptions to configure GCS fault tolerance");
        }
        err = redis(spec, annotations);
        if (err.isEmpty()) {
            err = autoscalerRules(spec, autoscaling);
        }
        if (err.isEmpty()) {
            err = auth(spec);
        }
        return err;
    }

    /** The Ray container's env value of {@code name}, or null; "" for an env var without a value. */
    private static String headEnv(RayClusterSpec spec, String name) {
        JsonNode c = Json.at(spec.headGroupSpec().template(), "spec", "containers");
        if (c == null || !c.isArray() || c.isEmpty()) {
            return null;
        }
        for (JsonNode e : c.get(0).path("env")) {
            if (name.equals(Json.text(e, "name"))) {
                String v = Json.text(e, "value");
                return v == null ? "" : v;
            }
        }
        return null;
    }

    private static boolean autoscalerV2(RayClusterSpec spec) {
        return spec.autoscalerOptions() != null && spec.autoscalerOptions().version() == AutoscalerOptions.Version.v2;
    }

    private static boolean v2ByEnv(RayClusterSpec spec) {
        String v = headEnv(spec, V2_ENV);
        return "1".equals(v) || "true".equals(v);
    }

    private static final String V2_ENV = "RAY_enable_autoscaler_v2";

    /** {@code validateWorkerGroupIdleTimeout}. */
    private static Optional<String> idleTimeout(WorkerGroupSpec g, RayClusterSpec spec) {
        Integer t = g.idleTimeoutSeconds();
        if (t == null) {
            return Optional.empty();
        }
        if (t < 0) {
            return Optional.of("worker group " + g.groupName() + ": idleTimeoutSeconds must be non-negative, got "
                    + t);
        }
        if (autoscalerV2(spec) || v2ByEnv(spec)) {
            return Optional.empty();
        }
        return Optional.of("worker group " + g.groupName() + ": idleTimeoutSeconds is set, but autoscaler v2 is not "
                + "enabled. Please set .spec.autoscalerOptions.version to 'v2' (or set " + V2_ENV + " environment "
                + "variable to 'true' in the head pod if using KubeRay < 1.4.0)");
    }

    /** {@code validateWorkerGroupPriority}: needs Ray 2.56.0 and autoscaler v2. */
    private static Optional<String> priority(WorkerGroupSpec g, RayClusterSpec spec) {
        Integer p = g.priority();
        if (p == null || p == 0) {
            return Optional.empty();
        }
        String prefix = "worker group " + g.groupName() + ": priority is set, but ";
        Optional<String> version = minimumRayVersion(spec.rayVersion(), "2.56.0",
                prefix + "RayVersion was not specified. Ray version 2.56.0 or later is required",
                prefix + "RayVersion format is invalid: ", prefix + "minimum Ray version is 2.56.0, got ");
        if (version.isPresent()) {
            return version;
        }
        if (autoscalerV2(spec) || v2ByEnv(spec)) {
            return Optional.empty();
        }
        return Optional.of("worker group " + g.groupName() + ": priority is set to " + p + ", but autoscaler v2 is "
                + "not enabled. Priority is only supported with autoscaler v2 enabled");
    }

    /** The three version failures KubeRay words alike (missing, unparsable, too old). */
    private static Optional<String> minimumRayVersion(String rayVersion, String minimum, String missing,
                                                      String invalidPrefix, String tooOldPrefix) {
        if (rayVersion == null || rayVersion.isEmpty()) {
            return Optional.of(missing);
        }
        try {
            if (GenericVersion.parse(rayVersion).lessThan(GenericVersion.of(minimum))) {
                return Optional.of(tooOldPrefix + rayVersion);
            }
        } catch (GenericVersion.InvalidVersion e) {
            return Optional.of(invalidPrefix + rayVersion + ", " + e.getMessage());
        }
        return Optional.empty();
    }

    /** The Redis / GCS fault tolerance rules of {@code ValidateRayClusterSpec}. */
    private static Optional<String> redis(RayClusterSpec spec, Map<String, String> annotations) {
        boolean ft = "true".equalsIgnoreCase(annotations.get(RayLabels.FT_ENABLED))
                || spec.gcsFaultToleranceOptions() != null;
        if (!ft && headEnv(spec, "RAY_REDIS_ADDRESS") != null) {
            return Optional.of("RAY_REDIS_ADDRESS is set which implicitly enables GCS fault tolerance, but "
                    + "GcsFaultToleranceOptions is not set. Please set GcsFaultToleranceOptions to enable GCS fault "
                    + "tolerance");
        }
        Map<String, String> params = spec.headGroupSpec().rayStartParams() == null ? Map.of()
                : spec.headGroupSpec().rayStartParams();
        if (spec.gcsFaultToleranceOptions() != null) {
            if (params.get("redis-password") != null && !params.get("redis-password").isEmpty()) {
                return Optional.of("cannot set `redis-password` in rayStartParams when GcsFaultToleranceOptions is "
                        + "enabled - use GcsFaultToleranceOptions.RedisPassword instead");
            }
            if (headEnv(spec, "REDIS_PASSWORD") != null) {
                return Optional.of("cannot set `REDIS_PASSWORD` env var in head Pod when GcsFaultToleranceOptions is "
                        + "enabled - use GcsFaultToleranceOptions.RedisPassword instead");
            }
            if (headEnv(spec, "RAY_REDIS_ADDRESS") != null) {
                return Optional.of("cannot set `RAY_REDIS_ADDRESS` env var in head Pod when GcsFaultToleranceOptions "
                        + "is enabled - use GcsFaultToleranceOptions.RedisAddress instead");
            }
            String ns = annotations.get("ray.io/external-storage-namespace");
            if (ns != null && !ns.isEmpty()) {
                return Optional.of("cannot set `ray.io/external-storage-namespace` annotation when "
                        + "GcsFaultToleranceOptions is enabled - use GcsFaultToleranceOptions.ExternalStorageNamespace "
                        + "instead");
            }
        }
        if (params.get("redis-username") != null && !params.get("redis-username").isEmpty()
                || headEnv(spec, "REDIS_USERNAME") != null) {
            return Optional.of("cannot set redis username in rayStartParams or environment variables - use "
                    + "GcsFaultToleranceOptions.RedisUsername instead");
        }
        return Optional.empty();
    }

    /** The autoscaler rules of {@code ValidateRayClusterSpec}. */
    private static Optional<String> autoscalerRules(RayClusterSpec spec, boolean autoscaling) {
        String v2Env = headEnv(spec, V2_ENV);
        if (!autoscaling && ("1".equals(v2Env) || "true".equals(v2Env))) {
            return Optional.of("environment variable " + V2_ENV + " cannot be set to '" + v2Env + "' when "
                    + "enableInTreeAutoscaling is false. Please set enableInTreeAutoscaling: true to use autoscaler v2");
        }
        if (autoscaling) {
            for (WorkerGroupSpec g : spec.workerGroups()) {
                if (g.suspended()) {
                    return Optional.of("worker group " + g.groupName() + " cannot be suspended with Autoscaler enabled");
                }
            }
            if (spec.autoscalerOptions() != null && spec.autoscalerOptions().version() != null && v2Env != null) {
                return Optional.of("both .spec.autoscalerOptions.version and head Pod env var " + V2_ENV
                        + " are set, please only use the former");
            }
            if (autoscalerV2(spec)) {
                String headPolicy = Json.text(spec.headGroupSpec().template(), "spec", "restartPolicy");
                if (headPolicy != null && !headPolicy.isEmpty() && !headPolicy.equals("Never")) {
                    return Optional.of("restartPolicy for head Pod should be Never or unset when using autoscaler V2");
                }
                for (WorkerGroupSpec g : spec.workerGroups()) {
                    String policy = Json.text(g.template(), "spec", "restartPolicy");
                    if (policy != null && !policy.isEmpty() && !policy.equals("Never")) {
                        return Optional.of("restartPolicy for worker group " + g.groupName()
                                + " should be Never or unset when using autoscaler V2");
                    }
                }
            }
        }
        AutoscalerOptions o = spec.autoscalerOptions();
        if (o != null && o.idleTimeoutSeconds() != null && o.idleTimeoutSeconds() < 0) {
            return Optional.of("autoscalerOptions.idleTimeoutSeconds must be non-negative, got "
                    + o.idleTimeoutSeconds());
        }
        if (o != null && o.env() != null && o.env().stream()
                .anyMatch(e -> "KUBERAY_GEN_AUTOSCALER_START_CMD".equals(Json.text(e, "name")))) {
            return Optional.of("autoscalerOptions.env must not contain KUBERAY_GEN_AUTOSCALER_START_CMD: it is managed "
                    + "by KubeRay and injected automatically into the autoscaler container");
        }
        return Optional.empty();
    }

    /** The {@code authOptions} rules: token mode needs Ray 2.52.0, Kubernetes token auth 2.55.0. */
    private static Optional<String> auth(RayClusterSpec spec) {
        JsonNode a = spec.authOptions();
        boolean k8sAuth = a != null && a.path("enableK8sTokenAuth").asBoolean(false);
        if (a != null && "token".equals(Json.text(a, "mode"))) {
            String p = "authOptions.mode is 'token' but ";
            Optional<String> v = minimumRayVersion(spec.rayVersion(), "2.52.0",
                    p + "RayVersion was not specified. Ray version 2.52.0 or later is required",
                    p + "RayVersion format is invalid: ", p + "minimum Ray version is 2.52.0, got ");
            if (v.isPresent() || !k8sAuth) {
                return v;
            }
            String k = "authOptions.enableK8sTokenAuth is enabled but ";
            v = minimumRayVersion(spec.rayVersion(), "2.55.0", k + "minimum Ray version is 2.55.0, got ",
                    k + "minimum Ray version is 2.55.0, got ", k + "minimum Ray version is 2.55.0, got ");
            if (v.isPresent()) {
                return v;
            }
            String secret = Json.text(a, "secretName");
            if (secret != null && !secret.isEmpty()) {
                return Optional.of("authOptions.enableK8sTokenAuth is enabled and authOptions.secretName is also set");
            }
            return Optional.empty();
        }
        if (k8sAuth) {
            return Optional.of("authOptions.enableK8sTokenAuth is enabled but authOptions.mode not set to 'token'");
        }
        return Optional.empty();
    }

    private static int containerCount(JsonNode template) {
        JsonNode c = Json.at(template, "spec", "containers");
        return c == null || !c.isArray() ? 0 : c.size();
    }

    private static Optional<String> groupResources(String group, Map<String, String> params,
            Map<String, String> resources) {
        Map<String, String> p = params == null ? Map.of() : params;
        boolean inParams = false;
        for (String k : List.of("num-cpus", "num-gpus", "memory", "resources")) {
            String v = p.get(k);
            inParams |= v != null && !v.isEmpty();
        }
        if (inParams && resources != null && !resources.isEmpty()) {
            return Optional.of("resource fields should not be set in both rayStartParams and Resources for "
                    + group + " group; please use only one");
        }
        return Optional.empty();
    }

    private static Optional<String> groupLabels(String group, Map<String, String> params, Map<String, String> labels) {
        if (params != null && params.containsKey("labels")) {
            return Optional.of("rayStartParams['labels'] is not supported for " + group
                    + " group; please use the top-level Labels field instead");
        }
        if (labels == null) {
            return Optional.empty();
        }
        List<String> errs = new ArrayList<>();
        labels.forEach((k, v) -> {
            for (String e : NameValidation.isQualifiedName(k)) {
                errs.add("invalid label key for " + group + " group: '" + k + "', error: " + e);
            }
            for (String e : NameValidation.isValidLabelValue(v)) {
                errs.add("invalid label value for key '" + k + "' in " + group + " group: '" + v + "', error: " + e);
            }
        });
        return errs.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", errs));
    }
}
