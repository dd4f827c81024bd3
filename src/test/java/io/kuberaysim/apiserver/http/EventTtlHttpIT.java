package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code kuberay-sim.event-ttl=30s} on the virtual clock, seen by an HTTP client: the Event goes away on time. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "kuberay-sim.controllers=false", "kuberay-sim.clock=virtual", "kuberay-sim.event-ttl=30s"})
class EventTtlHttpIT {
    static final String EVENTS = "/api/v1/namespaces/default/events";

    @LocalServerPort
    int port;

    final HttpClient http = HttpClient.newHttpClient();

    HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", method.equals("PATCH") ? "application/merge-patch+json" : "application/json");
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void anEventIsDeletedThirtyVirtualSecondsAfterItsLastWrite() throws Exception {
        HttpResponse<String> created = send("POST", EVENTS, """
                {"metadata":{"name":"started"},"involvedObject":{"kind":"Pod","name":"p","namespace":"default"},
                 "reason":"Started","message":"Started container","count":1,"type":"Normal"}""");
        assertThat(created.statusCode()).isEqualTo(201);
        String rv = Json.text(Json.MAPPER.readTree(created.body()), "metadata", "resourceVersion");
        HttpResponse<Stream<String>> watch = http.sendAsync(HttpRequest.newBuilder(URI.create(
                        "http://127.0.0.1:" + port + EVENTS + "?watch=true&resourceVersion=" + rv)).build(),
                HttpResponse.BodyHandlers.ofLines()).get(10, TimeUnit.SECONDS);
        Iterator<String> lines = watch.body().iterator();

        send("POST", "/sim/v1/clock/advance?seconds=20", null);
        assertThat(send("PATCH", EVENTS + "/started", "{\"count\":2}").statusCode()).isEqualTo(200);
        send("POST", "/sim/v1/clock/advance?seconds=29", null);
        assertThat(send("GET", EVENTS + "/started", null).statusCode()).as("29 s after the count bump").isEqualTo(200);
        send("POST", "/sim/v1/clock/advance?seconds=1", null);

        HttpResponse<String> gone = send("GET", EVENTS + "/started", null);
        assertThat(gone.statusCode()).isEqualTo(404);
        assertThat(Json.MAPPER.readTree(gone.body()).path("reason").asString()).isEqualTo("NotFound");
        JsonNode modified = Json.MAPPER.readTree(lines.next());
        JsonNode deleted = Json.MAPPER.readTree(lines.next());
        assertThat(modified.path("type").asString()).isEqualTo("MODIFIED");
        assertThat(deleted.path("type").asString()).isEqualTo("DELETED");
        assertThat(Json.text(deleted, "object", "metadata", "name")).isEqualTo("started");
        watch.body().close();
    }
}
