package io.kuberaysim.security;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.http.StatusBodies;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;

/** Writes a metav1 Status from a filter, before any handler (and its error advice) runs. */
final class StatusResponses {
    private StatusResponses() {
    }

    static void write(HttpServletResponse response, ApiException e) throws IOException {
        byte[] body = Json.MAPPER.writeValueAsBytes(StatusBodies.failure(e));
        response.setStatus(e.code());
        response.setContentType("application/json");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
