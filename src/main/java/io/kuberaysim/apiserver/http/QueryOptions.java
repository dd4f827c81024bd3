package io.kuberaysim.apiserver.http;

import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.registry.DeleteOptions;
import io.kuberaysim.apiserver.registry.ListOptions;
import io.kuberaysim.apiserver.registry.WriteOptions;
import io.kuberaysim.apiserver.validation.TypedDecoding;
import jakarta.servlet.http.HttpServletRequest;
import tools.jackson.databind.JsonNode;

import java.util.List;

/** Reads list, write and delete options from query parameters (and a DeleteOptions body), validating them. */
final class QueryOptions {
    private QueryOptions() {
    }

    /** List or watch options, validated as kube-apiserver's handlers do (422 for contradicting ones). */
    static ListOptions list(HttpServletRequest req) {
        ListOptions options = new ListOptions(req.getParameter("labelSelector"), req.getParameter("fieldSelector"),
                longParam(req, "limit"), req.getParameter("continue"), req.getParameter("resourceVersion"),
                longParam(req, "timeoutSeconds"), bool(req, "allowWatchBookmarks"),
                req.getParameter("sendInitialEvents") == null ? null : bool(req, "sendInitialEvents"),
                req.getParameter("resourceVersionMatch"));
        List<StatusCause> causes = options.validate(watch(req));
        if (!causes.isEmpty()) {
            throw ApiException.invalid("ListOptions.meta.k8s.io", "ListOptions", "meta.k8s.io", "", causes);
        }
        return options;
    }

    static boolean watch(HttpServletRequest req) {
        return bool(req, "watch");
    }

    static WriteOptions write(HttpServletRequest req) {
        return write(req, false);
    }

    /**
     * @param apply a server-side apply, whose fieldManager must be given; other writes without one are managed by
     *              the User-Agent's product ({@code kubectl} of {@code kubectl/v1.32.0 (linux/amd64)}), as
     *              kube-apiserver names them
     */
    static WriteOptions write(HttpServletRequest req, boolean apply) {
        String manager = req.getParameter("fieldManager");
        String agent = req.getHeader("User-Agent");
        if (manager != null && !manager.isEmpty()) {
            validateFieldManager(manager, req.getMethod());
        } else if (!apply && agent != null && !agent.isEmpty()) {
            manager = managerFromUserAgent(agent);
        }
        return new WriteOptions(dryRun(req.getParameterValues("dryRun")), fieldValidation(req),
                manager, req.getParameter("force") == null ? null : bool(req, "force"));
    }

    /** The most bytes a fieldManager may have (apimachinery's {@code FieldManagerMaxLength}). */
    private static final int FIELD_MANAGER_MAX_BYTES = 128;

    /**
     * apimachinery's {@code ValidateFieldManager}, run on the Create/Update/PatchOptions of the request: at most 128
     * bytes, printable characters only; a 422 naming the options kind, as kube-apiserver answers.
     */
    private static void validateFieldManager(String manager, String method) {
        List<StatusCause> causes = new java.util.ArrayList<>();
        if (manager.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > FIELD_MANAGER_MAX_BYTES) {
            causes.add(StatusCause.tooLong("fieldManager", FIELD_MANAGER_MAX_BYTES));
        }
        int bytePosition = 0;
        for (int i = 0; i < manager.length(); ) {
            int cp = manager.codePointAt(i);
            if (!printable(cp)) {
                causes.add(StatusCause.invalid("fieldManager", manager,
                        "invalid character U+%04X (at position %d)".formatted(cp, bytePosition)));
            }
            bytePosition += new String(Character.toChars(cp)).getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
            i += Character.charCount(cp);
        }
        if (!causes.isEmpty()) {
            String kind = switch (method) {
                case "POST" -> "CreateOptions";
                case "PUT" -> "UpdateOptions";
                default -> "PatchOptions";
            };
            throw ApiException.invalid(kind + ".meta.k8s.io", kind, "meta.k8s.io", "", causes);
        }
    }

    /**
     * kube-apiserver's manager for a write that names none: the User-Agent's product, non-printable characters
     * left out, at most 128 characters.
     */
    private static String managerFromUserAgent(String agent) {
        StringBuilder out = new StringBuilder();
        String product = agent.split("/", 2)[0];
        for (int i = 0; i < product.length() && out.length() < FIELD_MANAGER_MAX_BYTES; ) {
            int cp = product.codePointAt(i);
            if (printable(cp)) {
                out.appendCodePoint(cp);
            }
            i += Character.charCount(cp);
        }
        return out.toString();
    }

    /** Go's {@code unicode.IsPrint}: letters, marks, numbers, punctuation, symbols and the ASCII space. */
    private static boolean printable(int cp) {
        if (cp == ' ') {
            return true;
        }
        return switch (Character.getType(cp)) {
            case Character.CONTROL, Character.FORMAT, Character.SURROGATE, Character.PRIVATE_USE,
                 Character.UNASSIGNED, Character.SPACE_SEPARATOR, Character.LINE_SEPARATOR,
                 Character.PARAGRAPH_SEPARATOR -> false;
            default -> true;
        };
    }

    static boolean dryRun(String[] values) {
        if (values == null) {
            return false;
        }
        for (String v : values) {
            if (!v.equals("All")) {
                throw ApiException.badRequest("dryRun: Unsupported value: \"" + v + "\": supported values: \"All\"");
            }
        }
        return values.length > 0;
    }

    private static WriteOptions.FieldValidation fieldValidation(HttpServletRequest req) {
        String v = req.getParameter("fieldValidation");
        if (v == null || v.isEmpty()) {
            return WriteOptions.FieldValidation.WARN;
        }
        return switch (v) {
            case "Strict" -> WriteOptions.FieldValidation.STRICT;
            case "Warn" -> WriteOptions.FieldValidation.WARN;
            case "Ignore" -> WriteOptions.FieldValidation.IGNORE;
            default -> throw ApiException.badRequest("fieldValidation directive must be one of \"Strict\", "
                    + "\"Warn\" or \"Ignore\", got \"" + v + "\"");
        };
    }

    static DeleteOptions delete(HttpServletRequest req, JsonNode body) {
        String policy = req.getParameter("propagationPolicy");
        Long grace = longParam(req, "gracePeriodSeconds");
        Boolean orphan = req.getParameter("orphanDependents") == null ? null : bool(req, "orphanDependents");
        boolean dryRun = dryRun(req.getParameterValues("dryRun"));
        String uid = null;
        String rv = null;
        if (body != null) {
            checkDeleteOptionsBody(body);
            JsonNode p = body.get("propagationPolicy");
            if (p != null && !p.isNull()) {
                policy = p.asString();
            }
            JsonNode g = body.get("gracePeriodSeconds");
            if (g != null && !g.isNull()) {
                grace = g.asLong();
            }
            JsonNode o = body.get("orphanDependents");
            if (o != null && !o.isNull()) {
                orphan = o.asBoolean();
            }
            JsonNode d = body.get("dryRun");
            if (d != null && d.isArray()) {
                List<String> values = new java.util.ArrayList<>();
                d.forEach(x -> values.add(x.asString()));
                dryRun = dryRun || dryRun(values.toArray(String[]::new));
            }
            JsonNode pre = body.get("preconditions");
            if (pre != null && pre.isObject()) {
                uid = pre.path("uid").isString() ? pre.get("uid").asString() : null;
                rv = pre.path("resourceVersion").isString() ? pre.get("resourceVersion").asString() : null;
            }
        }
        if (grace != null && grace < 0) {
            grace = 0L;
        }
        return new DeleteOptions(policy, grace, uid, rv, dryRun, orphan);
    }

    /**
     * A DELETE body is a metav1.DeleteOptions, decoded as strictly as kube-apiserver decodes it: a field of the
     * wrong type ({@code "dryRun":"All"}, {@code "preconditions":{"uid":5}}) or a body of another kind is a 400,
     * before anything is deleted, rather than options silently ignored.
     */
    private static void checkDeleteOptionsBody(JsonNode body) {
        TypedDecoding.check(body, io.fabric8.kubernetes.api.model.DeleteOptions.class)
                .ifPresent(m -> {
                    throw ApiException.badRequest(m.goMessage());
                });
        String kind = body.path("kind").asString("");
        if (!kind.isEmpty() && !kind.equals("DeleteOptions")) {
            throw ApiException.badRequest("decoded object cannot be converted to DeleteOptions");
        }
    }

    private static boolean bool(HttpServletRequest req, String name) {
        String v = req.getParameter(name);
        if (v == null) {
            return false;
        }
        return switch (v.toLowerCase()) {
            case "true", "1", "" -> true;
            case "false", "0" -> false;
            default -> throw ApiException.badRequest(name + ": invalid boolean value \"" + v + "\"");
        };
    }

    private static Long longParam(HttpServletRequest req, String name) {
        String v = req.getParameter(name);
        if (v == null || v.isEmpty()) {
            return null;
        }
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest(name + ": invalid integer value \"" + v + "\"");
        }
    }
}
