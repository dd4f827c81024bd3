package io.kuberaysim.api.schema;

import java.util.List;
import java.util.stream.Collectors;

import tools.jackson.databind.JsonNode;

/**
 * One validation failure in the shape of a metav1 {@code StatusCause}: {@code reason} carries the cause
 * type ({@code FieldValueInvalid}, {@code FieldValueRequired}, {@code FieldValueNotSupported}) and
 * {@code message} the text kube-apiserver puts in the cause, without the field prefix.
 *
 * @param field   the field path, e.g. {@code spec.workerGroupSpecs[0].replicas}
 * @param reason  the cause type
 * @param message the cause message, e.g. {@code Required value}
 */
public record FieldError(String field, String reason, String message) {

    /** Cause type of a value of the wrong type or out of range. */
    public static final String FIELD_VALUE_INVALID = "FieldValueInvalid";
    /** Cause type of a missing required field. */
    public static final String FIELD_VALUE_REQUIRED = "FieldValueRequired";
    /** Cause type of a value outside an enum. */
    public static final String FIELD_VALUE_NOT_SUPPORTED = "FieldValueNotSupported";

    /**
     * {@code Invalid value: <value>: <detail>}; {@code renderedValue} is already formatted the way Go's
     * field errors print values (strings quoted, numbers and booleans bare).
     */
    public static FieldError invalid(String field, String renderedValue, String detail) {
        return new FieldError(field, FIELD_VALUE_INVALID, "Invalid value: " + renderedValue + ": " + detail);
    }

    /** {@code Required value}. */
    public static FieldError required(String field) {
        return new FieldError(field, FIELD_VALUE_REQUIRED, "Required value");
    }

    /** {@code Unsupported value: "x": supported values: "a", "b"}. */
    public static FieldError notSupported(String field, JsonNode value, List<String> supported) {
        String choices = supported.stream().map(FieldError::quote).collect(Collectors.joining(", "));
        return new FieldError(field, FIELD_VALUE_NOT_SUPPORTED,
                "Unsupported value: " + render(value) + ": supported values: " + choices);
    }

    /** The one-line form kube-apiserver joins into an Invalid status message: {@code field: message}. */
    public String describe() {
        return field + ": " + message;
    }

    /** Formats a JSON value the way Go's {@code field.Error} prints it: strings quoted, others bare. */
    static String render(JsonNode value) {
        return value.isString() ? quote(value.asString()) : value.toString();
    }

    /** Go-style {@code %q} quoting for the characters that matter in practice. */
    static String quote(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2).append('"');
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '\r' -> out.append("\\r");
                default -> out.append(c);
            }
        }
        return out.append('"').toString();
    }
}
