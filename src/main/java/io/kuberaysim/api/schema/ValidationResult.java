package io.kuberaysim.api.schema;

import java.util.List;

import tools.jackson.databind.JsonNode;

/**
 * Outcome of {@link StructuralValidator#validate} and {@link StructuralValidator#validateInPlace}.
 *
 * @param value         the input pruned and defaulted: a copy from {@link StructuralValidator#validate} (which leaves
 *                      the input alone), the input itself from {@link StructuralValidator#validateInPlace}
 * @param unknownFields paths of fields that were dropped because the schema does not declare them, in the
 *                      form kube-apiserver uses in its {@code unknown field "..."} warnings, sorted
 * @param errors        validation failures; empty when the value is valid
 */
public record ValidationResult(JsonNode value, List<String> unknownFields, List<FieldError> errors) {

    /** Copies the lists so the result is immutable. */
    public ValidationResult {
        unknownFields = List.copyOf(unknownFields);
        errors = List.copyOf(errors);
    }

    /**
     * The errors joined the way kube-apiserver words an Invalid status after the object name:
     * {@code field: message} for one error, {@code [a: m1, b: m2]} for several (duplicates dropped).
     *
     * @return the summary, or an empty string when there are no errors
     */
    public String summary() {
        List<String> lines = errors.stream().map(FieldError::describe).distinct().toList();
        return lines.size() == 1 ? lines.get(0) : lines.isEmpty() ? "" : "[" + String.join(", ", lines) + "]";
    }

    /** Whether no errors were found (unknown fields are warnings, not errors). */
    public boolean isValid() {
        return errors.isEmpty();
    }
}
