package io.kuberaysim.apiserver.http.server;

import jakarta.servlet.ServletResponse;
import org.apache.catalina.connector.Response;
import org.apache.coyote.ActionCode;

/**
 * Closes the connection of a streamed response at once, without writing what is still buffered. An asynchronous
 * response that is completed while its client reads nothing never completes in Tomcat: the container waits to write
 * the end of the body, the request stays in progress, and a graceful shutdown waits for it until its timeout. The
 * Servlet API has no way to abort a connection, so this reaches Tomcat's own (the close a failed write triggers)
 * through the response facade; elsewhere it does nothing and says so.
 */
public final class ConnectionCutter {
    private ConnectionCutter() {
    }

    /**
     * Closes the connection {@code response} is written to, from any thread, while the response is still in
     * progress (its asynchronous request not completed).
     *
     * @return false if the container is not one this can cut (then nothing was done)
     */
    public static boolean cut(ServletResponse response) {
        Response connector = ConnectorResponse.of(response);
        if (connector == null) {
            return false;
        }
        // what Tomcat does when a write fails: no more I/O, the connection closed, the asynchronous request ended
        // with an error event to its listeners
        connector.getCoyoteResponse().action(ActionCode.CLOSE_NOW, null);
        return true;
    }
}
