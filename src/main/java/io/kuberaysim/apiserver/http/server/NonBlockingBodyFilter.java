package io.kuberaysim.apiserver.http.server;

import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.http.FirstOccurrenceLog;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Reads request bodies without holding a thread. The body is collected with non-blocking reads as it arrives and
 * the request is then dispatched to the handlers with the body in memory, so a client that trickles its body costs
 * a connection, not one of the server's threads. A body that passes the size limit is refused with 413 at that
 * point (the rest is never read), one that has not arrived in full within the timeout gets 408, one that cannot be
 * read (broken chunking) 400; aborted bodies are logged once per cause. A body that had arrived in full with the
 * headers ({@link ArrivedBodyValve}) is taken at once: reading it cannot block.
 *
 * <p>Registered last in the filter chain, so every other filter has seen the request before its body is read.
 */
public final class NonBlockingBodyFilter implements Filter {
    private static final String BODY = NonBlockingBodyFilter.class.getName() + ".body";
    private static final FirstOccurrenceLog ABORTS = new FirstOccurrenceLog(
            LoggerFactory.getLogger(NonBlockingBodyFilter.class));

    private final long limit;
    private final Duration timeout;

    public NonBlockingBodyFilter(long limit, Duration timeout) {
        this.limit = limit;
        this.timeout = timeout;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        if (request.getDispatcherType() == DispatcherType.ASYNC && request.getAttribute(BODY) instanceof byte[] body) {
            request.removeAttribute(BODY);
            chain.doFilter(new BufferedBodyRequest(request, body), res);
            return;
        }
        if (request.getDispatcherType() != DispatcherType.REQUEST || !hasBody(request)
                || !request.isAsyncSupported()) {
            chain.doFilter(req, res);
            return;
        }
        if (Boolean.TRUE.equals(request.getAttribute(ArrivedBodyValve.ARRIVED))
                && request.getContentLengthLong() <= limit) {
            request.removeAttribute(ArrivedBodyValve.ARRIVED);
            byte[] body = request.getInputStream().readNBytes((int) request.getContentLengthLong());
            chain.doFilter(new BufferedBodyRequest(request, body), res);
            return;
        }
        AsyncContext async = request.startAsync();
        async.setTimeout(timeout.toMillis());
        BodyCollector collector = new BodyCollector(request, (HttpServletResponse) res, async);
        async.addListener(collector);
        request.getInputStream().setReadListener(collector);
    }

    /**
     * The body this filter read into memory for {@code request}, if nothing has read it since (the handler's read then
     * takes that array instead of copying it from a stream over it); null otherwise.
     */
    public static byte[] takeBody(ServletRequest request) {
        return BufferedBodyRequest.takeUnread(request);
    }

    private static String readable(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }

    private static boolean hasBody(HttpServletRequest request) {
        return request.getContentLengthLong() > 0 || request.getHeader("Transfer-Encoding") != null;
    }

    /** Collects one request's body; answers or dispatches exactly once. */
    private final class BodyCollector implements ReadListener, AsyncListener {
        private final HttpServletRequest request;
        private final HttpServletResponse response;
        private final AsyncContext async;
        private final ByteArrayOutputStream body;
        private final byte[] chunk = new byte[8192];
        private final AtomicBoolean finished = new AtomicBoolean();

        BodyCollector(HttpServletRequest request, HttpServletResponse response, AsyncContext async) {
            this.request = request;
            this.response = response;
            this.async = async;
            // grows as bytes arrive: a declared length is only a claim
            this.body = new ByteArrayOutputStream(8192);
        }

        @Override
        public void onDataAvailable() throws IOException {
            ServletInputStream in = request.getInputStream();
            while (!finished.get() && in.isReady()) {
                int n = in.read(chunk);
                if (n < 0) {
                    return; // onAllDataRead follows
                }
                body.write(chunk, 0, n);
                if (body.size() > limit) {
                    answer(ApiException.requestEntityTooLarge(limit));
                    return;
                }
            }
        }

        @Override
        public void onAllDataRead() {
            if (finished.compareAndSet(false, true)) {
                request.setAttribute(BODY, body.toByteArray());
                async.dispatch();
            }
        }

        @Override
        public void onError(Throwable t) {
            if (finished.get()) {
                return;
            }
            ABORTS.log(t.getClass().getName(), "request body of {} {} not received: {}", request.getMethod(),
                    request.getRequestURI(), t.toString());
            answer(ApiException.badRequest("the request body could not be read: " + t.getMessage()));
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            ABORTS.log("timeout", "request body of {} {} not received within {}", request.getMethod(),
                    request.getRequestURI(), readable(timeout));
            answer(new ApiException(408, "Timeout", "the request body was not received within "
                    + readable(timeout), null));
        }

        @Override
        public void onError(AsyncEvent event) {
            onError(event.getThrowable() == null ? new IOException("connection error") : event.getThrowable());
        }

        @Override
        public void onComplete(AsyncEvent event) {
            // answered or dispatched
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
            // the dispatched request may start its own asynchronous processing (a watch)
        }

        private void answer(ApiException status) {
            if (!finished.compareAndSet(false, true)) {
                return;
            }
            try {
                if (!response.isCommitted()) {
                    StatusResponses.write(response, status);
                }
            } catch (IOException | IllegalStateException e) {
                // the client is gone: there is no one to answer
            }
            async.complete();
        }
    }
}
