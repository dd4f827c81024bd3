package io.kuberaysim.apiserver.http;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.ResponseEntity;

import java.io.IOException;

/**
 * Writes the {@code ResponseEntity<byte[]>} a resource handler built straight to the servlet response: the same
 * status, headers, Content-Length and bytes that Spring MVC's {@code HttpEntityMethodProcessor} and
 * {@code ByteArrayHttpMessageConverter} write for it. Every such entity carries its Content-Type, which Spring takes
 * as it is, so the per-request search for a return value handler, message converter and media type skipped here
 * decided nothing (together ~15 % of a GET's server time). A handler that wrote its response returns null and
 * takes the {@code HttpServletResponse} argument, which tells Spring MVC that the request is handled.
 */
final class ResponseEntityWriter {
    private ResponseEntityWriter() {
    }

    /**
     * Writes {@code result} when it is an entity with a body of bytes and returns null; otherwise returns it as it is
     * for Spring MVC. So does a path whose last segment has a dot, path parameters or an escape ({@code .../kube-root-ca.crt}):
     * for those Spring MVC's guard against reflected file downloads may add a Content-Disposition header.
     */
    static Object write(HttpServletRequest req, HttpServletResponse res, Object result) throws IOException {
        if (!(result instanceof ResponseEntity<?> entity) || !(entity.getBody() instanceof byte[] body)
                || mayLookLikeFile(req.getRequestURI())) {
            return result;
        }
        res.setStatus(entity.getStatusCode().value());
        entity.getHeaders().forEach((name, values) -> values.forEach(v -> res.addHeader(name, v)));
        res.setContentLengthLong(body.length);
        res.getOutputStream().write(body);
        return null;
    }

    static boolean mayLookLikeFile(String uri) {
        for (int i = uri.length() - 1; i >= 0; i--) {
            char c = uri.charAt(i);
            if (c == '/') {
                return false;
            }
            if (c == '.' || c == ';' || c == '%') {
                return true;
            }
        }
        return false;
    }
}
