package io.kuberaysim.apiserver.errors;

import java.util.List;
import java.util.stream.Collectors;

/** One cause of a failed request, serialised as {@code {"reason","message","field"}} like metav1.StatusCause. */
public record StatusCause(String reason, String message, String field) {

    public static StatusCause required(String field) {
        return new StatusCause("FieldValueRequired", "Required value", field);
    }

    public static StatusCause invalid(String field, Object value, String detail) {
        return new StatusCause("FieldValueInvalid", "Invalid value: " + render(value) + ": " + detail, field);
    }

    public static StatusCause forbidden(String field, String detail) {
        return new StatusCause("FieldValueForbidden", "Forbidden: " + detail, field);
    }

    /** {@code Unsupported value: "x": supported values: "a", "b"}, as field.NotSupported renders it. */
    public static StatusCause notSupported(String field, String value, List<String> supported) {
        return new StatusCause("FieldValueNotSupported", "Unsupported value: " + render(value) + ": supported values: "
                + supported.stream().map(StatusCause::render).collect(Collectors.joining(", ")), field);
    }

    public static StatusCause tooLong(String field, int max) {
        return new StatusCause("FieldValueTooLong", "Too long: may not be more than " + max + " bytes", field);
    }

    /** Renders a value as Go's %#v does for the types we meet: quoted strings, bare numbers. */
    static String render(Object value) {
        if (value instanceof String s) {
            return quote(s);
        }
        return String.valueOf(value);
    }

    /** Go's {@code %q}: a double-quoted string with quotes, backslashes and control characters escaped. */
    public static String quote(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\x%02x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    /** The text kube-apiserver prints for a field error: {@code field: message}. */
    public String describe() {
        return field == null || field.isEmpty() ? message : field + ": " + message;
    }
}
