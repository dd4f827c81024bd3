package io.kuberaysim.apiserver.registry.strategy;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.registry.DeleteOptions;
import io.kuberaysim.apiserver.registry.ResourceStrategy;
import io.kuberaysim.apiserver.registry.SelectableFields;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * batch/v1 Job: defaults (backoffLimit 6, one completion), the generated selector and pod-template labels,
 * a restartPolicy of Never or OnFailure, and Orphan as the legacy default deletion policy.
 */
public final class JobStrategy implements ResourceStrategy {
    @Override
    public ResourceType type() {
        return ResourceTypes.JOBS;
    }

    @Override
    public Class<?> model() {
        return Job.class;
    }

    @Override
    public String defaultPropagationPolicy() {
        return "Orphan";
    }

    /** kube-apiserver's Job REST warns a DELETE that leaves the Pods to the orphaning default. */
    @Override
    public List<String> deleteWarnings(DeleteOptions options) {
        if (options.propagationPolicy() != null || options.orphanDependents() != null) {
            return List.of();
        }
        return List.of("child pods are preserved by default when jobs are deleted; set propagationPolicy=Background"
                + " to remove them or set propagationPolicy=Orphan to suppress this warning");
    }

    @Override
    public void prepareForCreate(ObjectNode object, Instant now) {
        ObjectNode spec = Json.child(object, "spec");
        putIfAbsent(spec, "backoffLimit", 6);
        putIfAbsent(spec, "completions", 1);
        putIfAbsent(spec, "parallelism", 1);
        if (!spec.has("completionMode")) {
            spec.put("completionMode", "NonIndexed");
        }
        if (!spec.has("suspend")) {
            spec.put("suspend", false);
        }
        String uid = Json.text(object, "metadata", "uid");
        String name = Json.text(object, "metadata", "name");
        if (!spec.has("selector")) {
            Json.child(Json.child(spec, "selector"), "matchLabels").put("batch.kubernetes.io/controller-uid", uid);
        }
        ObjectNode template = Json.child(spec, "template");
        ObjectNode labels = Json.child(Json.child(template, "metadata"), "labels");
        labels.put("batch.kubernetes.io/controller-uid", uid);
        labels.put("batch.kubernetes.io/job-name", name);
        labels.put("controller-uid", uid);
        labels.put("job-name", name);
        PodTemplateRules.applyDefaults(Json.child(template, "spec"));
    }

    private static void putIfAbsent(ObjectNode o, String f, int v) {
        if (!o.has(f) || o.get(f).isNull()) {
            o.put(f, v);
        }
    }

    @Override
    public List<StatusCause> validate(ObjectNode object) {
        JsonNode podSpec = Json.at(object, "spec", "template", "spec");
        List<StatusCause> causes = new ArrayList<>(PodTemplateRules.validate(podSpec, "spec.template.spec"));
        String rp = Json.text(podSpec, "restartPolicy");
        if (rp != null && !rp.equals("Never") && !rp.equals("OnFailure")) {
            causes.add(new StatusCause("FieldValueNotSupported", "Unsupported value: \"" + rp
                    + "\": supported values: \"OnFailure\", \"Never\"", "spec.template.spec.restartPolicy"));
        }
        JsonNode bl = Json.at(object, "spec", "backoffLimit");
        if (bl != null && (!bl.canConvertToInt() || bl.asInt() < 0)) {
            causes.add(StatusCause.invalid("spec.backoffLimit", bl.asString(),
                    "must be greater than or equal to 0"));
        }
        return causes;
    }

    @Override
    public List<String> warnings(ObjectNode object) {
        return PodTemplateRules.warnings(Json.at(object, "spec", "template", "spec"), "spec.template.spec");
    }

    @Override
    public void prepareForUpdate(ObjectNode object, JsonNode old) {
        ObjectNode spec = Json.child(object, "spec");
        for (String f : List.of("selector", "completionMode", "backoffLimit", "completions", "parallelism",
                "suspend")) {
            if (!spec.has(f) && Json.at(old, "spec", f) != null) {
                spec.set(f, old.get("spec").get(f));
            }
        }
    }

    @Override
    public List<StatusCause> validateUpdate(ObjectNode object, JsonNode old) {
        List<StatusCause> causes = new ArrayList<>(validate(object));
        if (!java.util.Objects.equals(Json.at(object, "spec", "template"), Json.at(old, "spec", "template"))) {
            causes.add(StatusCause.invalid("spec.template", "core.PodTemplateSpec{...}", "field is immutable"));
        }
        return causes;
    }

    /** {@code status.successful} is the count of succeeded Pods, as batch/v1's field label conversion maps it. */
    @Override
    public Map<String, Function<JsonNode, String>> selectableFields() {
        return SelectableFields.with(SelectableFields.nameAndNamespace(), Map.of("status.successful",
                o -> Integer.toString(o.path("status").path("succeeded").asInt(0))));
    }
}
