package io.kuberaysim.apiserver.http.server;

import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.http.StatusBodies;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;

/** Writes a Status straight to a servlet response, for code that runs before or outside Spring MVC. */
final class StatusResponses {
    private StatusResponses() {
    }

    static void write(HttpServletResponse response, ApiException e) throws IOException {
        byte[] body = StatusBodies.failureJson(e);
        response.setStatus(e.code());
        response.setContentType("application/json");
        response.setContentLength(body.length);
        // not flushed here: Tomcat commits the response when the request ends, and only then does a 408 or 413
        // close the connection instead of draining the unread body
        response.getOutputStream().write(body);
    }
}
