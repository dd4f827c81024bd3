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
import tools.jackson.databind.node.ObjectNode;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A rejected, finished or abandoned watch leaves nothing behind among the open watches. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = HttpEdgeTestProperties.ALL)
class WatchLeakHttpIT {
    static final String CM = "/api/v1/namespaces/default/configmaps";

    @LocalServerPort
    int port;
    @Autowired
    WatchStreams watches;
    @Autowired
    GenericRegistry registry;

    final HttpClient http = HttpClient.newHttpClient();

    int get(String pathAndQuery) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    void createConfigMap(String name) {
        ObjectNode cm = Json.object();
        cm.putObject("metadata").put("name", name);
        registry.create(ResourceTypes.CONFIGMAPS, "default", cm, WriteOptions.DEFAULT);
    }

    @Test
    @DisplayName("300 rejected watches (bad resourceVersion, bad selector) leave no open watch")
    void rejectedWatches() throws Exception {
        int before = watches.activeCount();
        for (int i = 0; i < 150; i++) {
            assertThat(get(CM + "?watch=1&resourceVersion=abc")).isEqualTo(400);
            assertThat(get(CM + "?watch=1&labelSelector=a%20in%20(")).isEqualTo(400);
        }
        assertThat(watches.activeCount()).isEqualTo(before);
    }

    @Test
    @DisplayName("a watch that ended (timeoutSeconds, 410 Expired ERROR event) is no longer open")
    void finishedWatches() throws Exception {
        int before = watches.activeCount();
        RawHttp.Response timedOut = RawHttp.exchange(port, "GET " + CM + "?watch=1&timeoutSeconds=1 HTTP/1.1\r\n"
                + "Host: localhost\r\nConnection: close\r\n\r\n", Duration.ofSeconds(20));
        assertThat(timedOut.code()).isEqualTo(200);
        assertThat(watches.activeCount()).isEqualTo(before);

        try (RawHttp client = new RawHttp(port, Duration.ofSeconds(20))) {
            client.send("GET " + CM + "?watch=1 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
            assertThat(client.readHead().code()).isEqualTo(200);
            watches.expireAll("expired by the test");
            String rest = new String(client.socket().getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(rest).contains("\"type\":\"ERROR\"").contains("\"code\":410").endsWith("0\r\n\r\n");
        }
        assertThat(watches.activeCount()).isEqualTo(before);
    }

    @Test
    @DisplayName("a watch whose client left is closed at the next event")
    void abandonedWatch() throws Exception {
        int before = watches.activeCount();
        try (RawHttp client = new RawHttp(port, Duration.ofSeconds(20))) {
            client.send("GET " + CM + "?watch=1 HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertThat(client.readHead().code()).isEqualTo(200);
            assertThat(watches.activeCount()).isEqualTo(before + 1);
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            createConfigMap("after-close-" + System.nanoTime());
            return watches.activeCount() == before;
        });
    }
}
