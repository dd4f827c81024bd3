package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.WriteOptions;
import io.kuberaysim.testing.RawHttp;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A watcher whose client reads nothing is closed once its buffer (kuberay-sim.watch-buffer, 50 here) is full, as
 * kube-apiserver's watch cache closes unresponsive watchers; the writer threads stay a fixed few and the watchers
 * that read get every event.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = HttpEdgeTestProperties.ALL)
class WatchBufferHttpIT {
    static final String CM = "/api/v1/namespaces/default/configmaps";

    @LocalServerPort
    int port;
    @Autowired
    GenericRegistry registry;
    @Autowired
    WatchStreams watches;

    Socket openWatch(long rv) throws IOException {
        return RawHttp.getWithoutReading(port, CM + "?watch=1&resourceVersion=" + rv);
    }

    /** Reads a chunked watch body line by line; returns the number of ADDED events before the body ended. */
    static int readToEnd(RawHttp http, int stopAfter) throws IOException {
        int added = 0;
        StringBuilder pending = new StringBuilder();
        while (added < stopAfter) {
            String size = http.line();
            int n = Integer.parseInt(size.trim(), 16);
            if (n == 0) {
                return added;
            }
            byte[] chunk = http.readBytes(n);
            http.line();
            pending.append(new String(chunk, StandardCharsets.UTF_8));
            int nl;
            while ((nl = pending.indexOf("\n")) >= 0) {
                if (pending.substring(0, nl).startsWith("{\"type\":\"ADDED\"")) {
                    added++;
                }
                pending.delete(0, nl + 1);
            }
        }
        return added;
    }

    static long writerThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("watch-writer-"))
                .count();
    }

    @Test
    @DisplayName("20 watchers that read nothing are closed; the reading watcher gets all 300 events; no writer added")
    void unresponsiveWatchersAreClosed() throws Exception {
        long writersBefore = writerThreads();
        long rv = registry.store().revision();
        int before = watches.activeCount();
        List<Socket> stuck = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            stuck.add(openWatch(rv));
        }
        RawHttp reader = new RawHttp(port, Duration.ofSeconds(60));
        reader.send("GET " + CM + "?watch=1&resourceVersion=" + rv + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
        assertThat(reader.readHead().code()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> watches.activeCount() == before + 21);

        int writes = 300;
        CompletableFuture<Integer> received = CompletableFuture.supplyAsync(() -> {
            try {
                return readToEnd(reader, writes);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        String payload = "x".repeat(50_000); // 15 MB per watcher: far more than socket buffers hold
        for (int i = 0; i < writes; i++) {
            ObjectNode cm = Json.object();
            cm.putObject("metadata").put("name", "buffered-" + i);
            cm.putObject("data").put("payload", payload);
            registry.create(ResourceTypes.CONFIGMAPS, "default", cm, WriteOptions.DEFAULT);
        }

        assertThat(received.get(60, TimeUnit.SECONDS)).isEqualTo(writes);
        await().atMost(Duration.ofSeconds(30)).until(() -> watches.activeCount() == before + 1);
        // other cached application contexts have writers of their own: the pool may start its threads, no more
        assertThat(writerThreads() - writersBefore).isLessThanOrEqualTo(WatchStreams.WRITERS);

        // a closed watcher that reads again finds what reached its socket, short of the events it missed, and then
        // the end of the connection (it could not take the end of the body either)
        try (RawHttp closed = RawHttp.over(stuck.remove(0), Duration.ofSeconds(60))) {
            assertThat(closed.readHead().code()).isEqualTo(200);
            assertThatThrownBy(() -> readToEnd(closed, writes)).isInstanceOf(IOException.class);
        }
        for (Socket s : stuck) {
            s.close();
        }
        reader.close();
    }

    @Test
    @DisplayName("a client that stops reading takes a send buffer's worth, not ~190 KB; reading again it gets those "
            + "events in order, then the end, and a re-watch from its last resourceVersion brings the rest in order")
    void stalledClientTakesItsSendBufferAndResumesInOrder() throws Exception {
        int before = watches.activeCount();
        long rv = registry.store().revision();
        Socket stalled = openWatch(rv);
        await().atMost(Duration.ofSeconds(30)).until(() -> watches.activeCount() == before + 1);
        int writes = 2000;
        String payload = "x".repeat(1000);
        for (int i = 0; i < writes; i++) {
            ObjectNode cm = Json.object();
            cm.putObject("metadata").put("name", "stalled-" + i);
            cm.putObject("data").put("payload", payload);
            registry.create(ResourceTypes.CONFIGMAPS, "default", cm, WriteOptions.DEFAULT);
        }
        // closed as unresponsive (50 behind, no progress): its connection is cut, it could not take the body's end
        await().atMost(Duration.ofSeconds(30)).until(() -> watches.activeCount() == before);

        List<JsonNode> got = new ArrayList<>();
        int bytes;
        try (RawHttp resumed = RawHttp.over(stalled, Duration.ofSeconds(60))) {
            assertThat(resumed.readHead().code()).isEqualTo(200);
            bytes = readEvents(resumed, writes, got); // ends with the cut: the connection ends after what reached it
        }
        // kuberay-sim.watch-send-buffer (32 KiB, 64 KiB as Linux counts it) plus the client's own 4 KiB; with the
        // system's buffer this client took ~190 KB here
        assertThat(bytes).isGreaterThan(0).isLessThan(112 * 1024);
        assertThat(got).isNotEmpty();
        for (int i = 0; i < got.size(); i++) {
            assertThat(got.get(i).path("object").path("metadata").path("name").asText()).isEqualTo("stalled-" + i);
        }
        String last = got.get(got.size() - 1).path("object").path("metadata").path("resourceVersion").asText();

        List<JsonNode> rest = new ArrayList<>();
        // a client re-watches from the last event it got whenever its watch ends: on a loaded machine this one may
        // itself fall behind the replay and be closed as unresponsive
        for (int attempt = 0; attempt < 20 && rest.size() < writes - got.size(); attempt++) {
            try (RawHttp rewatch = new RawHttp(port, Duration.ofSeconds(60))) {
                rewatch.send("GET " + CM + "?watch=1&resourceVersion=" + last
                        + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
                assertThat(rewatch.readHead().code()).isEqualTo(200);
                readEvents(rewatch, writes - got.size() - rest.size(), rest);
            }
            if (!rest.isEmpty()) {
                last = rest.get(rest.size() - 1).path("object").path("metadata").path("resourceVersion").asText();
            }
        }
        List<String> expected = new ArrayList<>();
        for (int i = got.size(); i < writes; i++) {
            expected.add("stalled-" + i);
        }
        assertThat(rest).extracting(e -> e.path("object").path("metadata").path("name").asText())
                .isEqualTo(expected);
        // the re-watch's client left: noticed at the next change
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            ObjectNode cm = Json.object();
            cm.putObject("metadata").put("name", "after-" + System.nanoTime());
            registry.create(ResourceTypes.CONFIGMAPS, "default", cm, WriteOptions.DEFAULT);
            return watches.activeCount() == before;
        });
    }

    /**
     * Reads a chunked watch body's events into {@code into} until it has {@code limit}, the body ends or the
     * connection does; returns the body bytes read.
     */
    private static int readEvents(RawHttp http, int limit, List<JsonNode> into) {
        int bytes = 0;
        StringBuilder pending = new StringBuilder();
        try {
            while (into.size() < limit) {
                int n = Integer.parseInt(http.line().trim(), 16);
                if (n == 0) {
                    break;
                }
                byte[] chunk = http.readBytes(n);
                http.line();
                bytes += n;
                pending.append(new String(chunk, StandardCharsets.UTF_8));
                for (int nl; (nl = pending.indexOf("\n")) >= 0; pending.delete(0, nl + 1)) {
                    into.add(Json.MAPPER.readTree(pending.substring(0, nl)));
                }
            }
        } catch (IOException | RuntimeException end) {
            // the connection ended (cut), possibly within a chunk
        }
        return bytes;
    }
}
