package io.kuberaysim.apiserver.http.server;

import jakarta.servlet.ServletException;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.apache.coyote.ActionCode;

import java.io.IOException;

/**
 * Notes a request whose whole declared body came in with its headers, so it already sits in the connection's read
 * buffer: {@link NonBlockingBodyFilter} then takes it at once instead of collecting it with non-blocking reads and
 * an asynchronous dispatch (a second pass through the container on another thread), which is what most API writes
 * would otherwise pay. Chunked bodies and bodies still on their way keep the non-blocking path.
 */
public final class ArrivedBodyValve extends ValveBase {
    /** Request attribute set (to {@code Boolean.TRUE}) when the declared body is in the read buffer. */
    static final String ARRIVED = ArrivedBodyValve.class.getName() + ".arrived";

    public ArrivedBodyValve() {
        super(true);
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        long declared = request.getContentLengthLong();
        if (declared > 0 && request.getHeader("Transfer-Encoding") == null) {
            org.apache.coyote.Request coyote = request.getCoyoteRequest();
            // bytes already read from the socket past the headers; FALSE: do not read the socket to find out
            coyote.action(ActionCode.AVAILABLE, Boolean.FALSE);
            if (coyote.getAvailable() >= declared) {
                request.setAttribute(ARRIVED, Boolean.TRUE);
            }
        }
        getNext().invoke(request, response);
    }
}
