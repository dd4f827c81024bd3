package io.kuberaysim.apiserver.registry.strategy;

import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.schema.Schema;
import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.registry.ResourceStrategy;
import io.kuberaysim.apiserver.validation.QuantityFormat;
import io.kuberaysim.apiserver.validation.TypedDecoding;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * A KubeRay custom resource: structural schema from the project's model types and the status subresource. Names are
 * checked as kube-apiserver checks every custom resource's (a DNS-1123 subdomain); KubeRay's stricter rules (a
 * DNS-1035 label of at most 53 or 47 characters) are its controllers', which refuse such an object with a Warning
 * event, since the operator is installed without its optional admission webhook.
 */
public final class CustomResourceStrategy implements ResourceStrategy {
    private final ResourceType type;
    private final Schema schema;

    public CustomResourceStrategy(ResourceType type, Schema schema) {
        this.type = type;
        this.schema = schema;
    }

    @Override
    public ResourceType type() {
        return type;
    }

    @Override
    public Schema schema() {
        return schema;
    }

    /**
     * KubeRay's CRDs embed the full PodTemplateSpec schema, so a template field of the wrong type or a malformed
     * quantity is refused on write, with the messages of a structural schema, e.g. {@code
     * spec.headGroupSpec.template.spec.containers[0].resources.limits.cpu in body should match '^(\+|-)?...'}.
     */
    @Override
    public List<StatusCause> validate(ObjectNode object) {
        return checkTemplates(object, null);
    }

    /**
     * As {@link #validate}, but a template equal to the stored one at the same place is not checked again (it was
     * when stored): kube-apiserver's validation ratcheting lets unchanged fields pass too. A patch that leaves the
     * spec alone (annotations, labels) keeps the stored templates themselves, so it skips the typed decoding of
     * every Pod template.
     */
    @Override
    public List<StatusCause> validateUpdate(ObjectNode object, JsonNode old) {
        return checkTemplates(object, old);
    }

    /**
     * Fields a changed Pod template does not have (KubeRay's CRDs type the templates fully, so kube-apiserver finds
     * them), e.g. {@code spec.headGroupSpec.template.spec.containers[0].resorces}: a 400 under
     * {@code fieldValidation=Strict} (kubectl's default), a warning otherwise.
     */
    @Override
    public List<String> unknownFields(ObjectNode object, JsonNode old) {
        List<String> unknown = new ArrayList<>();
        forEachChangedTemplate(object, old, (template, path) -> {
            for (String field : TypedDecoding.unknownFields(template, null, PodTemplateSpec.class)) {
                unknown.add(path + "." + field);
            }
        });
        return unknown;
    }

    private static List<StatusCause> checkTemplates(ObjectNode object, JsonNode old) {
        List<StatusCause> causes = new ArrayList<>();
        forEachChangedTemplate(object, old, (template, path) -> checkTemplate(template, path, causes));
        return causes;
    }

    /**
     * Calls {@code visit} with each Pod template of {@code object} (the cluster spec's, a RayJob's or RayService's
     * embedded one, a RayJob's submitter template) and its field path, unless it equals the template at the same place
     * in {@code old} (null for a create).
     */
    private static void forEachChangedTemplate(ObjectNode object, JsonNode old,
                                               BiConsumer<JsonNode, String> visit) {
        JsonNode spec = object.get("spec");
        JsonNode oldSpec = old == null ? null : old.get("spec");
        for (String cluster : List.of("spec", "spec.rayClusterSpec", "spec.rayClusterConfig")) {
            JsonNode clusterSpec = cluster.equals("spec") ? spec : spec == null ? null
                    : spec.get(cluster.substring("spec.".length()));
            if (clusterSpec == null || !clusterSpec.isObject()) {
                continue;
            }
            JsonNode oldClusterSpec = cluster.equals("spec") ? oldSpec : oldSpec == null ? null
                    : oldSpec.get(cluster.substring("spec.".length()));
            if (oldClusterSpec != null && (oldClusterSpec == clusterSpec || oldClusterSpec.equals(clusterSpec))) {
                continue;
            }
            JsonNode oldHead = oldClusterSpec == null ? null : oldClusterSpec.path("headGroupSpec").get("template");
            visitIfChanged(clusterSpec.path("headGroupSpec").get("template"), oldHead,
                    cluster + ".headGroupSpec.template", visit);
            JsonNode groups = clusterSpec.get("workerGroupSpecs");
            JsonNode oldGroups = oldClusterSpec == null ? null : oldClusterSpec.get("workerGroupSpecs");
            if (groups != null && groups.isArray()) {
                for (int i = 0; i < groups.size(); i++) {
                    JsonNode oldTemplate = oldGroups == null ? null : oldGroups.path(i).get("template");
                    visitIfChanged(groups.get(i).get("template"), oldTemplate,
                            cluster + ".workerGroupSpecs[" + i + "].template", visit);
                }
            }
        }
        if (spec != null) {
            visitIfChanged(spec.get("submitterPodTemplate"),
                    oldSpec == null ? null : oldSpec.get("submitterPodTemplate"), "spec.submitterPodTemplate", visit);
        }
    }

    /** Visits {@code template} unless it is {@code unchanged}'s equal (null: nothing stored to compare with). */
    private static void visitIfChanged(JsonNode template, JsonNode unchanged, String path,
                                       BiConsumer<JsonNode, String> visit) {
        if (template == null || !template.isObject() || template == unchanged
                || unchanged != null && unchanged.equals(template)) {
            return;
        }
        visit.accept(template, path);
    }

    private static void checkTemplate(JsonNode template, String path, List<StatusCause> causes) {
        TypedDecoding.check(template, PodTemplateSpec.class).ifPresent(m -> {
            String field = path + "." + m.path();
            String message;
            if (m.malformedQuantity()) {
                message = "Invalid value: " + StatusCause.quote(m.value().asString()) + ": " + field
                        + " in body should match '" + QuantityFormat.CRD_PATTERN + "'";
            } else if (m.rangeError() != null) {
                message = "Invalid value: " + m.value() + ": " + field + " in body " + m.rangeError();
            } else {
                String actual = StatusCause.quote(jsonType(m.value()));
                message = "Invalid value: " + actual + ": " + field + " in body must be of type " + m.schemaType()
                        + ": " + actual;
            }
            causes.add(new StatusCause("FieldValueInvalid", message, field));
        });
    }

    private static String jsonType(JsonNode value) {
        if (value == null || value.isNull()) {
            return "null";
        }
        return value.isObject() ? "object" : value.isArray() ? "array" : value.isString() ? "string"
                : value.isBoolean() ? "boolean" : value.isIntegralNumber() ? "integer" : "number";
    }
}
