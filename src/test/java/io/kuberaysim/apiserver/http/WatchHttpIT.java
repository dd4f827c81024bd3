package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.PatchType;
import io.kuberaysim.apiserver.registry.WriteOptions;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Watch streams on a real port: wire format, ordering under concurrent writers, 410, bookmarks, timeouts. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"kuberay-sim.controllers=false", "kuberay-sim.watch-history=200"})
class WatchHttpIT {
    static final String CM = "/api/v1/namespaces/default/configmaps";

    @LocalServerPort
    int port;
    @Autowired
    GenericRegistry registry;

    final HttpClient http = HttpClient.newHttpClient();

    /** An open watch: its response headers have arrived, so the server-side subscription exists. */
    record OpenWatch(HttpResponse<Stream<String>> response, Iterator<String> lines) {
        JsonNode next() {
            return Json.MAPPER.readTree(lines.next());
        }

        void close() {
            response.body().close();
        }
    }

    OpenWatch watch(String pathAndQuery, String accept) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery));
        if (accept != null) {
            b.header("Accept", accept);
        }
        HttpResponse<Stream<String>> r = http.sendAsync(b.build(), HttpResponse.BodyHandlers.ofLines())
                .get(10, TimeUnit.SECONDS);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(
                ct -> assertThat(ct).startsWith("application/json"));
        return new OpenWatch(r, r.body().iterator());
    }

    void createConfigMap(String name, String value) {
        ObjectNode cm = Json.object();
        cm.putObject("metadata").put("name", name).putObject("labels").put("app", "watch-test");
        cm.putObject("data").put("v", value);
        registry.create(ResourceTypes.CONFIGMAPS, "default", cm, WriteOptions.DEFAULT);
    }

    long revision() {
        return registry.store().revision();
    }

    @Test
    void everyWatcherGetsEveryEventOnceInResourceVersionOrder() throws Exception {
        long start = revision();
        int watchers = 4;
        int writers = 6;
        int perWriter = 60;
        List<OpenWatch> open = new ArrayList<>();
        for (int i = 0; i < watchers; i++) {
            open.add(watch(CM + "?watch=true&resourceVersion=" + start + "&labelSelector=app%3Dwatch-test", null));
        }
        int expected = writers * perWriter * 2;
        List<CompletableFuture<List<JsonNode>>> received = new ArrayList<>();
        ExecutorService readers = Executors.newFixedThreadPool(watchers);
        for (OpenWatch w : open) {
            received.add(CompletableFuture.supplyAsync(() -> {
                List<JsonNode> events = new ArrayList<>();
                while (events.size() < expected) {
                    events.add(w.next());
                }
                return events;
            }, readers));
        }
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        List<Future<?>> done = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int writer = w;
            done.add(pool.submit(() -> {
                for (int i = 0; i < perWriter; i++) {
                    String name = "c-" + writer + "-" + i;
                    createConfigMap(name, "1");
                    registry.patch(ResourceTypes.CONFIGMAPS, "default", name, PatchType.MERGE,
                            Json.MAPPER.readTree("{\"data\":{\"v\":\"2\"}}"), false, WriteOptions.DEFAULT);
                }
            }));
        }
        for (Future<?> f : done) {
            f.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();
        for (int i = 0; i < watchers; i++) {
            List<JsonNode> events = received.get(i).get(60, TimeUnit.SECONDS);
            long last = start;
            Set<String> seen = new HashSet<>();
            for (JsonNode e : events) {
                long rv = Long.parseLong(e.at("/object/metadata/resourceVersion").asString());
                assertThat(rv).as("watcher %d: resourceVersion order", i).isGreaterThan(last);
                last = rv;
                assertThat(seen.add(e.get("type").asString() + " " + e.at("/object/metadata/name").asString()))
                        .as("watcher %d: delivered once", i).isTrue();
            }
            assertThat(events).filteredOn(e -> e.get("type").asString().equals("ADDED")).hasSize(expected / 2);
            assertThat(events).filteredOn(e -> e.get("type").asString().equals("MODIFIED")).hasSize(expected / 2);
            open.get(i).close();
        }
        readers.shutdown();
    }

    @Test
    void initialEventsForResourceVersionZeroThenChanges() throws Exception {
        createConfigMap("initial-a", "1");
        OpenWatch w = watch(CM + "?watch=1&resourceVersion=0&fieldSelector=metadata.name%3Dinitial-a", null);
        JsonNode first = w.next();
        assertThat(first.get("type").asString()).isEqualTo("ADDED");
        assertThat(first.at("/object/data/v").asString()).isEqualTo("1");
        registry.patch(ResourceTypes.CONFIGMAPS, "default", "initial-a", PatchType.MERGE,
                Json.MAPPER.readTree("{\"data\":{\"v\":\"2\"}}"), false, WriteOptions.DEFAULT);
        JsonNode second = w.next();
        assertThat(second.get("type").asString()).isEqualTo("MODIFIED");
        assertThat(second.at("/object/data/v").asString()).isEqualTo("2");
        w.close();
    }

    @Test
    void tooOldResourceVersionGetsAnExpiredErrorEventThenTheStreamEnds() throws Exception {
        for (int i = 0; i < 250; i++) {
            createConfigMap("old-" + i, "x");
        }
        OpenWatch w = watch(CM + "?watch=true&resourceVersion=1", null);
        JsonNode error = w.next();
        assertThat(error.get("type").asString()).isEqualTo("ERROR");
        assertThat(error.at("/object/kind").asString()).isEqualTo("Status");
        assertThat(error.at("/object/code").asInt()).isEqualTo(410);
        assertThat(error.at("/object/reason").asString()).isEqualTo("Expired");
        assertThat(error.at("/object/message").asString()).startsWith("too old resource version: 1 (");
        assertThat(w.lines().hasNext()).isFalse();
    }

    @Test
    void timeoutSecondsEndsTheBodyCleanly() throws Exception {
        long start = System.nanoTime();
        OpenWatch w = watch(CM + "?watch=true&resourceVersion=" + revision() + "&timeoutSeconds=1", null);
        assertThat(w.lines().hasNext()).isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void sendInitialEventsEndsWithAnAnnotatedBookmark() throws Exception {
        createConfigMap("bm-a", "1");
        OpenWatch w = watch(CM + "?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan"
                + "&allowWatchBookmarks=true&fieldSelector=metadata.name%3Dbm-a", null);
        assertThat(w.next().get("type").asString()).isEqualTo("ADDED");
        JsonNode bookmark = w.next();
        assertThat(bookmark.get("type").asString()).isEqualTo("BOOKMARK");
        assertThat(bookmark.at("/object/kind").asString()).isEqualTo("ConfigMap");
        assertThat(bookmark.at("/object/metadata/annotations/k8s.io~1initial-events-end").asString())
                .isEqualTo("true");
        assertThat(Long.parseLong(bookmark.at("/object/metadata/resourceVersion").asString())).isPositive();
        w.close();
    }

    /** client-go's WatchList: the state at least as fresh as the given resourceVersion, then the bookmark. */
    @Test
    void sendInitialEventsFromAResourceVersionSendsTheStateFirst() throws Exception {
        createConfigMap("wl-a", "1");
        long rv = revision();
        createConfigMap("wl-b", "1");
        OpenWatch w = watch(CM + "?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan"
                + "&allowWatchBookmarks=true&resourceVersion=" + rv + "&labelSelector=app%3Dwatch-test"
                + "&fieldSelector=metadata.name%21%3Dnone", null);
        Set<String> added = new HashSet<>();
        JsonNode e = w.next();
        while (e.get("type").asString().equals("ADDED")) {
            added.add(e.at("/object/metadata/name").asString());
            e = w.next();
        }
        assertThat(added).contains("wl-a", "wl-b");
        assertThat(e.get("type").asString()).isEqualTo("BOOKMARK");
        assertThat(Long.parseLong(e.at("/object/metadata/resourceVersion").asString())).isGreaterThan(rv);
        createConfigMap("wl-c", "1");
        JsonNode live = w.next();
        assertThat(live.get("type").asString()).isEqualTo("ADDED");
        assertThat(live.at("/object/metadata/name").asString()).isEqualTo("wl-c");
        w.close();
    }

    /** sendInitialEvents=false turns off the state kube-apiserver sends by default to a watch from "". */
    @Test
    void sendInitialEventsFalseSendsOnlyLaterChanges() throws Exception {
        createConfigMap("wl-old", "1");
        OpenWatch w = watch(CM + "?watch=true&sendInitialEvents=false&resourceVersionMatch=NotOlderThan"
                + "&fieldSelector=metadata.name%3Dwl-new", null);
        createConfigMap("wl-new", "1");
        JsonNode first = w.next();
        assertThat(first.get("type").asString()).isEqualTo("ADDED");
        assertThat(first.at("/object/metadata/name").asString()).isEqualTo("wl-new");
        w.close();
    }

    @Test
    void sendInitialEventsAheadOfTheStoreIsTooLargeResourceVersion() throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + CM
                + "?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion="
                + (revision() + 1000))).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(504);
        JsonNode status = Json.MAPPER.readTree(r.body());
        assertThat(status.get("reason").asString()).isEqualTo("Timeout");
        assertThat(status.get("message").asString()).contains("Too large resource version");
    }

    @Test
    void tableWatchSendsOneRowTablesPerEvent() throws Exception {
        createConfigMap("tw-a", "1");
        OpenWatch w = watch(CM + "?watch=true&resourceVersion=0&fieldSelector=metadata.name%3Dtw-a",
                DiscoveryAndTableHttpIT.TABLE_ACCEPT);
        JsonNode e = w.next();
        assertThat(e.get("type").asString()).isEqualTo("ADDED");
        assertThat(e.at("/object/kind").asString()).isEqualTo("Table");
        assertThat(e.at("/object/rows")).hasSize(1);
        assertThat(e.at("/object/rows/0/cells/0").asString()).isEqualTo("tw-a");
        assertThat(e.at("/object/rows/0/cells/1").asInt()).isEqualTo(1);
        w.close();
    }

    @Test
    void aWebSocketUpgradeAttemptGetsThePlainStreamingResponse() throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET " + CM + "?watch=true&resourceVersion=0 HTTP/1.1\r\nHost: 127.0.0.1:" + port
                    + "\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: http://127.0.0.1:" + port + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            assertThat(in.readLine()).startsWith("HTTP/1.1 200");
        }
    }

    @Test
    void badSelectorIsAPlainBadRequest() throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + CM
                + "?watch=true&fieldSelector=spec.nope%3Dx")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(Json.MAPPER.readTree(r.body()).get("reason").asString()).isEqualTo("BadRequest");
    }
}
