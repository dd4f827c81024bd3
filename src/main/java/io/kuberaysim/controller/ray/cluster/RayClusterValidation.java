package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ray.HeadGroupSpec;
import io.kuberaysim.api.ray.RayClusterConditions;
import io.kuberaysim.api.ray.RayClusterSpec;
import io.kuberaysim.api.ray.RayClusterStatus;
import io.kuberaysim.api.ray.WorkerGroupSpec;
import io.kuberaysim.apiserver.validation.NameValidation;
import io.kuberaysim.controller.ray.RayLabels;
import io.kuberaysim.controller.ray.ValidationFailure;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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
        Set<String> names = new HashSet<>();
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
            if (err.isPresent()) {
                return err;
            }
            if (!names.add(n)) {
                // KubeRay's webhook rule (raycluster_webhook.go); the simulation always applies it, because
                // duplicate groups would fight over the same Pods.
                return Optional.of("worker group names must be unique: " + n);
            }
            if (autoscaling && g.suspended()) {
                return Optional.of("worker group " + n + " cannot be suspended with Autoscaler enabled");
            }
        }
        if (annotations.containsKey(RayLabels.FT_ENABLED) && !annotations.get(RayLabels.FT_ENABLED).isEmpty()
                && spec.gcsFaultToleranceOptions() != null) {
            return Optional.of(RayLabels.FT_ENABLED + " annotation and GcsFaultToleranceOptions are both set. "
                    + "Please use only GcsFaultToleranceOptions to configure GCS fault tolerance");
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
