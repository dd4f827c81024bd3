package io.kuberaysim.examples;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs every request of every {@code http-examples/*.http} file, in file order, against a live server on a
 * random port, so the examples cannot rot: each must succeed, or fail with the code its {@code # @expect} says.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"kuberay-sim.clock=virtual"})
class HttpExamplesIT {
    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TestFactory
    Stream<DynamicTest> everyExampleRequest() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(Path.of("http-examples"))) {
            files = s.filter(p -> p.toString().endsWith(".http")).sorted().toList();
        }
        assertThat(files).isNotEmpty();
        Map<String, String> overrides = Map.of("host", "http://127.0.0.1:" + port);
        return files.stream().flatMap(f -> {
            try {
                HttpFile file = HttpFile.parse(f, overrides);
                return file.requests().stream().map(r -> DynamicTest.dynamicTest(
                        f.getFileName() + ": " + r.title(), () -> send(r)));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private void send(HttpFile.Request r) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(r.url())).timeout(Duration.ofSeconds(30));
        r.headers().forEach((k, v) -> {
            if (!k.equalsIgnoreCase("Host") && !k.equalsIgnoreCase("Content-Length")) {
                b.header(k, v);
            }
        });
        b.method(r.method(), r.body() == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(r.body()));
        HttpResponse<String> resp = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        if (r.expect() != 0) {
            assertThat(resp.statusCode()).as(r.title() + ": " + resp.body()).isEqualTo(r.expect());
            assertThat(resp.body()).contains("\"kind\":\"Status\"");
        } else {
            assertThat(resp.statusCode()).as(r.title() + ": " + resp.body()).isBetween(200, 299);
        }
    }
}
