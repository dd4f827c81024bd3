package io.kuberaysim.apiserver.http;

import io.kuberaysim.apiserver.errors.ApiException;

/**
 * Statuses for the errors the servlet container raises before a request reaches a handler (malformed request
 * lines, URIs, headers, methods it refuses): the container's code with kube-apiserver's reason for that code.
 */
public final class ContainerErrors {
    private ContainerErrors() {
    }

    /**
     * @param code    the container's status code
     * @param method  the request method (CONNECT is refused as 405, as every other method kube-apiserver lacks)
     * @param message the container's message, may be null
     */
    public static ApiException of(int code, String method, String message) {
        if (code == 405 || "CONNECT".equalsIgnoreCase(method) || "TRACE".equalsIgnoreCase(method)) {
            return methodNotAllowed();
        }
        if (code == 404) {
            return ApiException.pathNotFound();
        }
        String text = message == null || message.isBlank() ? defaultMessage(code) : message;
        if (code == 501) {
            // Tomcat's answer to a transfer coding it does not know: the client's mistake, not the server's
            return ApiException.badRequest(text);
        }
        if (code >= 500) {
            return ApiException.internal(text);
        }
        return new ApiException(code, reason(code), text, null);
    }

    /** The Status kube-apiserver gives a method it does not serve on a path. */
    public static ApiException methodNotAllowed() {
        return new ApiException(405, "MethodNotAllowed",
                "the server does not allow this method on the requested resource", null);
    }

    /** kube-apiserver's reason for a code (apimachinery's NewGenericServerResponse); empty when it has none. */
    static String reason(int code) {
        return switch (code) {
            case 400 -> "BadRequest";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "NotFound";
            case 405 -> "MethodNotAllowed";
            case 406 -> "NotAcceptable";
            case 408, 504 -> "Timeout";
            case 409 -> "Conflict";
            case 410 -> "Gone";
            case 413 -> "RequestEntityTooLarge";
            case 415 -> "UnsupportedMediaType";
            case 422 -> "Invalid";
            case 429 -> "TooManyRequests";
            case 503 -> "ServiceUnavailable";
            default -> code >= 500 ? "InternalError" : code >= 400 ? "BadRequest" : "";
        };
    }

    private static String defaultMessage(int code) {
        return switch (code) {
            case 408 -> "the request was not received in time";
            case 413 -> "Request entity too large";
            case 414 -> "the request URI is too long";
            case 431 -> "the request headers are too large";
            case 501 -> "the transfer encoding of the request is not supported";
            default -> code >= 500 ? "the server could not handle the request" : "the request is malformed";
        };
    }
}
