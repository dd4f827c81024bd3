package io.kuberaysim.apiserver.http.server;

import jakarta.servlet.ServletResponse;
import jakarta.servlet.ServletResponseWrapper;
import org.apache.catalina.connector.Response;
import org.apache.catalina.connector.ResponseFacade;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Tomcat's own response behind the one a servlet is handed (wrappers and the facade that hides it): the way to what
 * the Servlet API does not offer for a connection, such as cutting it or sizing its socket's buffers.
 */
final class ConnectorResponse {
    private static final VarHandle FACADE_RESPONSE = facadeResponse();

    private ConnectorResponse() {
    }

    /** Tomcat's response that {@code response} writes to, or null where it is not Tomcat's (or cannot be reached). */
    static Response of(ServletResponse response) {
        ServletResponse r = response;
        while (r instanceof ServletResponseWrapper w) {
            r = w.getResponse();
        }
        if (r instanceof Response direct) {
            return direct;
        }
        if (r instanceof ResponseFacade facade && FACADE_RESPONSE != null) {
            return (Response) FACADE_RESPONSE.get(facade);
        }
        return null;
    }

    private static VarHandle facadeResponse() {
        try {
            return MethodHandles.privateLookupIn(ResponseFacade.class, MethodHandles.lookup())
                    .findVarHandle(ResponseFacade.class, "response", Response.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // another Tomcat: responses are left as they are
        }
    }
}
