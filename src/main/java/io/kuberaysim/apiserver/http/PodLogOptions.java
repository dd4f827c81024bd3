package io.kuberaysim.apiserver.http;

import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.errors.StatusCause;
import jakarta.servlet.http.HttpServletRequest;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * The query of {@code pods/log} as kube-apiserver decodes and validates {@code PodLogOptions}: a value that is not a
 * number or a time is 400, a number out of range or both since options are 422 {@code PodLogOptions "pod" is invalid}.
 */
record PodLogOptions(String container, boolean follow, boolean previous, boolean timestamps, Long tailLines,
                     Long limitBytes, Long sinceSeconds, Instant sinceTime) {

    static PodLogOptions parse(HttpServletRequest req, String pod) {
        PodLogOptions o = new PodLogOptions(req.getParameter("container"), bool(req, "follow"), bool(req, "previous"),
                bool(req, "timestamps"), number(req, "tailLines"), number(req, "limitBytes"),
                number(req, "sinceSeconds"), time(req, "sinceTime"));
        List<StatusCause> causes = new ArrayList<>();
        if (o.tailLines != null && o.tailLines < 0) {
            causes.add(StatusCause.invalid("tailLines", o.tailLines, "must be greater than or equal to 0"));
        }
        if (o.limitBytes != null && o.limitBytes < 1) {
            causes.add(StatusCause.invalid("limitBytes", o.limitBytes, "must be greater than 0"));
        }
        if (o.sinceSeconds != null && o.sinceTime != null) {
            causes.add(StatusCause.forbidden("", "at most one of `sinceTime` or `sinceSeconds` may be specified"));
        } else if (o.sinceSeconds != null && o.sinceSeconds < 1) {
            causes.add(StatusCause.invalid("sinceSeconds", o.sinceSeconds, "must be greater than 0"));
        }
        if (!causes.isEmpty()) {
            throw ApiException.invalid("PodLogOptions", "PodLogOptions", "", pod, causes);
        }
        return o;
    }

    private static boolean bool(HttpServletRequest req, String name) {
        String v = req.getParameter(name);
        if (v == null || v.isEmpty()) {
            return false;
        }
        return switch (v) {
            case "true", "1", "t", "T", "TRUE", "True" -> true;
            case "false", "0", "f", "F", "FALSE", "False" -> false;
            default -> throw ApiException.badRequest("strconv.ParseBool: parsing \"" + v + "\": invalid syntax");
        };
    }

    private static Long number(HttpServletRequest req, String name) {
        String v = req.getParameter(name);
        if (v == null || v.isEmpty()) {
            return null;
        }
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("strconv.ParseInt: parsing \"" + v + "\": invalid syntax");
        }
    }

    private static Instant time(HttpServletRequest req, String name) {
        String v = req.getParameter(name);
        if (v == null || v.isEmpty()) {
            return null;
        }
        try {
            return java.time.OffsetDateTime.parse(v).toInstant();
        } catch (DateTimeParseException e) {
            throw ApiException.badRequest("parsing time \"" + v + "\" as \"2006-01-02T15:04:05Z07:00\": cannot parse");
        }
    }
}
