package io.kuberaysim.apiserver.registry;

import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.validation.NameValidation;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** ObjectMeta rules common to every resource: label keys and values, annotation keys and total size. */
final class MetadataValidation {
    private MetadataValidation() {
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
