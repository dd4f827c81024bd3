package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.ListOptions;
import io.kuberaysim.testing.RawHttp;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Request bodies are limited before they are read (kuberay-sim.max-request-body-bytes, 64 KiB here): a declared
 * length over the limit is refused at once, without {@code 100 Continue}, and a chunked body is cut off when it
 * passes the limit. Each gets kube-apiserver's 413 RequestEntityTooLarge Status and the connection is closed.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = HttpEdgeTestProperties.ALL)
class RequestBodyLimitHttpIT {
    static final String CM = "/api/v1/namespaces/default/configmaps";
    static final long LIMIT = Long.parseLong(HttpEdgeTestProperties.MAX_BODY);
    static final String TOO_LARGE = "Request entity too large: limit is " + LIMIT;

    @LocalServerPort
    int port;
    @Autowired
    GenericRegistry registry;

    static void assertTooLarge(RawHttp.Response r) {
        assertThat(r.code()).as(r.text()).isEqualTo(413);
        assertThat(r.json().get("reason").asString()).isEqualTo("RequestEntityTooLarge");
        assertThat(r.json().get("message").asString()).isEqualTo(TOO_LARGE);
        assertThat(r.header("Connection")).isEqualTo("close");
    }

    @Test
    @DisplayName("a declared Content-Length over the limit is answered at once, though the body never comes")
    void declaredLengthOverTheLimit() throws Exception {
        try (RawHttp http = new RawHttp(port, Duration.ofSeconds(20))) {
            http.send("POST " + CM + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 99999999999\r\n\r\n{}");
            assertTooLarge(http.read());
            assertThat(http.closedByServer()).as("connection closed, not drained").isTrue();
        }
    }

    @Test
    @DisplayName("Expect: 100-continue with a body over the limit gets the 413 and no 100 Continue")
    void expectContinueOverTheLimit() throws Exception {
        try (RawHttp http = new RawHttp(port, Duration.ofSeconds(20))) {
            http.send("POST " + CM + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Expect: 100-continue\r\nContent-Length: 62914560\r\n\r\n");
            assertTooLarge(http.readNext());
        }
    }

    @Test
    @DisplayName("Expect: 100-continue within the limit gets 100 Continue, then the object is created")
    void expectContinueWithinTheLimit() throws Exception {
        String body = "{\"metadata\":{\"name\":\"continued\"}}";
        try (RawHttp http = new RawHttp(port, Duration.ofSeconds(20))) {
            http.send("POST " + CM + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Expect: 100-continue\r\nContent-Length: " + body.length() + "\r\nConnection: close\r\n\r\n");
            assertThat(http.readNext().code()).isEqualTo(100);
            http.send(body);
            assertThat(http.read().code()).isEqualTo(201);
        }
    }

    @Test
    @DisplayName("a chunked body is cut off once it passes the limit: 413, the rest is never read")
    void chunkedBodyOverTheLimit() throws Exception {
        try (RawHttp http = new RawHttp(port, Duration.ofSeconds(20))) {
            http.send("POST " + CM + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n");
            byte[] chunk = ("2000\r\n" + "x".repeat(0x2000) + "\r\n").getBytes(StandardCharsets.US_ASCII);
            try {
                for (int sent = 0; sent < 64 * 1024 * 1024; sent += 0x2000) {
                    http.send(chunk);
                }
            } catch (IOException e) {
                // the server stopped reading and closed the connection, as it should
            }
            assertTooLarge(http.read());
        }
    }

    @Test
    @DisplayName("20 concurrent 100 MiB bodies: 20 times 413, nothing stored")
    void concurrentHugeBodies() throws Exception {
        int before = registry.reader().list(ResourceTypes.CONFIGMAPS, "default", ListOptions.ALL).items().size();
        ExecutorService pool = Executors.newFixedThreadPool(20);
        try {
            List<Future<Integer>> codes = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                codes.add(pool.submit(() -> {
                    try (RawHttp http = new RawHttp(port, Duration.ofSeconds(30))) {
                        http.send("POST " + CM + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                                + "Content-Length: " + (100L << 20) + "\r\n\r\n");
                        byte[] block = new byte[1 << 16];
                        try {
                            for (long sent = 0; sent < 100L << 20; sent += block.length) {
                                http.send(block);
                            }
                        } catch (IOException e) {
                            // refused: the server closed the connection
                        }
                        return http.read().code();
                    }
                }));
            }
            for (Future<Integer> code : codes) {
                assertThat(code.get(60, TimeUnit.SECONDS)).isEqualTo(413);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(registry.reader().list(ResourceTypes.CONFIGMAPS, "default", ListOptions.ALL).items())
                .hasSize(before);
    }
}
