package io.kuberaysim.apiserver.errors;

import io.kuberaysim.api.ResourceType;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A request failure carrying everything a metav1 {@code Status} needs. Every layer throws this; the HTTP
 * layer turns it into a Status body in one place. Factory methods reproduce kube-apiserver's messages.
 */
public final class ApiException extends RuntimeException {
    private final int code;
    private final String reason;
    private final StatusDetails details;
    private final String continueToken;

    public ApiException(int code, String reason, String message, StatusDetails details) {
        this(code, reason, message, details, null);
    }

    private ApiException(int code, String reason, String message, StatusDetails details, String continueToken) {
        super(message, null, false, false);
        this.code = code;
        this.reason = reason;
        this.details = details;
        this.continueToken = continueToken;
    }

    /** Name, group, kind (the plural resource for resource errors), uid and causes of a Status. */
    public record StatusDetails(String name, String group, String kind, String uid, List<StatusCause> causes,
                                Integer retryAfterSeconds) {
        public static StatusDetails of(ResourceType type, String name) {
            return new StatusDetails(name, type.group(), type.plural(), null, List.of(), null);
        }
    }

    public int code() {
        return code;
    }

    public String reason() {
        return reason;
    }

    public StatusDetails details() {
        return details;
    }

    /** The Status's {@code metadata.continue}: where an expired paged list can go on, inconsistently. */
    public String continueToken() {
        return continueToken;
    }

    /**
     * This error as kube-apiserver words it for a request to {@code served}, another version of {@code stored}
     * ({@code events.events.k8s.io "x" not found} rather than {@code events "x" not found}).
     */
    public ApiException as(ResourceType stored, ResourceType served) {
        if (details == null || !stored.group().equals(details.group())
                || !(stored.plural().equals(details.kind()) || stored.kind().equals(details.kind()))) {
            return this;
        }
        String message = getMessage();
        for (String[] pair : new String[][] {{stored.groupResource() + " \"", served.groupResource() + " \""},
                {stored.groupKind() + " \"", served.groupKind() + " \""},
                {"on " + stored.groupResource() + " \"", "on " + served.groupResource() + " \""},
                {"kind \"" + stored.groupResource() + "\"", "kind \"" + served.groupResource() + "\""}}) {
            if (message.startsWith(pair[0]) || message.contains(pair[0])) {
                message = message.replace(pair[0], pair[1]);
                break;
            }
        }
        String kind = details.kind().equals(stored.plural()) ? served.plural() : served.kind();
        return new ApiException(code, reason, message, new StatusDetails(details.name(), served.group(), kind,
                details.uid(), details.causes(), details.retryAfterSeconds()));
    }

    public static ApiException notFound(ResourceType type, String name) {
        return new ApiException(404, "NotFound", type.groupResource() + " \"" + name + "\" not found",
                StatusDetails.of(type, name));
    }

    public static ApiException namespaceNotFound(String namespace) {
        return new ApiException(404, "NotFound", "namespaces \"" + namespace + "\" not found",
                new StatusDetails(namespace, "", "namespaces", null, List.of(), null));
    }

    public static ApiException pathNotFound() {
        return new ApiException(404, "NotFound", "the server could not find the requested resource", null);
    }

    public static ApiException alreadyExists(ResourceType type, String name) {
        return new ApiException(409, "AlreadyExists", type.groupResource() + " \"" + name + "\" already exists",
                StatusDetails.of(type, name));
    }

    public static ApiException generateNameConflict(ResourceType type, String name) {
        return new ApiException(409, "AlreadyExists", type.groupResource() + " \"" + name
                + "\" already exists, the server was not able to generate a unique name for the object",
                new StatusDetails(name, type.group(), type.plural(), null, List.of(), 1));
    }

    public static ApiException conflict(ResourceType type, String name, String why) {
        return new ApiException(409, "Conflict", "Operation cannot be fulfilled on " + type.groupResource() + " \""
                + name + "\": " + why, StatusDetails.of(type, name));
    }

    public static ApiException modifiedConflict(ResourceType type, String name) {
        return conflict(type, name,
                "the object has been modified; please apply your changes to the latest version and try again");
    }

    /** 422 Invalid: {@code Kind.group "name" is invalid: field: message} (several causes are bracketed). */
    public static ApiException invalid(ResourceType type, String name, List<StatusCause> causes) {
        return invalid(type.groupKind(), type.kind(), type.group(), name, causes);
    }

    public static ApiException invalid(String qualifiedKind, String kind, String group, String name,
                                       List<StatusCause> causes) {
        String text = causes.size() == 1 ? causes.get(0).describe()
                : causes.stream().map(StatusCause::describe).collect(Collectors.joining(", ", "[", "]"));
        return new ApiException(422, "Invalid", qualifiedKind + " \"" + name + "\" is invalid: " + text,
                new StatusDetails(name, group, kind, null, List.copyOf(causes), null));
    }

    public static ApiException badRequest(String message) {
        return new ApiException(400, "BadRequest", message, null);
    }

    public static ApiException methodNotSupported(ResourceType type, String action) {
        return new ApiException(405, "MethodNotAllowed", action + " is not supported on resources of kind \""
                + type.groupResource() + "\"", new StatusDetails(null, type.group(), type.plural(), null, List.of(), null));
    }

    /**
     * A verb the resource does not serve (a write of a read-only resource): kube-apiserver has no route for it, and
     * its router's 405 carries this message and empty details.
     */
    public static ApiException methodNotAllowed() {
        return new ApiException(405, "MethodNotAllowed",
                "the server does not allow this method on the requested resource",
                new StatusDetails(null, null, null, null, List.of(), null));
    }

    public static ApiException unsupportedMediaType(List<String> accepted) {
        return new ApiException(415, "UnsupportedMediaType",
                "the body of the request was in an unknown format - accepted media types include: "
                        + String.join(", ", accepted), null);
    }

    public static ApiException notAcceptable(List<String> accepted) {
        return new ApiException(406, "NotAcceptable",
                "only the following media types are accepted: " + String.join(", ", accepted), null);
    }

    public static ApiException expired(String message) {
        return new ApiException(410, "Expired", message, null);
    }

    /** 410 for a list continued from a snapshot that left the history; {@code continueToken} goes on at the latest. */
    public static ApiException expiredContinue(String message, String continueToken) {
        return new ApiException(410, "Expired", message, null, continueToken);
    }

    /**
     * 504 for a read at a resourceVersion the store has not reached (storage's {@code TooLargeResourceVersionError}).
     *
     * @param retryAfterSeconds the client's wait before retrying; null leaves it out
     */
    public static ApiException tooLargeResourceVersion(long requested, long current, Integer retryAfterSeconds) {
        return new ApiException(504, "Timeout", "Timeout: Too large resource version: " + requested + ", current: "
                + current, new StatusDetails(null, null, null, null,
                List.of(new StatusCause("ResourceVersionTooLarge", "Too large resource version", null)),
                retryAfterSeconds));
    }

    /**
     * 504 for a request the storage (etcd) did not complete in time, as kube-apiserver answers when etcd is
     * unreachable; the client retries after a second.
     */
    public static ApiException storageTimeout(String why) {
        return new ApiException(504, "Timeout", "Timeout: request did not complete within requested timeout - "
                + why, new StatusDetails(null, null, null, null, List.of(), 1));
    }

    public static ApiException forbidden(ResourceType type, String name, String why) {
        String target = name == null || name.isEmpty() ? type.groupResource() : type.groupResource() + " \"" + name + "\"";
        return new ApiException(403, "Forbidden", target + " is forbidden: " + why, StatusDetails.of(type, name));
    }

    /** kube-apiserver's answer to a request body over its limit. */
    public static ApiException requestEntityTooLarge(long limit) {
        return new ApiException(413, "RequestEntityTooLarge", "Request entity too large: limit is " + limit, null);
    }

    public static ApiException internal(String message) {
        return new ApiException(500, "InternalError", "Internal error occurred: " + message, null);
    }
}
