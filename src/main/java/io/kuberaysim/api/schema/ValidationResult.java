package io.kuberaysim.api.schema;

import java.util.List;

import tools.jackson.databind.JsonNode;

/**
 * Outcome of {@link StructuralValidator#validate}.
 *
 * @param value         a pruned and defaulted copy of the input (the input itself is never changed)
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

    /** Whether no errors were found (unknown fields are warnings, not errors). */
    public boolean isValid() {
        return errors.isEmpty();
    }
}
