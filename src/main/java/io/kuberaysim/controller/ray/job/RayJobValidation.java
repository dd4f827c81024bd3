package io.kuberaysim.controller.ray.job;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ray.DeletionPolicyType;
import io.kuberaysim.api.ray.DeletionRule;
import io.kuberaysim.api.ray.DeletionStrategy;
import io.kuberaysim.api.ray.JobDeploymentStatus;
import io.kuberaysim.api.ray.JobSubmissionMode;
import io.kuberaysim.api.ray.RayClusterSpec;
import io.kuberaysim.api.ray.RayJob;
import io.kuberaysim.api.ray.RayJobSpec;
import io.kuberaysim.api.ray.WorkerGroupSpec;
import io.kuberaysim.apiserver.validation.NameValidation;
import io.kuberaysim.controller.ray.RayLabels;
import io.kuberaysim.controller.ray.ValidationFailure;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The RayJob checks KubeRay runs before every reconcile ({@code ValidateRayJobMetadata}, {@code ValidateRayJobSpec},
 * {@code ValidateRayJobStatus}). A failure makes the RayJob {@code ValidationFailed} with a Warning event; the
 * messages follow KubeRay's.
 */
public final class RayJobValidation {

    /** Longest RayJob name: a generated cluster name ({@code <name>-xxxxx}) must stay within 53 characters. */
    public static final int MAX_RAYJOB_NAME_LENGTH = 47;


    private RayJobValidation() {
    }

    /** The first failed check, or null when the RayJob is valid; {@code annotations} are the RayJob's. */
    public static ValidationFailure validate(RayJob job, Map<String, String> annotations) {
        String m = metadata(Json.text(job.metadata(), "name"));
        if (m != null) {
            return ValidationFailure.metadata(m);
        }
        String s = spec(job.spec(), annotations);
        if (s != null) {
            return ValidationFailure.spec(s);
        }
        String st = status(job);
        if (st != null) {
            return ValidationFailure.status(st);
        }
        return null;
    }

    static String metadata(String name) {
        if (name == null) {
            return "The RayJob metadata is invalid: RayJob name should not be empty";
        }
        if (name.length() > MAX_RAYJOB_NAME_LENGTH) {
            return "The RayJob metadata is invalid: RayJob name should be no more than " + MAX_RAYJOB_NAME_LENGTH
                    + " characters";
        }
        List<String> errs = NameValidation.isDns1035Label(name);
        if (!errs.isEmpty()) {
            return "The RayJob metadata is invalid: RayJob name should be a valid DNS1035 label: " + errs;
        }
        return null;
    }

    static String status(RayJob job) {
        String ds = job.status() == null ? null : job.status().jobDeploymentStatus();
        if (JobDeploymentStatus.WAITING.equals(ds)
                && job.spec().submissionModeOrDefault() != JobSubmissionMode.InteractiveMode) {
            return "The RayJob status is invalid: JobDeploymentStatus cannot be `Waiting` when SubmissionMode is "
                    + "not InteractiveMode";
        }
        return null;
    }

    /** The spec checks, in KubeRay's order. */
    static String spec(RayJobSpec spec, Map<String, String> annotations) {
        if (spec == null) {
            return "The RayJob spec is invalid: one of RayClusterSpec or ClusterSelector must be set";
        }
        boolean shutdown = spec.shutsDownAfterJobFinishes();
        if (spec.suspended() && !shutdown) {
            return "The RayJob spec is invalid: a RayJob with shutdownAfterJobFinishes set to false is not allowed "
                    + "to be suspended";
        }
        int ttl = spec.ttlSecondsAfterFinished() == null ? 0 : spec.ttlSecondsAfterFinished();
        if (ttl < 0) {
            return "The RayJob spec is invalid: TTLSecondsAfterFinished must be a non-negative integer";
        }
        String deletion = deletionConfiguration(spec, ttl);
        if (deletion != null) {
            return deletion;
        }
        boolean selectorMode = spec.clusterSelector() != null && !spec.clusterSelector().isEmpty();
        if (spec.suspended() && selectorMode) {
            return "The RayJob spec is invalid: the ClusterSelector mode doesn't support the suspend operation";
        }
        if (spec.rayClusterSpec() == null && !selectorMode) {
            return "The RayJob spec is invalid: one of RayClusterSpec or ClusterSelector must be set";
        }
        JobSubmissionMode mode = spec.submissionModeOrDefault();
        int backoff = spec.backoffLimit() == null ? 0 : spec.backoffLimit();
        if (selectorMode) {
            String cluster = spec.clusterSelector().get(RayLabels.CLUSTER);
            if (cluster == null || cluster.isEmpty()) {
                return "cluster name in ClusterSelector should not be empty";
            }
            if (mode == JobSubmissionMode.SidecarMode) {
                return "ClusterSelector is not supported in SidecarMode";
            }
            if (backoff > 0) {
                return "The RayJob spec is invalid: BackoffLimit is incompatible with ClusterSelector";
            }
        }
        if (mode == JobSubmissionMode.InteractiveMode && backoff > 0) {
            return "The RayJob spec is invalid: BackoffLimit is incompatible with InteractiveMode";
        }
        if (mode == JobSubmissionMode.SidecarMode) {
            if (spec.submitterPodTemplate() != null) {
                return "Currently, SidecarMode doesn't support SubmitterPodTemplate";
            }
            if (spec.submitterConfig() != null) {
                return "Currently, SidecarMode doesn't support SubmitterConfig";
            }
            String rp = spec.rayClusterSpec() == null ? null
                    : Json.text(spec.rayClusterSpec().headGroupSpec().template(), "spec", "restartPolicy");
            if (rp != null && !rp.isEmpty() && !"Never".equals(rp)) {
                return "restartPolicy for head Pod should be Never or unset when using SidecarMode";
            }
        }
        if (spec.rayClusterSpec() != null) {
            String c = clusterSpec(spec.rayClusterSpec());
            if (c != null) {
                return "The RayJob spec is invalid: " + c;
            }
        }
        if (spec.runtimeEnvYAML() != null && !spec.runtimeEnvYAML().isEmpty()) {
            try {
                JsonNode n = Json.YAML.readTree(spec.runtimeEnvYAML());
                if (n != null && !n.isObject() && !n.isNull() && !n.isMissingNode()) {
                    return "failed to unmarshal RuntimeEnvYAML: " + spec.runtimeEnvYAML()
                            + ": the runtime environment must be a YAML mapping";
                }
            } catch (JacksonException e) {
                return "failed to unmarshal RuntimeEnvYAML: " + spec.runtimeEnvYAML() + ": "
                        + e.getOriginalMessage();
            }
        }
        if (spec.activeDeadlineSeconds() != null && spec.activeDeadlineSeconds() <= 0) {
            return "The RayJob spec is invalid: activeDeadlineSeconds must be a positive integer";
        }
        if (spec.preRunningDeadlineSeconds() != null && spec.preRunningDeadlineSeconds() <= 0) {
            return "The RayJob spec is invalid: preRunningDeadlineSeconds must be a positive integer";
        }
        if (spec.backoffLimit() != null && spec.backoffLimit() < 0) {
            return "The RayJob spec is invalid: backoffLimit must be a positive integer";
        }
        return null;
    }

    private static String deletionConfiguration(RayJobSpec spec, int ttl) {
        if (!spec.shutsDownAfterJobFinishes() && ttl > 0) {
            return "The RayJob spec is invalid: a RayJob with shutdownAfterJobFinishes set to false cannot have "
                    + "TTLSecondsAfterFinished";
        }
        DeletionStrategy ds = spec.deletionStrategy();
        if (ds == null) {
            return null;
        }
        boolean legacy = ds.onSuccess() != null || ds.onFailure() != null;
        boolean rules = ds.deletionRules() != null && !ds.deletionRules().isEmpty();
        if (rules && spec.shutsDownAfterJobFinishes()) {
            return "The RayJob spec is invalid: spec.shutdownAfterJobFinishes and spec.deletionStrategy.deletionRules "
                    + "are mutually exclusive";
        }
        if (rules && legacy) {
            return "The RayJob spec is invalid: Cannot use both legacy onSuccess/onFailure fields and deletionRules "
                    + "simultaneously";
        }
        if (legacy) {
            return legacyPolicies(spec);
        }
        if (rules) {
            return deletionRules(spec);
        }
        return "The RayJob spec is invalid: DeletionStrategy requires either BOTH onSuccess and onFailure, OR the "
                + "deletionRules field (cannot be empty)";
    }

    private static String legacyPolicies(RayJobSpec spec) {
        DeletionStrategy ds = spec.deletionStrategy();
        if (ds.onSuccess() == null || ds.onFailure() == null) {
            return "both DeletionStrategy.OnSuccess and DeletionStrategy.OnFailure must be set when using the legacy "
                    + "deletion policy fields of DeletionStrategy";
        }
        DeletionPolicyType onSuccess = ds.onSuccess().policy();
        DeletionPolicyType onFailure = ds.onFailure().policy();
        if (onSuccess == null) {
            return "the DeletionPolicyType field of DeletionStrategy.OnSuccess cannot be unset when DeletionStrategy "
                    + "is enabled";
        }
        if (onFailure == null) {
            return "the DeletionPolicyType field of DeletionStrategy.OnFailure cannot be unset when DeletionStrategy "
                    + "is enabled";
        }
        boolean selectorMode = spec.clusterSelector() != null && !spec.clusterSelector().isEmpty();
        if (selectorMode) {
            if (onSuccess == DeletionPolicyType.DeleteCluster || onSuccess == DeletionPolicyType.DeleteWorkers) {
                return "the ClusterSelector mode doesn't support DeletionStrategy=" + onSuccess + " on success";
            }
            if (onFailure == DeletionPolicyType.DeleteCluster || onFailure == DeletionPolicyType.DeleteWorkers) {
                return "the ClusterSelector mode doesn't support DeletionStrategy=" + onFailure + " on failure";
            }
        }
        if ((onSuccess == DeletionPolicyType.DeleteWorkers || onFailure == DeletionPolicyType.DeleteWorkers)
                && autoscaling(spec.rayClusterSpec())) {
            return "DeletionStrategy=DeleteWorkers currently does not support RayCluster with autoscaling enabled";
        }
        if (spec.shutsDownAfterJobFinishes()
                && (onSuccess == DeletionPolicyType.DeleteNone || onFailure == DeletionPolicyType.DeleteNone)) {
            return "The RayJob spec is invalid: shutdownAfterJobFinshes is set to 'true' while deletion policy is "
                    + "'DeleteNone'";
        }
        return null;
    }

    private static String deletionRules(RayJobSpec spec) {
        List<DeletionRule> rules = spec.deletionStrategy().deletionRules();
        boolean selectorMode = spec.clusterSelector() != null && !spec.clusterSelector().isEmpty();
        Map<String, Map<DeletionPolicyType, Integer>> byCondition = new LinkedHashMap<>();
        List<String> errs = new ArrayList<>();
        for (int i = 0; i < rules.size(); i++) {
            DeletionRule rule = rules.get(i);
            if (rule == null || rule.policy() == null || rule.condition() == null) {
                errs.add("deletionRules[" + i + "]: policy and condition are required");
                continue;
            }
            boolean hasJobStatus = rule.condition().jobStatus() != null;
            boolean hasDeployment = rule.condition().jobDeploymentStatus() != null;
            if (hasJobStatus == hasDeployment) {
                errs.add("deletionRules[" + i + "]: exactly one of jobStatus and jobDeploymentStatus must be set");
                continue;
            }
            int ttl = rule.condition().ttlSeconds() == null ? 0 : rule.condition().ttlSeconds();
            if (ttl < 0) {
                errs.add("deletionRules[" + i + "]: TTLSeconds must be non-negative");
                continue;
            }
            if (selectorMode && (rule.policy() == DeletionPolicyType.DeleteCluster
                    || rule.policy() == DeletionPolicyType.DeleteWorkers)) {
                errs.add("deletionRules[" + i + "]: DeletionPolicyType '" + rule.policy()
                        + "' not supported when ClusterSelector is set");
                continue;
            }
            if (autoscaling(spec.rayClusterSpec()) && rule.policy() == DeletionPolicyType.DeleteWorkers) {
                errs.add("deletionRules[" + i + "]: DeletionPolicyType 'DeleteWorkers' not supported with "
                        + "autoscaling enabled");
                continue;
            }
            String condition = hasJobStatus ? "JobStatus '" + rule.condition().jobStatus() + "'"
                    : "JobDeploymentStatus '" + rule.condition().jobDeploymentStatus() + "'";
            Map<DeletionPolicyType, Integer> ttls = byCondition.computeIfAbsent(condition,
                    k -> new EnumMap<>(DeletionPolicyType.class));
            if (ttls.containsKey(rule.policy())) {
                errs.add("deletionRules[" + i + "]: duplicate rule for DeletionPolicyType '" + rule.policy()
                        + "' and " + condition);
                continue;
            }
            ttls.put(rule.policy(), ttl);
        }
        List<DeletionPolicyType> order = List.of(DeletionPolicyType.DeleteWorkers, DeletionPolicyType.DeleteCluster,
                DeletionPolicyType.DeleteSelf);
        byCondition.forEach((condition, ttls) -> {
            DeletionPolicyType prev = null;
            for (DeletionPolicyType p : order) {
                Integer ttl = ttls.get(p);
                if (ttl == null) {
                    continue;
                }
                if (prev != null && ttl < ttls.get(prev)) {
                    errs.add("for " + condition + ": " + p + " TTL (" + ttl + ") must be >= " + prev + " TTL ("
                            + ttls.get(prev) + ")");
                }
                prev = p;
            }
        });
        return errs.isEmpty() ? null : String.join("\n", errs);
    }

    /** The subset of {@code ValidateRayClusterSpec} that applies to a RayJob's embedded cluster. */
    static String clusterSpec(RayClusterSpec spec) {
        if (spec.headGroupSpec() == null || containers(spec.headGroupSpec().template()) == 0) {
            return "headGroupSpec should have at least one container";
        }
        for (WorkerGroupSpec g : spec.workerGroups()) {
            if (containers(g.template()) == 0) {
                return "workerGroupSpec should have at least one container";
            }
            if (!Boolean.TRUE.equals(spec.enableInTreeAutoscaling())) {
                if (g.minReplicasOrDefault() < 0) {
                    return "minReplicas of worker group " + g.groupName() + " must be non-negative";
                }
                if (g.maxReplicasOrDefault() < 0) {
                    return "maxReplicas of worker group " + g.groupName() + " must be non-negative";
                }
                if (g.minReplicasOrDefault() > g.maxReplicasOrDefault()) {
                    return "minReplicas (" + g.minReplicasOrDefault() + ") of worker group " + g.groupName()
                            + " must not be greater than maxReplicas (" + g.maxReplicasOrDefault() + ")";
                }
            } else if (g.suspended()) {
                return "worker group " + g.groupName() + " cannot be suspended with Autoscaler enabled";
            }
        }
        return null;
    }

    private static int containers(JsonNode template) {
        JsonNode c = Json.at(template, "spec", "containers");
        return c == null || !c.isArray() ? 0 : c.size();
    }

    private static boolean autoscaling(RayClusterSpec spec) {
        return spec != null && Boolean.TRUE.equals(spec.enableInTreeAutoscaling());
    }
}
