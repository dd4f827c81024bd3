package io.kuberaysim.bench;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What the hostile-client scenarios measure on a server in this JVM: request latency on a fresh connection with a
 * deadline, live threads by name, heap after GC and the process's resident memory.
 */
final class ServerProbes {
    private ServerProbes() {
    }

    /**
     * Milliseconds from connecting to the end of the response headers of {@code GET path}, or NaN when no status
     * line arrived within {@code timeoutMs}.
     */
    static double headersLatencyMs(int port, String path, int timeoutMs) {
        long t0 = System.nanoTime();
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(timeoutMs);
            s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n"
                    + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            int matched = 0;
            byte[] end = "\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
            while (matched < end.length) {
                int c = in.read();
                if (c < 0) {
                    return Double.NaN;
                }
                matched = c == end[matched] ? matched + 1 : c == end[0] ? 1 : 0;
            }
            return (System.nanoTime() - t0) / 1e6;
        } catch (IOException e) {
            return Double.NaN;
        }
    }

    /**
     * {@code n} sequential header latencies; NaN entries are requests that got no answer in time. After three
     * unanswered in a row the rest are counted unanswered without waiting for each.
     */
    static List<Double> headersLatencies(int port, String path, int n, int timeoutMs) {
        List<Double> out = new ArrayList<>();
        int unansweredInARow = 0;
        for (int i = 0; i < n; i++) {
            double ms = unansweredInARow >= 3 ? Double.NaN : headersLatencyMs(port, path, timeoutMs);
            unansweredInARow = Double.isNaN(ms) ? unansweredInARow + 1 : 0;
            out.add(ms);
        }
        return out;
    }

    /** The q-quantile (0..1) of the values that are numbers; NaN if there are none. */
    static double quantile(List<Double> values, double q) {
        List<Double> v = new ArrayList<>(values.stream().filter(d -> !d.isNaN()).toList());
        if (v.isEmpty()) {
            return Double.NaN;
        }
        Collections.sort(v);
        int index = (int) Math.ceil(q * v.size()) - 1;
        return v.get(Math.max(0, Math.min(v.size() - 1, index)));
    }

    static long unanswered(List<Double> values) {
        return values.stream().filter(d -> d.isNaN()).count();
    }

    /** Live threads whose name contains {@code part}. */
    static long threads(String part) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().contains(part)).count();
    }

    static double heapAfterGcMiB() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / (double) (1 << 20);
    }

    static double heapUsedMiB() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / (double) (1 << 20);
    }

    /** Resident set size of this process (Linux), NaN elsewhere. */
    static double rssMiB() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) / 1024.0;
                }
            }
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
        return Double.NaN;
    }

    static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // a loopback socket
        }
    }
}
