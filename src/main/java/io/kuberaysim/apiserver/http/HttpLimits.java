package io.kuberaysim.apiserver.http;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;

/**
 * What one client may cost the server ({@code kuberay-sim.*}): the size of a request body, how long it may take to
 * arrive, and how many events may wait for a watcher that reads nothing.
 *
 * @param maxRequestBodyBytes largest request body accepted; larger ones get 413 before they are read
 *                            (kube-apiserver's limit is 3 MiB)
 * @param requestBodyTimeout  time a request body may take to arrive in full; slower ones get 408
 * @param watchBuffer         events queued for one watcher; a watcher whose buffer is full while its client reads
 *                            nothing is closed, as kube-apiserver's watch cache closes unresponsive watchers
 * @param watchSendBuffer     bytes of the kernel's send buffer of a watch connection (what a client that stops
 *                            reading takes before the server stops writing to it); 0 keeps the system's own
 */
@ConfigurationProperties("kuberay-sim")
public record HttpLimits(Long maxRequestBodyBytes, Duration requestBodyTimeout, Integer watchBuffer,
                         Integer watchSendBuffer) {
    public static final long DEFAULT_MAX_REQUEST_BODY_BYTES = 3L * 1024 * 1024;
    public static final Duration DEFAULT_REQUEST_BODY_TIMEOUT = Duration.ofSeconds(60);
    public static final int DEFAULT_WATCH_BUFFER = 1000;
    /** Linux grows a loopback connection's send buffer to ~190 KB on its own: ~700 small events per stalled watcher. */
    public static final int DEFAULT_WATCH_SEND_BUFFER = 32 * 1024;

    public HttpLimits {
        maxRequestBodyBytes = maxRequestBodyBytes == null ? DEFAULT_MAX_REQUEST_BODY_BYTES : maxRequestBodyBytes;
        requestBodyTimeout = requestBodyTimeout == null ? DEFAULT_REQUEST_BODY_TIMEOUT : requestBodyTimeout;
        watchBuffer = watchBuffer == null ? DEFAULT_WATCH_BUFFER : watchBuffer;
        watchSendBuffer = watchSendBuffer == null ? DEFAULT_WATCH_SEND_BUFFER : watchSendBuffer;
        if (maxRequestBodyBytes < 1 || maxRequestBodyBytes > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("kuberay-sim.max-request-body-bytes must be between 1 and "
                    + (Integer.MAX_VALUE - 8) + ", was " + maxRequestBodyBytes);
        }
        if (requestBodyTimeout.isNegative() || requestBodyTimeout.isZero()) {
            throw new IllegalArgumentException("kuberay-sim.request-body-timeout must be positive, was "
                    + requestBodyTimeout);
        }
        if (watchBuffer < 1) {
            throw new IllegalArgumentException("kuberay-sim.watch-buffer must be at least 1, was " + watchBuffer);
        }
        if (watchSendBuffer < 0) {
            throw new IllegalArgumentException("kuberay-sim.watch-send-buffer must be 0 (the system's) or more, was "
                    + watchSendBuffer);
        }
    }
}
