package io.kuberaysim.apiserver.http.server;

import io.kuberaysim.apiserver.errors.ApiException;
import jakarta.servlet.ServletException;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;

import java.io.IOException;

/**
 * Refuses a request whose declared {@code Content-Length} is over the limit before a byte of its body is read:
 * 413 RequestEntityTooLarge, no {@code 100 Continue}, and the connection is closed rather than drained (Tomcat drops
 * the connection after a 413). Runs in the context pipeline, ahead of the valve that acknowledges
 * {@code Expect: 100-continue}.
 */
public final class DeclaredBodyLimitValve extends ValveBase {
    private final long limit;

    public DeclaredBodyLimitValve(long limit) {
        super(true);
        this.limit = limit;
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        if (request.getContentLengthLong() > limit) {
            StatusResponses.write(response.getResponse(), ApiException.requestEntityTooLarge(limit));
            return;
        }
        getNext().invoke(request, response);
    }
}
