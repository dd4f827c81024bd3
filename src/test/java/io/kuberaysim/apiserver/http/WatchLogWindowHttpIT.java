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

import java.net.Socket;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * HTTP watchers read the store's change log at their own pace. One whose client stops reading long enough for the
 * changes it has not read to leave the log (at least 10,000 changes; the buffer is set high here so the
 * responsiveness check does not close it first) is ended, as kube-apiserver's watch cache ends a watcher that fell
 * out of its window: the client gets what was sent before, in order, then the end of the body, and its watch from
 * the last resourceVersion it saw gets 410 Expired once that has left the history.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "kuberay-sim.controllers=false", "kuberay-sim.watch-history=100", "kuberay-sim.watch-buffer=100000"})
class WatchLogWindowHttpIT {
    static final String CM = "/api/v1/namespaces/default/configmaps";

    @LocalServerPort
    int port;
    @Autowired
    GenericRegistry registry;
    @Autowired
    WatchStreams watches;

    @Test
    @DisplayName("a watcher that falls out of the change log is ended; watching again from where it was gets 410")
    void watcherThatFallsOutOfTheLogIsEnded() throws Exception {
        long rv = registry.store().revision();
        int before = watches.activeCount();
        Socket socket = RawHttp.getWithoutReading(port, CM + "?watch=1&resourceVersion=" + rv);
        await().atMost(Duration.ofSeconds(30)).until(() -> watches.activeCount() == before + 1);

        // the socket buffers take a few hundred of these before the watch stalls; the rest only go into the log
        int writes = 12_000;
        for (int i = 0; i < writes; i++) {
            ObjectNode cm = Json.object();
            cm.putObject("metadata").put("name", "window-" + i);
            registry.create(ResourceTypes.CONFIGMAPS, "default", cm, WriteOptions.DEFAULT);
        }

        List<String> lines;
        try (RawHttp stalled = RawHttp.over(socket, Duration.ofSeconds(60))) {
            RawHttp.Response r = stalled.read(); // the whole body: it ends once the watcher reads again
            assertThat(r.code()).isEqualTo(200);
            lines = r.text().lines().toList();
        }
        assertThat(lines).isNotEmpty().hasSizeLessThan(writes / 2);
        long last = 0;
        for (int i = 0; i < lines.size(); i++) {
            JsonNode event = Json.MAPPER.readTree(lines.get(i));
            assertThat(event.path("type").asText()).isEqualTo("ADDED");
            assertThat(event.path("object").path("metadata").path("name").asText()).isEqualTo("window-" + i);
            last = Long.parseLong(event.path("object").path("metadata").path("resourceVersion").asText());
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> watches.activeCount() == before);

        RawHttp.Response again = RawHttp.exchange(port, "GET " + CM + "?watch=1&resourceVersion=" + last
                + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", Duration.ofSeconds(30));
        assertThat(again.code()).isEqualTo(200);
        JsonNode error = Json.MAPPER.readTree(again.text().lines().findFirst().orElseThrow());
        assertThat(error.path("type").asText()).isEqualTo("ERROR");
        assertThat(error.path("object").path("code").asInt()).isEqualTo(410);
        assertThat(error.path("object").path("reason").asText()).isEqualTo("Expired");
    }
}
