package io.kuberaysim.apiserver.http.server;

import jakarta.servlet.ServletResponse;
import org.apache.catalina.connector.Response;
import org.apache.coyote.AbstractProcessor;
import org.apache.tomcat.util.net.Nio2Channel;
import org.apache.tomcat.util.net.NioChannel;
import org.apache.tomcat.util.net.SocketWrapperBase;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.StandardSocketOptions;
import java.nio.channels.NetworkChannel;

/**
 * Sizes the kernel's send buffer (SO_SNDBUF) of the connection one response is written to. A client that stops
 * reading takes a send buffer's worth of the server's writes before its connection stops accepting data, and on
 * loopback Linux grows that buffer to about 190 KB per connection: a watch sized here stalls sooner, at the cost of
 * a reading client's throughput over long round trips (a send buffer's worth per round trip). The Servlet API does
 * not reach the socket, so this goes through Tomcat's processor to its channel; elsewhere it does nothing and says so.
 */
public final class SocketSendBuffer {
    private static final VarHandle PROCESSOR = field(org.apache.coyote.Response.class, "hook",
            org.apache.coyote.ActionHook.class);
    private static final VarHandle SOCKET = field(AbstractProcessor.class, "socketWrapper", SocketWrapperBase.class);

    private SocketSendBuffer() {
    }

    /**
     * Sets the send buffer of the connection {@code response} is written to (the kernel may round it, Linux doubles
     * it for its bookkeeping); the buffer no longer grows on its own after this.
     *
     * @return false if the connection could not be reached or refused the size (then it keeps its own)
     */
    public static boolean set(ServletResponse response, int bytes) {
        Response connector = ConnectorResponse.of(response);
        if (connector == null || PROCESSOR == null || SOCKET == null) {
            return false;
        }
        if (!(PROCESSOR.get(connector.getCoyoteResponse()) instanceof AbstractProcessor processor)) {
            return false;
        }
        SocketWrapperBase<?> wrapper = (SocketWrapperBase<?>) SOCKET.get(processor);
        Object socket = wrapper == null ? null : wrapper.getSocket();
        NetworkChannel channel = null;
        if (socket instanceof NioChannel nio) {
            channel = nio.getIOChannel();
        } else if (socket instanceof Nio2Channel nio2) {
            channel = nio2.getIOChannel();
        }
        if (channel == null) {
            return false;
        }
        try {
            channel.setOption(StandardSocketOptions.SO_SNDBUF, bytes);
            return true;
        } catch (IOException | RuntimeException e) {
            return false; // closed meanwhile, or a channel without the option
        }
    }

    private static VarHandle field(Class<?> owner, String name, Class<?> type) {
        try {
            return MethodHandles.privateLookupIn(owner, MethodHandles.lookup()).findVarHandle(owner, name, type);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // another Tomcat: connections keep the buffers the system gives them
        }
    }
}
