package io.kuberaysim.apiserver.http.server;

import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.http.ContainerErrors;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Tomcat's error report, as a Status instead of an HTML page: for what Tomcat rejects before any servlet runs
 * (encoded {@code /}, {@code \} or NUL in a path, bad percent-encoding, request lines or headers over the limit,
 * CONNECT) and for errors no error page answered. Replaces the host's {@link ErrorReportValve}.
 */
public class StatusErrorReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int code = response.getStatus();
        // as the HTML report: only errors, only if nothing was written, only once
        if (code < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        AtomicBoolean ioAllowed = new AtomicBoolean(false);
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
        if (!ioAllowed.get()) {
            return;
        }
        ApiException status = throwable instanceof ApiException api ? api
                : ContainerErrors.of(code, request.getMethod(), message(response, throwable));
        try {
            response.resetBuffer();
            StatusResponses.write(response.getResponse(), status);
        } catch (IOException | IllegalStateException e) {
            // the client is gone or the response cannot be written: nothing more to report
        }
    }

    /** Tomcat's message: the one given to sendError, else the first line of the parse or processing error. */
    private static String message(Response response, Throwable throwable) {
        if (response.getMessage() != null && !response.getMessage().isBlank()) {
            return response.getMessage();
        }
        Throwable cause = throwable != null ? throwable : response.getCoyoteResponse().getErrorException();
        if (cause == null || cause.getMessage() == null || cause.getMessage().isBlank()) {
            return null;
        }
        return cause.getMessage().lines().findFirst().orElse(null);
    }
}
