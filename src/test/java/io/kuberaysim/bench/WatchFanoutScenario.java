package io.kuberaysim.bench;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.WriteOptions;
import tools.jackson.databind.node.ObjectNode;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
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
    private static final byte[] NAME = "\"name\":\"w-".getBytes(StandardCharsets.US_ASCII);
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
        final CountDownLatch connected;
        volatile int status = -1;
        volatile int received;
        volatile String error;
        volatile long doneAt;
        Socket socket;

        Watcher(int port, String path, int expected, CountDownLatch connected) {
            this.port = port;
            this.path = path;
            this.expected = expected;
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
            int at = indexOf(line, NAME);
            if (at < 0) {
                error = "event without a w- name: " + new String(line, 0, Math.min(200, line.length), StandardCharsets.UTF_8);
                return;
            }
            int v = 0;
            for (int i = at + NAME.length; i < line.length && line[i] >= '0' && line[i] <= '9'; i++) {
                v = v * 10 + (line[i] - '0');
            }
            if (v != received) {
                error = "expected event w-" + received + ", got w-" + v;
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

    /** The fan-out on a server started with {@code extra} settings; rows in {@code section}, labelled {@code label}. */
    void runOn(String section, String label, String... extra) {
        int writes = cfg.watchWrites();
        try (SimServer server = SimServer.start(false, extra)) {
            GenericRegistry registry = server.registry();
            long rv = registry.store().revision();
            CountDownLatch connected = new CountDownLatch(cfg.watchers());
            List<Watcher> watchers = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < cfg.watchers(); i++) {
                Watcher w = new Watcher(server.port, PATH + "?watch=true&resourceVersion=" + rv, writes, connected);
                watchers.add(w);
                Thread t = new Thread(w, "watcher-" + i);
                t.setDaemon(true);
                threads.add(t);
                t.start();
            }
            // headers arrive when the server starts the stream; events from rv are replayed anyway
            connected.await(30, TimeUnit.SECONDS);
            int status = watchers.get(0).status;
            if (status != 200) {
                report.note("watch: skipped, `GET " + PATH + "?watch=true` answered " + status
                        + " (HTTP watch not served yet)");
                for (Watcher w : watchers) {
                    closeQuietly(w.socket);
                }
                return;
            }
            long t0 = System.nanoTime();
            for (int i = 0; i < writes; i++) {
                ObjectNode cm = Json.object();
                cm.putObject("metadata").put("name", "w-" + i);
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
                closeQuietly(w.socket);
            }
            report.add(section, label + "writes (in process) while " + cfg.watchers() + " watchers stream",
                    writes / ((written - t0) / 1e9), "writes/s", null, null);
            if (complete == watchers.size()) {
                double seconds = (last - t0) / 1e9;
                double rate = delivered / seconds;
                boolean main = section.equals("watch");
                report.add(section, label + cfg.watchers() + " watchers × " + writes + " writes: deliveries", rate,
                        "events/s", main ? "≥ 200,000" : null, main ? rate >= 200_000 : null);
                report.add(section, label + "every event delivered to every watcher, in order", delivered, "events",
                        "= " + (long) writes * cfg.watchers(), delivered == (long) writes * cfg.watchers());
            } else {
                report.add(section, label + "watchers that received every event in order", complete, "watchers",
                        "= " + watchers.size(), false);
                report.note(section + ": " + label + "incomplete delivery, first problem: " + firstError);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
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
