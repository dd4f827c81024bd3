package io.kuberaysim.observability.metrics;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.servlet.HandlerMapping;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Records every HTTP request in kube-apiserver's request metrics ({@link ApiServerRequestMetrics}). A watch is
 * long-running: it counts in {@code apiserver_longrunning_requests} while its stream is open and in
 * {@code apiserver_request_total} and the duration histogram when the stream ends.
 */
public final class RequestMetricsFilter implements Filter {
    private final ApiServerRequestMetrics metrics;

    public RequestMetricsFilter(ApiServerRequestMetrics metrics) {
        this.metrics = metrics;
    }

    /** Registered for request dispatches only, so it sees each request once (no async or error re-dispatch). */
    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
            throws ServletException, IOException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        RequestInfo info = RequestInfo.of(request);
        long start = metrics.now();
        if (info.resourceRequest() && info.bodyVerb() != null && request.getContentLengthLong() >= 0) {
            metrics.bodySize(info, request.getContentLengthLong());
        }
        if (info.longRunning()) {
            metrics.longRunning(info, 1);
        } else {
            metrics.inFlight(info, 1);
        }
        boolean async = false;
        try {
            chain.doFilter(request, response);
            if (request.isAsyncStarted()) {
                async = true;
                request.getAsyncContext().addListener(new Completion(request, response, info, start));
            }
        } catch (IOException | ServletException | RuntimeException | Error e) {
            finish(request, 500, info, start);
            throw e;
        } finally {
            if (!async) {
                finish(request, response.getStatus(), info, start);
            }
        }
    }

    private void finish(HttpServletRequest request, int code, RequestInfo info, long start) {
        if (info.longRunning()) {
            metrics.longRunning(info, -1);
        } else {
            metrics.inFlight(info, -1);
        }
        metrics.finished(info.resourceRequest() ? info : info.forPath(path(request)), code, start);
    }

    /**
     * A non-resource request is labelled with its path as kube-apiserver does, in the form of the handler's mapping
     * pattern ({@code /readyz/{check}}), so that unknown paths and path variables cannot grow the number of series
     * without bound; a path no handler serves is "other".
     */
    private static String path(HttpServletRequest request) {
        Object pattern = request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
        return pattern == null ? "other" : pattern.toString();
    }

    /** Records an asynchronous (streaming) request once its response completes, fails or times out. */
    private final class Completion implements AsyncListener {
        private final HttpServletRequest request;
        private final HttpServletResponse response;
        private final RequestInfo info;
        private final long start;
        private final AtomicBoolean done = new AtomicBoolean();

        Completion(HttpServletRequest request, HttpServletResponse response, RequestInfo info, long start) {
            this.request = request;
            this.response = response;
            this.info = info;
            this.start = start;
        }

        private void end(int code) {
            if (done.compareAndSet(false, true)) {
                finish(request, code, info, start);
            }
        }

        @Override
        public void onComplete(AsyncEvent event) {
            end(response.getStatus());
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            end(response.getStatus());
        }

        @Override
        public void onError(AsyncEvent event) {
            end(response.getStatus());
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
            // the request is still running
        }
    }
}
