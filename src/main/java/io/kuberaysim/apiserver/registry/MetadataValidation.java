package io.kuberaysim.apiserver.registry;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.validation.NameValidation;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * ObjectMeta rules common to every resource, as apimachinery's {@code ValidateObjectMeta}: label keys and values,
 * annotation keys and total size, owner references and finalizer names.
 */
final class MetadataValidation {
    /** Finalizers kube-apiserver knows without a domain ({@code validateKubeFinalizerName}). */
    private static final Set<String> STANDARD_FINALIZERS = Set.of("kubernetes", "orphan", "foregroundDeletion");

    private MetadataValidation() {
    }

    static List<StatusCause> validate(JsonNode meta, ResourceType type) {
        List<StatusCause> causes = validateLabelsAndAnnotations(meta);
        causes.addAll(validateOwnerReferences(meta.get("ownerReferences")));
        causes.addAll(validateFinalizers(meta.get("finalizers"), type));
        return causes;
    }

    /**
     * Custom resources may carry finalizers without a domain, with a warning (built-ins refuse them), e.g.
     * {@code metadata.finalizers: "cleanup": prefer a domain-qualified finalizer name including a path (/) to
     * avoid accidental conflicts with other finalizer writers}.
     */
    static List<String> warnings(JsonNode meta, ResourceType type) {
        JsonNode finalizers = meta.get("finalizers");
        if (!type.isCustomResource() || finalizers == null || !finalizers.isArray()) {
            return List.of();
        }
        List<String> warnings = new ArrayList<>();
        for (JsonNode f : finalizers) {
            String name = f.asString("");
            if (!name.contains("/") && !STANDARD_FINALIZERS.contains(name)
                    && NameValidation.isQualifiedName(name).isEmpty()) {
                warnings.add("metadata.finalizers: " + StatusCause.quote(name) + ": prefer a domain-qualified "
                        + "finalizer name including a path (/) to avoid accidental conflicts with other finalizer "
                        + "writers");
            }
        }
        return warnings;
    }

    /** {@code ValidateOwnerReferences}: every reference names its owner completely; one controller at most. */
    private static List<StatusCause> validateOwnerReferences(JsonNode refs) {
        List<StatusCause> causes = new ArrayList<>();
        if (refs == null || !refs.isArray()) {
            return causes;
        }
        String path = "metadata.ownerReferences";
        String controller = null;
        for (JsonNode ref : refs) {
            String apiVersion = ref.path("apiVersion").asString("");
            String kind = ref.path("kind").asString("");
            String version = apiVersion.contains("/") ? apiVersion.substring(apiVersion.indexOf('/') + 1) : apiVersion;
            if (version.isEmpty() || version.contains("/")) {
                causes.add(StatusCause.invalid(path + ".apiVersion", apiVersion, "version must not be empty"));
            }
            if (kind.isEmpty()) {
                causes.add(StatusCause.invalid(path + ".kind", kind, "kind must not be empty"));
            }
            if (ref.path("name").asString("").isEmpty()) {
                causes.add(StatusCause.invalid(path + ".name", "", "name must not be empty"));
            }
            if (ref.path("uid").asString("").isEmpty()) {
                causes.add(StatusCause.invalid(path + ".uid", "", "uid must not be empty"));
            }
            if (apiVersion.equals("v1") && kind.equals("Event")) {
                causes.add(StatusCause.invalid(path, ref.toString(), "/v1, Kind=Event is disallowed from being an owner"));
            }
            if (ref.path("controller").asBoolean(false)) {
                String owner = kind + "/" + ref.path("name").asString("");
                if (controller != null) {
                    causes.add(StatusCause.invalid(path, refs.toString(), "Only one reference can have Controller set "
                            + "to true. Found \"true\" in references for " + controller + " and " + owner));
                }
                controller = owner;
            }
        }
        return causes;
    }

    /**
     * {@code ValidateFinalizers}: qualified names; a built-in's finalizer without a domain must be a standard
     * one; {@code orphan} and {@code foregroundDeletion} together contradict each other.
     */
    private static List<StatusCause> validateFinalizers(JsonNode finalizers, ResourceType type) {
        List<StatusCause> causes = new ArrayList<>();
        if (finalizers == null || !finalizers.isArray()) {
            return causes;
        }
        boolean orphan = false;
        boolean foreground = false;
        for (JsonNode f : finalizers) {
            String name = f.asString("");
            List<String> errors = NameValidation.isQualifiedName(name);
            for (String msg : errors) {
                causes.add(StatusCause.invalid("metadata.finalizers", name, msg));
            }
            if (errors.isEmpty() && !type.isCustomResource() && !name.contains("/")
                    && !STANDARD_FINALIZERS.contains(name)) {
                causes.add(StatusCause.invalid("metadata.finalizers", name,
                        "name is neither a standard finalizer name nor is it fully qualified"));
            }
            orphan |= name.equals("orphan");
            foreground |= name.equals("foregroundDeletion");
        }
        if (orphan && foreground) {
            causes.add(StatusCause.invalid("metadata.finalizers", finalizers.toString(),
                    "finalizer orphan and foregroundDeletion cannot be both set"));
        }
        return causes;
    }

    static List<StatusCause> validateLabelsAndAnnotations(JsonNode meta) {
        List<StatusCause> causes = new ArrayList<>();
        JsonNode labels = meta.get("labels");
        if (labels != null && !labels.isNull()) {
            if (!labels.isObject()) {
                causes.add(StatusCause.invalid("metadata.labels", labels.toString(), "must be a map of strings"));
            } else {
                for (Map.Entry<String, JsonNode> e : labels.properties()) {
                    String field = "metadata.labels";
                    for (String msg : NameValidation.isQualifiedName(e.getKey())) {
                        causes.add(StatusCause.invalid(field, e.getKey(), msg));
                    }
                    if (!e.getValue().isString()) {
                        causes.add(StatusCause.invalid(field, e.getValue().toString(), "label values must be strings"));
                        continue;
                    }
                    for (String msg : NameValidation.isValidLabelValue(e.getValue().asString())) {
                        causes.add(StatusCause.invalid(field, e.getValue().asString(), msg));
                    }
                }
            }
        }
        JsonNode annotations = meta.get("annotations");
        if (annotations != null && !annotations.isNull()) {
            if (!annotations.isObject()) {
                causes.add(StatusCause.invalid("metadata.annotations", annotations.toString(),
                        "must be a map of strings"));
            } else {
                for (Map.Entry<String, JsonNode> e : annotations.properties()) {
                    for (String msg : NameValidation.isQualifiedName(e.getKey().toLowerCase())) {
                        causes.add(StatusCause.invalid("metadata.annotations", e.getKey(), msg));
                    }
                    if (!e.getValue().isString()) {
                        causes.add(StatusCause.invalid("metadata.annotations", e.getValue().toString(),
                                "annotation values must be strings"));
                    }
                }
                for (String msg : NameValidation.validateAnnotationsSize(toStringMap(annotations))) {
                    causes.add(new StatusCause("FieldValueTooLong", msg, "metadata.annotations"));
                }
            }
        }
        JsonNode finalizers = meta.get("finalizers");
        if (finalizers != null && !finalizers.isNull() && !finalizers.isArray()) {
            causes.add(StatusCause.invalid("metadata.finalizers", finalizers.toString(), "must be a list of strings"));
        }
        return causes;
    }

    private static Map<String, String> toStringMap(JsonNode node) {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        node.properties().forEach(e -> m.put(e.getKey(), e.getValue().asString()));
        return m;
    }
}
