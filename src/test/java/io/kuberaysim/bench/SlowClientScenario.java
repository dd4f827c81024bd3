package io.kuberaysim.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Slow clients: {@code slowClients} connections each POST a 1,000-byte body and trickle it (10 bytes, then one byte
 * every 500 ms), more than Tomcat's 200 request threads. Measured before they connect and while they trickle:
 * {@code GET /version} latency (fresh connection each, 10 s deadline), the time a watch takes to answer, and the
 * server's request threads.
 */
final class SlowClientScenario {
    private static final String BODY_PATH = "/api/v1/namespaces/default/configmaps";
    private static final int DEADLINE_MS = 10_000;

    private SlowClientScenario() {
    }

    static void run(BenchConfig cfg, Report report) {
        int samples = (int) Math.min(100, Math.max(20, cfg.hostile().toMillis() / 20));
        try (SimServer server = SimServer.start(false)) {
            String threads = "-exec-"; // Tomcat's request threads (http-nio-<address>-<port>-exec-N)
            ServerProbes.headersLatencies(server.port, "/version", samples, DEADLINE_MS); // warm-up
            List<Double> before = ServerProbes.headersLatencies(server.port, "/version", samples, DEADLINE_MS);
            double watchBefore = ServerProbes.headersLatencyMs(server.port, BODY_PATH + "?watch=1", DEADLINE_MS);
            long threadsBefore = ServerProbes.threads(threads);

            List<Socket> slow = new ArrayList<>();
            ScheduledExecutorService trickle = Executors.newSingleThreadScheduledExecutor();
            try {
                for (int i = 0; i < cfg.slowClients(); i++) {
                    slow.add(open(server.port));
                }
                trickle.scheduleWithFixedDelay(() -> slow.forEach(SlowClientScenario::oneByte), 500, 500,
                        TimeUnit.MILLISECONDS);
                List<Double> during = ServerProbes.headersLatencies(server.port, "/version", samples, DEADLINE_MS);
                double watchDuring = ServerProbes.headersLatencyMs(server.port, BODY_PATH + "?watch=1", DEADLINE_MS);
                long threadsDuring = ServerProbes.threads(threads);

                String n = cfg.slowClients() + " trickling bodies";
                report.add("slowclients", "GET /version p50, no slow clients", ServerProbes.quantile(before, 0.5),
                        "ms", null, null);
                report.add("slowclients", "GET /version p99, no slow clients", ServerProbes.quantile(before, 0.99),
                        "ms", null, null);
                report.add("slowclients", "GET /version p50, " + n, ServerProbes.quantile(during, 0.5), "ms",
                        null, null);
                double p99 = ServerProbes.quantile(during, 0.99);
                long unanswered = ServerProbes.unanswered(during);
                report.add("slowclients", "GET /version p99, " + n, p99, "ms", "< 1,000",
                        unanswered == 0 && p99 < 1000);
                report.add("slowclients", "GET /version unanswered within 10 s, " + n, unanswered, "of " + samples,
                        "0", unanswered == 0);
                report.add("slowclients", "GET /version p99 ratio, " + n + " / none",
                        p99 / ServerProbes.quantile(before, 0.99), "ratio", null, null);
                report.add("slowclients", "watch answers (headers), no slow clients", watchBefore, "ms", null, null);
                report.add("slowclients", "watch answers (headers), " + n, watchDuring, "ms", "< 1,000",
                        watchDuring < 1000);
                report.add("slowclients", "server request threads, no slow clients → " + n,
                        threadsDuring, "threads (was " + threadsBefore + ")", null, null);
            } finally {
                trickle.shutdownNow();
                slow.forEach(ServerProbes::closeQuietly);
            }
        }
    }

    private static Socket open(int port) {
        try {
            Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
            s.getOutputStream().write(("POST " + BODY_PATH + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"metadata\"")
                    .getBytes(StandardCharsets.US_ASCII));
            return s;
        } catch (IOException e) {
            throw new IllegalStateException("could not open slow client " + e, e);
        }
    }

    private static void oneByte(Socket s) {
        try {
            s.getOutputStream().write(' ');
        } catch (IOException ignored) {
            // the server answered and closed it (408): it stays closed
        }
    }
}
