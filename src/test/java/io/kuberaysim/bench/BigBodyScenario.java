package io.kuberaysim.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Big bodies: {@code bigBodies} clients at once each POST a {@code bigBodyMiB} body, as fast as they can, once with
 * a declared Content-Length and once chunked. Measured: the answers (413 expected), how long until every client had
 * its answer, the heap used while they send (sampled every 20 ms) and the heap after GC before and after.
 */
final class BigBodyScenario {
    private static final String PATH = "/api/v1/namespaces/default/configmaps";

    private BigBodyScenario() {
    }

    static void run(BenchConfig cfg, Report report) {
        try (SimServer server = SimServer.start(false)) {
            for (boolean chunked : new boolean[] {false, true}) {
                round(cfg, report, server.port, chunked);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void round(BenchConfig cfg, Report report, int port, boolean chunked) throws InterruptedException {
        String what = cfg.bigBodies() + " × " + cfg.bigBodyMiB() + " MiB " + (chunked ? "chunked" : "declared");
        double heapBefore = ServerProbes.heapAfterGcMiB();
        AtomicLong peak = new AtomicLong();
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            while (sampling.get()) {
                peak.accumulateAndGet((long) ServerProbes.heapUsedMiB(), Math::max);
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        sampler.setDaemon(true);
        sampler.start();
        ExecutorService pool = Executors.newFixedThreadPool(cfg.bigBodies());
        long t0 = System.nanoTime();
        Map<String, Integer> answers = new TreeMap<>();
        try {
            List<Future<String>> results = new ArrayList<>();
            for (int i = 0; i < cfg.bigBodies(); i++) {
                results.add(pool.submit(() -> send(port, (long) cfg.bigBodyMiB() << 20, chunked)));
            }
            for (Future<String> f : results) {
                String answer;
                try {
                    answer = f.get(10, TimeUnit.MINUTES);
                } catch (Exception e) {
                    answer = "no answer (" + e.getClass().getSimpleName() + ")";
                }
                answers.merge(answer, 1, Integer::sum);
            }
        } finally {
            pool.shutdownNow();
            sampling.set(false);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        sampler.join();
        double heapAfter = ServerProbes.heapAfterGcMiB();
        int tooLarge = answers.getOrDefault("413", 0);
        report.add("bigbodies", what + ": 413 answers", tooLarge, "of " + cfg.bigBodies(), "all",
                tooLarge == cfg.bigBodies());
        if (tooLarge != cfg.bigBodies()) {
            report.note("bigbodies: " + what + " answered " + answers);
        }
        report.add("bigbodies", what + ": until every client had its answer", seconds, "s", null, null);
        report.add("bigbodies", what + ": peak heap used while sending (garbage included)", peak.get(), "MiB",
                null, null);
        report.add("bigbodies", what + ": heap after GC, after / before", heapAfter / heapBefore, "ratio", null,
                null);
    }

    /** Sends one big body until the server stops taking it; returns the status code answered, or why none. */
    private static String send(int port, long bytes, boolean chunked) {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout((int) TimeUnit.MINUTES.toMillis(5));
            OutputStream out = s.getOutputStream();
            out.write(("POST " + PATH + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + (chunked ? "Transfer-Encoding: chunked" : "Content-Length: " + bytes) + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            byte[] block = new byte[1 << 16];
            byte[] head = ("10000\r\n").getBytes(StandardCharsets.US_ASCII);
            byte[] crlf = "\r\n".getBytes(StandardCharsets.US_ASCII);
            try {
                for (long sent = 0; sent < bytes; sent += block.length) {
                    if (chunked) {
                        out.write(head);
                    }
                    out.write(block);
                    if (chunked) {
                        out.write(crlf);
                    }
                }
                if (chunked) {
                    out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                }
            } catch (IOException e) {
                // the server stopped reading: its answer is waiting
            }
            InputStream in = s.getInputStream();
            byte[] status = in.readNBytes(12);
            return status.length == 12 ? new String(status, 9, 3, StandardCharsets.US_ASCII) : "connection closed";
        } catch (IOException e) {
            return "no answer (" + e.getClass().getSimpleName() + ")";
        }
    }
}
