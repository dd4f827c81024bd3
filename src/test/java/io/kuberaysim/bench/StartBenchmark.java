package io.kuberaysim.bench;

import io.kuberaysim.KuberaySimApplication;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Scenario start: how long after its JVM starts the server answers {@code GET /version}, as a user starts it
 * ({@code java -cp … KuberaySimApplication --server.port=P}, the defaults otherwise: wall clock, controllers on),
 * measured from just before the process is started until the first 200, polling every 10 ms; a fresh JVM per round.
 */
final class StartBenchmark {
    private static final long LIMIT_NANOS = TimeUnit.SECONDS.toNanos(120);

    private StartBenchmark() {
    }

    static void run(BenchConfig cfg, Report report) {
        if (cfg.name().equals("smoke")) {
            return; // fresh JVMs cost the normal build more than the check is worth
        }
        List<Double> seconds = new ArrayList<>();
        try {
            for (int i = 0; i < Math.max(1, cfg.rounds()); i++) {
                Double s = once();
                if (s == null) {
                    report.note("start: the server did not answer /version within 120 s");
                    return;
                }
                seconds.add(s);
            }
        } catch (IOException e) {
            report.note("start: could not start the server: " + e);
            return;
        }
        Stats s = Stats.of(seconds);
        report.add("start", "`GET /version` answered after the JVM starts (fresh JVM per round)", s, "s", "≤ 2",
                s.median() <= 2);
    }

    private static Double once() throws IOException {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                KuberaySimApplication.class.getName(), "--server.port=" + port)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
        URI version = URI.create("http://127.0.0.1:" + port + "/version");
        long t0 = System.nanoTime();
        Process p = pb.start();
        try {
            while (System.nanoTime() - t0 < LIMIT_NANOS && p.isAlive()) {
                if (answers(version)) {
                    return (System.nanoTime() - t0) / 1e9;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
            return null;
        } finally {
            p.destroy();
            try {
                if (!p.waitFor(30, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
            }
        }
    }

    private static boolean answers(URI uri) {
        try {
            HttpURLConnection c = (HttpURLConnection) uri.toURL().openConnection();
            c.setConnectTimeout(200);
            c.setReadTimeout(1_000);
            try {
                return c.getResponseCode() == 200;
            } finally {
                c.disconnect();
            }
        } catch (IOException e) {
            return false; // not listening yet
        }
    }
}
