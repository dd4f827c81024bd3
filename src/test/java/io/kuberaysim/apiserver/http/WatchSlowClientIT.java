package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.WriteOptions;
import io.kuberaysim.testing.RawHttp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.node.ObjectNode;

import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Watch writers are shared, so a client that stops reading must not stall the others: writes never block (a
 * writer leaves a connection that accepts no data and comes back when it does), and the pool stays its fixed size.
 * When such clients go away, their watches end quietly.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"kuberay-sim.controllers=false", "kuberay-sim.watch-history=100000"})
class WatchSlowClientIT {
    private static final String PATH = "/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=";

    @LocalServerPort
    int port;
    @Autowired
    GenericRegistry registry;
    @Autowired
    WatchStreams watches;

    private Socket openWatch(long rv) throws Exception {
        return RawHttp.getWithoutReading(port, PATH + rv);
    }

    @Test
    void watchersThatStopReadingDoNotStallTheOthers(CapturedOutput output) throws Exception {
        int before = watches.activeCount();
        long writersBefore = WatchBufferHttpIT.writerThreads();
        long rv = registry.store().revision();
        List<Socket> stuck = new ArrayList<>();
        for (int i = 0; i < WatchStreams.WRITERS * 2; i++) {
            stuck.add(openWatch(rv)); // never read: their writes block once the socket buffers are full
        }
        int writes = 150;
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<Stream<String>> response = http.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + PATH + rv)).build(), HttpResponse.BodyHandlers.ofLines());
        CompletableFuture<Long> received = CompletableFuture.supplyAsync(() -> response.body()
                .filter(l -> l.startsWith("{\"type\":\"ADDED\"")).limit(writes).count());
        String big = "x".repeat(200_000);
        for (int i = 0; i < writes; i++) {
            ObjectNode cm = Json.object();
            cm.putObject("metadata").put("name", "cm-" + i);
            cm.putObject("data").put("payload", big);
            registry.create(ResourceTypes.CONFIGMAPS, "default", cm, WriteOptions.DEFAULT);
        }
        assertThat(received.get(60, TimeUnit.SECONDS)).isEqualTo((long) writes);
        // other cached application contexts have writers of their own: the pool may start its threads, no more
        assertThat(WatchBufferHttpIT.writerThreads() - writersBefore).isLessThanOrEqualTo(WatchStreams.WRITERS);
        for (Socket s : stuck) {
            s.close();
        }
        response.body().close();
        // the container reports the broken connections; the watches end without an error dispatch of the request
        // (which ran the watch handler again and logged an "unexpected failure" with a stack trace per client)
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            ObjectNode cm = Json.object(); // a change to write: a watch whose client left is noticed at a write
            cm.putObject("metadata").put("name", "after-close-" + System.nanoTime());
            registry.create(ResourceTypes.CONFIGMAPS, "default", cm, WriteOptions.DEFAULT);
            return watches.activeCount() == before;
        });
        assertThat(output).doesNotContain("unexpected failure").doesNotContain("non-recycled");
    }
}
