package io.kuberaysim.apiserver.http.server;

import jakarta.servlet.ServletResponse;
import jakarta.servlet.ServletResponseWrapper;
import org.apache.catalina.connector.Response;
import org.apache.catalina.connector.ResponseFacade;
import org.apache.coyote.ActionCode;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Closes the connection of a streamed response at once, without writing what is still buffered. An asynchronous
 * response that is completed while its client reads nothing never completes in Tomcat: the container waits to write
 * the end of the body, the request stays in progress, and a graceful shutdown waits for it until its timeout. The
 * Servlet API has no way to abort a connection, so this reaches Tomcat's own (the close a failed write triggers)
 * through the response facade; elsewhere it does nothing and says so.
 */
public final class ConnectionCutter {
    private static final VarHandle FACADE_RESPONSE = facadeResponse();

    private ConnectionCutter() {
    }

    /**
     * Closes the connection {@code response} is written to, from any thread, while the response is still in
     * progress (its asynchronous request not completed).
     *
     * @return false if the container is not one this can cut (then nothing was done)
     */
    public static boolean cut(ServletResponse response) {
        ServletResponse r = response;
        while (r instanceof ServletResponseWrapper w) {
            r = w.getResponse();
        }
        Response connector = null;
        if (r instanceof Response direct) {
            connector = direct;
        } else if (r instanceof ResponseFacade facade && FACADE_RESPONSE != null) {
            connector = (Response) FACADE_RESPONSE.get(facade);
        }
        if (connector == null) {
            return false;
        }
        // what Tomcat does when a write fails: no more I/O, the connection closed, the asynchronous request ended
        // with an error event to its listeners
        connector.getCoyoteResponse().action(ActionCode.CLOSE_NOW, null);
        return true;
    }

    private static VarHandle facadeResponse() {
        try {
            return MethodHandles.privateLookupIn(ResponseFacade.class, MethodHandles.lookup())
                    .findVarHandle(ResponseFacade.class, "response", Response.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // another Tomcat: cutting is unavailable, responses end as usual
        }
    }
}
