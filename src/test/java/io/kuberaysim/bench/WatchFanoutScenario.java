package io.kuberaysim.bench;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.http.WatchStreams;
import io.kuberaysim.apiserver.registry.DeleteOptions;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.WriteOptions;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import tools.jackson.databind.node.ObjectNode;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Scenario 3: watch fan-out over HTTP. {@code watchers} streaming watches ({@code ?watch=true} from the current
 * resourceVersion) on ConfigMaps, then {@code watchWrites} creates in process; every watcher must receive every
 * event exactly once and in order (checked by name sequence). Deliveries per second = watchers × writes / time
 * from the first write until the last watcher has its last event.
 */
final class WatchFanoutScenario {
    private static final String PATH = "/api/v1/namespaces/default/configmaps";
    private final BenchConfig cfg;
    private final Report report;

    WatchFanoutScenario(BenchConfig cfg, Report report) {
        this.cfg = cfg;
        this.report = report;
    }

    /** One watcher's outcome. */
    private static final class Watcher implements Runnable {
        final int port;
        final String path;
        final int expected;
        final byte[] name;
        final CountDownLatch connected;
        volatile int status = -1;
        volatile int received;
        volatile String error;
        volatile long doneAt;
        Socket socket;

        Watcher(int port, String path, int expected, String prefix, CountDownLatch connected) {
            this.port = port;
            this.path = path;
            this.expected = expected;
            this.name = ("\"name\":\"" + prefix).getBytes(StandardCharsets.US_ASCII);
            this.connected = connected;
        }

        @Override
        public void run() {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                socket = s;
                s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                s.getOutputStream().flush();
                InputStream in = new BufferedInputStream(s.getInputStream(), 65536);
                String statusLine = line(in);
                status = Integer.parseInt(statusLine.substring(9, 12));
                boolean chunked = false;
                for (String h = line(in); !h.isEmpty(); h = line(in)) {
                    if (h.toLowerCase().startsWith("transfer-encoding:") && h.toLowerCase().contains("chunked")) {
                        chunked = true;
                    }
                }
                connected.countDown();
                if (status != 200) {
                    return;
                }
                ByteArrayOutputStream pending = new ByteArrayOutputStream(4096);
                byte[] buf = new byte[65536];
                while (received < expected) {
                    int n;
                    if (chunked) {
                        int size = Integer.parseInt(line(in).split(";")[0].trim(), 16);
                        if (size == 0) {
                            throw new EOFException("watch ended after " + received + " events");
                        }
                        byte[] chunk = in.readNBytes(size);
                        line(in);
                        consume(chunk, chunk.length, pending);
                    } else {
                        n = in.read(buf);
                        if (n < 0) {
                            throw new EOFException("watch ended after " + received + " events");
                        }
                        consume(buf, n, pending);
                    }
                    if (error != null) {
                        return;
                    }
                }
                doneAt = System.nanoTime();
            } catch (Exception e) {
                if (error == null) {
                    error = e.toString();
                }
                connected.countDown();
            }
        }

        /** Splits the stream into lines and checks each event's name against the expected sequence. */
        private void consume(byte[] data, int len, ByteArrayOutputStream pending) {
            int start = 0;
            for (int i = 0; i < len; i++) {
                if (data[i] == '\n') {
                    byte[] lineBytes;
                    if (pending.size() > 0) {
                        pending.write(data, start, i - start);
                        lineBytes = pending.toByteArray();
                        pending.reset();
                    } else {
                        lineBytes = java.util.Arrays.copyOfRange(data, start, i);
                    }
                    check(lineBytes);
                    start = i + 1;
                }
            }
            pending.write(data, start, len - start);
        }

        private void check(byte[] line) {
            int at = indexOf(line, name);
            if (at < 0) {
                error = "event without a phase name: " + new String(line, 0, Math.min(200, line.length), StandardCharsets.UTF_8);
                return;
            }
            int v = 0;
            for (int i = at + name.length; i < line.length && line[i] >= '0' && line[i] <= '9'; i++) {
                v = v * 10 + (line[i] - '0');
            }
            if (v != received) {
                error = "expected event " + received + ", got " + v;
                return;
            }
            received++;
        }

        private static int indexOf(byte[] a, byte[] b) {
            outer:
            for (int i = 0; i + b.length <= a.length; i++) {
                for (int j = 0; j < b.length; j++) {
                    if (a[i + j] != b[j]) {
                        continue outer;
                    }
                }
                return i;
            }
            return -1;
        }

        private static String line(InputStream in) throws IOException {
            StringBuilder sb = new StringBuilder();
            int c;
            while ((c = in.read()) != '\n') {
                if (c < 0) {
                    throw new EOFException();
                }
                if (c != '\r') {
                    sb.append((char) c);
                }
            }
            return sb.toString();
        }
    }

    void run() {
        runOn("watch", "", "kuberay-sim.watch-history=" + (cfg.watchWrites() + 10_000));
    }

    /** One fan-out: {@code writes} creates watched by the reading watchers, next to {@code stuck} that never read. */
    private record Phase(double writesPerSecond, double deliveriesPerSecond, long delivered, long complete,
                         String firstError, int status, double sentByServer, double cpuSeconds,
                         double processCpuSeconds, double wallSeconds) {
        boolean completed(BenchConfig cfg) {
            return complete == cfg.watchers();
        }
    }

    /**
     * The fan-out on a server started with {@code extra} settings; rows in {@code section}, labelled {@code label}.
     * The first fan-out runs on a fresh server (as every run of this scenario always has); in the {@code watch}
     * section it is followed by {@code rounds} pairs of warm fan-outs, the reading watchers alone and next to
     * {@code slowWatchers} watchers that never read (order alternating), compared pair by pair.
     */
    void runOn(String section, String label, String... extra) {
        try (SimServer server = SimServer.start(false, extra)) {
            Phase first = phase(server, "w-", 0);
            if (first.status() != 200) {
                report.note("watch: skipped, `GET " + PATH + "?watch=true` answered " + first.status()
                        + " (HTTP watch not served yet)");
                return;
            }
            boolean main = section.equals("watch");
            int writes = cfg.watchWrites();
            report.add(section, label + "writes (in process) while " + cfg.watchers() + " watchers stream",
                    first.writesPerSecond(), "writes/s", null, null);
            if (!first.completed(cfg)) {
                report.add(section, label + "watchers that received every event in order", first.complete(),
                        "watchers", "= " + cfg.watchers(), false);
                report.note(section + ": " + label + "incomplete delivery, first problem: " + first.firstError());
                return;
            }
            double rate = first.deliveriesPerSecond();
            report.add(section, label + cfg.watchers() + " watchers × " + writes + " writes: deliveries", rate,
                    "events/s", main ? "≥ 200,000" : null, main ? rate >= 200_000 : null);
            report.add(section, label + "every event delivered to every watcher, in order", first.delivered(),
                    "events", "= " + (long) writes * cfg.watchers(), first.delivered() == (long) writes * cfg.watchers());
            if (main && cfg.slowWatchers() > 0) {
                crowded(server, section);
            }
        }
    }

    private void crowded(SimServer server, String section) {
        List<Double> alone = new ArrayList<>();
        List<Double> crowded = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        List<Double> cpuRatios = new ArrayList<>();
        List<Double> writerNanosAlone = new ArrayList<>();
        List<Double> writerNanosCrowded = new ArrayList<>();
        List<Double> processCpuRatios = new ArrayList<>();
        List<Double> coresAlone = new ArrayList<>();
        List<Double> coresCrowded = new ArrayList<>();
        List<Double> stuckTook = new ArrayList<>();
        boolean allDelivered = true;
        int n = 0;
        int delivered = 0;
        for (int round = 0; round < cfg.rounds(); round++) {
            Phase a;
            Phase c;
            if (round % 2 == 0) {
                a = phase(server, "a" + round + "-", 0);
                c = phase(server, "c" + round + "-", cfg.slowWatchers());
            } else {
                c = phase(server, "c" + round + "-", cfg.slowWatchers());
                a = phase(server, "a" + round + "-", 0);
            }
            n += 2;
            boolean complete = true;
            for (Phase p : List.of(a, c)) {
                if (p.completed(cfg)) {
                    delivered++;
                } else {
                    complete = false;
                    report.note(section + ": incomplete delivery in round " + round + ", first problem: "
                            + p.firstError());
                }
            }
            if (!complete) {
                allDelivered = false;
                continue; // no rate: the pair is left out
            }
            alone.add(a.deliveriesPerSecond());
            crowded.add(c.deliveriesPerSecond());
            ratios.add(c.deliveriesPerSecond() / a.deliveriesPerSecond());
            cpuRatios.add(c.cpuSeconds() / a.cpuSeconds());
            writerNanosAlone.add(a.cpuSeconds() * 1e9 / a.delivered());
            writerNanosCrowded.add(c.cpuSeconds() * 1e9 / c.delivered());
            processCpuRatios.add(c.processCpuSeconds() / a.processCpuSeconds());
            coresAlone.add(a.processCpuSeconds() / a.wallSeconds());
            coresCrowded.add(c.processCpuSeconds() / c.wallSeconds());
            stuckTook.add((c.sentByServer() - c.delivered()) / cfg.slowWatchers());
        }
        report.add(section, "fan-outs after the first with every event delivered to every reading watcher, in order",
                delivered, "of " + n, "= " + n, delivered == n);
        if (ratios.isEmpty()) {
            return;
        }
        String stuck = cfg.slowWatchers() + " non-reading watchers";
        report.add(section, "deliveries, reading watchers alone (warm server)", Stats.of(alone), "events/s",
                "≥ 400,000", Stats.of(alone).median() >= 400_000);
        report.add(section, "deliveries, reading watchers next to " + stuck, Stats.of(crowded), "events/s", null,
                null);
        Stats r = Stats.of(ratios);
        report.add(section, "reading watchers' deliveries next to " + stuck + " / alone", r, "ratio", "≥ 0.9",
                r.median() >= 0.9 && allDelivered);
        report.add(section, "events each non-reading watcher took before its connection stopped accepting",
                Stats.of(stuckTook), "events", null, null);
        report.add(section, "watch writer threads' CPU time per fan-out, next to " + stuck + " / alone",
                Stats.of(cpuRatios), "ratio", null, null);
        report.add(section, "watch writer threads' CPU time per reading watcher's event, alone",
                Stats.of(writerNanosAlone), "ns", null, null);
        report.add(section, "watch writer threads' CPU time per reading watcher's event, next to " + stuck,
                Stats.of(writerNanosCrowded), "ns", null, null);
        report.add(section, "process CPU time per fan-out (server and reading clients), next to " + stuck + " / alone",
                Stats.of(processCpuRatios), "ratio", null, null);
        // below the machine's cores while the fan-out runs: the process waited (for the CPU, on a shared machine)
        report.add(section, "cores the process used during a fan-out, alone", Stats.of(coresAlone), "cores", null,
                null);
        report.add(section, "cores the process used during a fan-out, next to " + stuck, Stats.of(coresCrowded),
                "cores", null, null);
    }

    /**
     * {@code cfg.watchers()} reading watchers (and {@code stuck} never-reading ones) watch ConfigMaps from the
     * current resourceVersion; {@code cfg.watchWrites()} creates named {@code prefix}0, 1, .. in process; then the
     * ConfigMaps are deleted, so every fan-out sees the same stored data.
     */
    private Phase phase(SimServer server, String prefix, int stuck) {
        int writes = cfg.watchWrites();
        GenericRegistry registry = server.registry();
        WatchStreams open = server.bean(WatchStreams.class);
        List<Socket> stuckSockets = new ArrayList<>();
        List<Watcher> watchers = new ArrayList<>();
        try {
            // the previous fan-out's watches end once their closed connections are noticed
            awaitOpenWatches(open, n -> n == 0, 10);
            long rv = registry.store().revision();
            for (int i = 0; i < stuck; i++) {
                stuckSockets.add(SlowWatcherScenario.stuckWatcher(server.port, rv));
            }
            CountDownLatch connected = new CountDownLatch(cfg.watchers());
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < cfg.watchers(); i++) {
                Watcher w = new Watcher(server.port, PATH + "?watch=true&resourceVersion=" + rv, writes, prefix,
                        connected);
                watchers.add(w);
                Thread t = new Thread(w, "watcher-" + i);
                t.setDaemon(true);
                threads.add(t);
                t.start();
            }
            // headers arrive when the server starts the stream; events from rv are replayed anyway
            connected.await(30, TimeUnit.SECONDS);
            // the non-reading watchers too are being served before the writes start
            awaitOpenWatches(open, n -> n >= stuck + cfg.watchers(), 30);
            int status = watchers.get(0).status;
            if (status != 200) {
                return new Phase(0, 0, 0, 0, "status " + status, status, 0, 0, 0, 0);
            }
            double sentBefore = watchEventsSent(server);
            long cpuBefore = writerCpuNanos();
            long processCpuBefore = processCpuNanos();
            long t0 = System.nanoTime();
            for (int i = 0; i < writes; i++) {
                ObjectNode cm = Json.object();
                cm.putObject("metadata").put("name", prefix + i);
                cm.putObject("data").put("i", Integer.toString(i));
                registry.create(ResourceTypes.CONFIGMAPS, "default", cm, WriteOptions.DEFAULT);
            }
            long written = System.nanoTime();
            long limit = TimeUnit.SECONDS.toMillis(60) + writes;
            for (Thread t : threads) {
                t.join(Math.max(1, limit - (System.nanoTime() - t0) / 1_000_000));
            }
            long complete = 0;
            long delivered = 0;
            long last = 0;
            String firstError = null;
            for (Watcher w : watchers) {
                delivered += w.received;
                if (w.received == writes && w.doneAt > 0) {
                    complete++;
                    last = Math.max(last, w.doneAt);
                } else if (firstError == null) {
                    firstError = w.error != null ? w.error : "received " + w.received + " of " + writes;
                }
            }
            double rate = complete == watchers.size() ? delivered / ((last - t0) / 1e9) : 0;
            double cpu = (writerCpuNanos() - cpuBefore) / 1e9;
            return new Phase(writes / ((written - t0) / 1e9), rate, delivered, complete, firstError, status,
                    watchEventsSent(server) - sentBefore, cpu, (processCpuNanos() - processCpuBefore) / 1e9,
                    (last - t0) / 1e9);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            for (Watcher w : watchers) {
                closeQuietly(w.socket);
            }
            stuckSockets.forEach(ServerProbes::closeQuietly);
            for (int i = 0; i < writes; i++) {
                try {
                    registry.delete(ResourceTypes.CONFIGMAPS, "default", prefix + i, DeleteOptions.DEFAULT);
                } catch (RuntimeException e) {
                    // not created (the phase stopped early)
                }
            }
        }
    }

    /** Events the server's watches have taken to write so far, all watchers together (apiserver_watch_events_total). */
    private static double watchEventsSent(SimServer server) {
        return server.bean(MeterRegistry.class).find("apiserver_watch_events_total").counters().stream()
                .mapToDouble(Counter::count).sum();
    }

    /**
     * CPU time of the server's watch writer threads so far (they encode nothing: they take shared lines and write
     * them to the sockets, kernel time included): the server's cost of the deliveries, less swayed by other work on
     * the machine than wall time.
     */
    private static long writerCpuNanos() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (t != null && t.getThreadName().startsWith("watch-writer-")) {
                sum += Math.max(0, threads.getThreadCpuTime(t.getThreadId()));
            }
        }
        return sum;
    }

    /** CPU time of this process: the server, the in-process writer and the reading clients. */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static void awaitOpenWatches(WatchStreams open, java.util.function.IntPredicate done, int seconds)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!done.test(open.activeCount()) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }

    private static void closeQuietly(Socket s) {
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing a loopback socket
            }
        }
    }
}
