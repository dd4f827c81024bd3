package io.kuberaysim.bench;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Scenario start: how long after its JVM starts the server answers {@code GET /version}, as a user starts it
 * (each {@link LaunchForm} with {@code --server.port=P}, the defaults otherwise: wall clock, controllers on),
 * measured from just before the process is started until the first 200, polling every 10 ms; a fresh JVM per round,
 * the forms alternating within a round. Also the process's CPU time at that moment (all its threads, the JIT
 * compilers' included): on a shared machine the steadier figure.
 */
final class StartBenchmark {
    private static final long LIMIT_NANOS = TimeUnit.SECONDS.toNanos(120);

    private StartBenchmark() {
    }

    /** When a fresh server first answered, and the CPU its process had used by then. */
    private record Answer(double seconds, double cpuSeconds) {
    }

    static void run(BenchConfig cfg, Report report) {
        if (cfg.name().equals("smoke")) {
            return; // fresh JVMs cost the normal build more than the check is worth
        }
        List<LaunchForm> forms = LaunchForm.available();
        Map<LaunchForm, List<Answer>> answers = new LinkedHashMap<>();
        forms.forEach(f -> answers.put(f, new ArrayList<>()));
        try {
            for (int i = 0; i < Math.max(1, cfg.rounds()); i++) {
                for (int k = 0; k < forms.size(); k++) {
                    LaunchForm form = forms.get((i + k) % forms.size()); // rotate who goes first
                    Answer a = once(form);
                    if (a == null) {
                        report.note("start: " + form.name() + " did not answer /version within 120 s");
                        return;
                    }
                    answers.get(form).add(a);
                }
            }
        } catch (IOException e) {
            report.note("start: could not start the server: " + e);
            return;
        }
        answers.forEach((form, list) -> {
            Stats s = Stats.of(list.stream().map(Answer::seconds).toList());
            report.add("start", "`GET /version` answered after the JVM starts, " + form.name(), s, "s", "≤ 2",
                    s.median() <= 2);
            report.add("start", "CPU time of that JVM until then, " + form.name(),
                    Stats.of(list.stream().map(Answer::cpuSeconds).toList()), "s", null, null);
        });
    }

    private static Answer once(LaunchForm form) throws IOException {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        URI version = URI.create("http://127.0.0.1:" + port + "/version");
        ProcessBuilder pb = form.processBuilder("--server.port=" + port);
        long t0 = System.nanoTime();
        Process p = pb.start();
        try {
            while (System.nanoTime() - t0 < LIMIT_NANOS && p.isAlive()) {
                if (answers(version)) {
                    double seconds = (System.nanoTime() - t0) / 1e9;
                    double cpu = p.toHandle().info().totalCpuDuration().orElse(Duration.ZERO).toNanos() / 1e9;
                    return new Answer(seconds, cpu);
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
