package io.kuberaysim.bench;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.http.WatchStreams;
import io.kuberaysim.apiserver.registry.DeleteOptions;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.ListOptions;
import io.kuberaysim.apiserver.registry.WriteOptions;
import tools.jackson.databind.node.ObjectNode;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Slow watchers: a steady stream of ConfigMap writes (200/s, 2 KB each, in process) watched by 10 reading clients,
 * first alone, then next to {@code slowWatchers} clients that watch and never read. Measured in each phase: the
 * reading watchers' event latency (write to receipt), the watch writer threads, heap after GC and resident memory
 * at the end of the writes (the phase's ConfigMaps are deleted after it, so each phase's heap holds the same
 * stored data), and how many of the non-reading watchers are still open at the end.
 */
final class SlowWatcherScenario {
    private static final String PATH = "/api/v1/namespaces/default/configmaps";
    private static final int READERS = 10;
    private static final int WRITES_PER_SECOND = 200;
    private static final byte[] STAMP = "\"t\":\"".getBytes(StandardCharsets.US_ASCII);

    private SlowWatcherScenario() {
    }

    /** One phase's figures. */
    private record Phase(List<Double> latencies, long expected, long writers, double heap, double rss,
                         int stillOpen) {
    }

    static void run(BenchConfig cfg, Report report) {
        try (SimServer server = SimServer.start(false)) {
            GenericRegistry registry = server.registry();
            WatchStreams watches = server.bean(WatchStreams.class);
            Phase alone = phase(cfg, server, registry, watches, 0, "a");
            Phase crowded = phase(cfg, server, registry, watches, cfg.slowWatchers(), "b");
            String n = cfg.slowWatchers() + " non-reading watchers";
            add(report, "reading watchers alone", alone);
            add(report, "next to " + n, crowded);
            double p99 = ServerProbes.quantile(crowded.latencies(), 0.99);
            report.add("slowwatchers", "event latency p99 next to " + n, p99, "ms", "< 1,000",
                    p99 < 1000 && crowded.latencies().size() == crowded.expected());
            report.add("slowwatchers", "event latency p99 ratio, " + n + " / alone",
                    p99 / ServerProbes.quantile(alone.latencies(), 0.99), "ratio", null, null);
            report.add("slowwatchers", "watch writer threads, alone → next to " + n, crowded.writers(),
                    "threads (was " + alone.writers() + ")", "flat", crowded.writers() <= alone.writers());
            report.add("slowwatchers", "heap after GC ratio, next to " + n + " / alone",
                    crowded.heap() / alone.heap(), "ratio", null, null);
            report.add("slowwatchers", "resident memory ratio, next to " + n + " / alone",
                    crowded.rss() / alone.rss(), "ratio", null, null);
            report.add("slowwatchers", "non-reading watchers still open at the end", crowded.stillOpen(),
                    "of " + cfg.slowWatchers(), null, null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void add(Report report, String what, Phase p) {
        report.add("slowwatchers", "event latency p50, " + what, ServerProbes.quantile(p.latencies(), 0.5), "ms",
                null, null);
        report.add("slowwatchers", "event latency p99, " + what, ServerProbes.quantile(p.latencies(), 0.99), "ms",
                null, null);
        report.add("slowwatchers", "events received, " + what, p.latencies().size(), "of " + p.expected(), null,
                null);
        report.add("slowwatchers", "heap after GC, " + what, p.heap(), "MiB", null, null);
        report.add("slowwatchers", "resident memory, " + what, p.rss(), "MiB", null, null);
    }

    private static Phase phase(BenchConfig cfg, SimServer server, GenericRegistry registry, WatchStreams watches,
                               int stuckCount, String tag) throws InterruptedException {
        long rv = registry.store().revision();
        int writes = (int) Math.max(10, cfg.hostile().toSeconds() * WRITES_PER_SECOND);
        List<Socket> stuck = new ArrayList<>();
        List<Reader> readers = new ArrayList<>();
        try {
            for (int i = 0; i < stuckCount; i++) {
                stuck.add(stuckWatcher(server.port, rv));
            }
            for (int i = 0; i < READERS; i++) {
                Reader r = new Reader(server.port, rv, writes);
                readers.add(r);
                r.start();
            }
            for (Reader r : readers) {
                r.awaitHeaders();
            }
            String payload = "x".repeat(2048);
            long t0 = System.nanoTime();
            long every = TimeUnit.SECONDS.toNanos(1) / WRITES_PER_SECOND;
            for (int i = 0; i < writes; i++) {
                LockSupport.parkNanos(t0 + i * every - System.nanoTime());
                ObjectNode cm = Json.object();
                cm.putObject("metadata").put("name", "slow-watch-" + tag + "-" + i).putObject("labels")
                        .put("phase", tag);
                cm.putObject("data").put("t", Long.toString(System.nanoTime())).put("payload", payload);
                registry.create(ResourceTypes.CONFIGMAPS, "default", cm, WriteOptions.DEFAULT);
            }
            for (Reader r : readers) {
                r.join(TimeUnit.SECONDS.toMillis(60));
            }
            List<Double> latencies = new ArrayList<>();
            readers.forEach(r -> latencies.addAll(r.latencies));
            int open = Math.max(0, watches.activeCount() - READERS);
            return new Phase(latencies, (long) writes * READERS, ServerProbes.threads("watch-writer-"),
                    ServerProbes.heapAfterGcMiB(), ServerProbes.rssMiB(), open);
        } finally {
            readers.forEach(Reader::close);
            stuck.forEach(ServerProbes::closeQuietly);
            registry.deleteCollection(ResourceTypes.CONFIGMAPS, "default", ListOptions.labels("phase=" + tag),
                    DeleteOptions.DEFAULT);
        }
    }

    /** A watch of ConfigMaps from {@code rv} on a socket with a 4 KiB receive buffer whose client never reads. */
    static Socket stuckWatcher(int port, long rv) {
        try {
            Socket s = new Socket();
            s.setReceiveBufferSize(4096);
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            s.getOutputStream().write(("GET " + PATH + "?watch=1&resourceVersion=" + rv + " HTTP/1.1\r\n"
                    + "Host: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            return s;
        } catch (IOException e) {
            throw new IllegalStateException("could not open a watcher: " + e, e);
        }
    }

    /** A watcher that reads every event and notes how long after its write it arrived. */
    private static final class Reader extends Thread {
        final ConcurrentLinkedQueue<Double> latencies = new ConcurrentLinkedQueue<>();
        private final int port;
        private final long rv;
        private final int expected;
        private final Object headers = new Object();
        private volatile boolean gotHeaders;
        private volatile Socket socket;

        Reader(int port, long rv, int expected) {
            this.port = port;
            this.rv = rv;
            this.expected = expected;
            setDaemon(true);
        }

        void awaitHeaders() throws InterruptedException {
            synchronized (headers) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!gotHeaders && System.nanoTime() < deadline) {
                    headers.wait(100);
                }
            }
        }

        @Override
        public void run() {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                socket = s;
                s.getOutputStream().write(("GET " + PATH + "?watch=1&resourceVersion=" + rv + " HTTP/1.1\r\n"
                        + "Host: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                InputStream in = new BufferedInputStream(s.getInputStream(), 1 << 16);
                while (!line(in).isEmpty()) {
                    // status line and headers
                }
                synchronized (headers) {
                    gotHeaders = true;
                    headers.notifyAll();
                }
                StringBuilder pending = new StringBuilder();
                while (latencies.size() < expected) {
                    int size = Integer.parseInt(line(in).split(";")[0].trim(), 16);
                    if (size == 0) {
                        return;
                    }
                    byte[] chunk = in.readNBytes(size);
                    line(in);
                    long now = System.nanoTime();
                    pending.append(new String(chunk, StandardCharsets.ISO_8859_1));
                    int nl;
                    while ((nl = pending.indexOf("\n")) >= 0) {
                        stamp(pending.substring(0, nl), now);
                        pending.delete(0, nl + 1);
                    }
                }
            } catch (IOException e) {
                // closed by the scenario or the server
            } finally {
                synchronized (headers) {
                    gotHeaders = true;
                    headers.notifyAll();
                }
            }
        }

        private void stamp(String event, long now) {
            int at = event.indexOf(new String(STAMP, StandardCharsets.ISO_8859_1));
            if (at < 0) {
                return;
            }
            int start = at + STAMP.length;
            int end = event.indexOf('"', start);
            latencies.add((now - Long.parseLong(event.substring(start, end))) / 1e6);
        }

        private static String line(InputStream in) throws IOException {
            StringBuilder sb = new StringBuilder();
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) {
                    throw new EOFException();
                }
                if (c != '\r') {
                    sb.append((char) c);
                }
            }
            return sb.toString();
        }

        void close() {
            Socket s = socket;
            if (s != null) {
                ServerProbes.closeQuietly(s);
            }
        }
    }
}
