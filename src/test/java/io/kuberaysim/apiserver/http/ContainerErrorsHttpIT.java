package io.kuberaysim.apiserver.http;

import io.kuberaysim.testing.RawHttp;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What Tomcat rejects before any handler runs, and what Spring would answer on its own, is a metav1 Status with the
 * right code and reason: never an HTML page, never Spring Boot's error JSON.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = HttpEdgeTestProperties.ALL)
class ContainerErrorsHttpIT {
    static final String CM = "/api/v1/namespaces/default/configmaps";
    static final String END = "Host: localhost\r\nConnection: close\r\n\r\n";

    @LocalServerPort
    int port;

    RawHttp.Response send(String request) throws Exception {
        return RawHttp.exchange(port, request, Duration.ofSeconds(20));
    }

    static Stream<Arguments> rejected() {
        String post = "POST " + CM + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nConnection: close\r\n";
        return Stream.of(
                Arguments.of("encoded slash in a name", "GET " + CM + "/a%2Fb HTTP/1.1\r\n" + END, 400, "BadRequest"),
                Arguments.of("encoded backslash in a name", "GET " + CM + "/a%5Cb HTTP/1.1\r\n" + END, 400, "BadRequest"),
                Arguments.of("encoded NUL in a name", "GET " + CM + "/a%00b HTTP/1.1\r\n" + END, 400, "BadRequest"),
                Arguments.of("bad percent-encoding in the path", "GET " + CM + "/a%zz HTTP/1.1\r\n" + END, 400, "BadRequest"),
                Arguments.of("bad percent-encoding in the query", "GET " + CM + "?labelSelector=%zz HTTP/1.1\r\n" + END, 400, "BadRequest"),
                Arguments.of("dot segments above the root", "GET /../../etc/passwd HTTP/1.1\r\n" + END, 400, "BadRequest"),
                Arguments.of("URL over the header limit", "GET " + CM + "/" + "a".repeat(10_000) + " HTTP/1.1\r\n" + END, 400, "BadRequest"),
                Arguments.of("header over the limit", "GET " + CM + " HTTP/1.1\r\nX-Big: " + "a".repeat(10_000) + "\r\n" + END, 400, "BadRequest"),
                Arguments.of("no Host header", "GET " + CM + " HTTP/1.1\r\nConnection: close\r\n\r\n", 400, "BadRequest"),
                Arguments.of("Content-Length that is not a number", post + "Content-Length: abc\r\n\r\n", 400, "BadRequest"),
                Arguments.of("malformed chunked body", post + "Transfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n", 400, "BadRequest"),
                Arguments.of("unknown transfer coding", post + "Transfer-Encoding: gzip\r\n\r\n", 400, "BadRequest"),
                Arguments.of("GET /error", "GET /error HTTP/1.1\r\n" + END, 404, "NotFound"),
                Arguments.of("a path under META-INF", "GET /META-INF/x HTTP/1.1\r\n" + END, 404, "NotFound"),
                Arguments.of("TRACE", "TRACE " + CM + " HTTP/1.1\r\n" + END, 405, "MethodNotAllowed"),
                Arguments.of("CONNECT", "CONNECT example.com:443 HTTP/1.1\r\n" + END, 405, "MethodNotAllowed"),
                Arguments.of("an unknown method", "FOO " + CM + " HTTP/1.1\r\n" + END, 405, "MethodNotAllowed"),
                Arguments.of("Content-Type */*", post.replace("application/json", "*/*") + "Content-Length: 2\r\n\r\n{}", 415, "UnsupportedMediaType"),
                Arguments.of("Content-Type application/*", post.replace("application/json", "application/*") + "Content-Length: 2\r\n\r\n{}", 415, "UnsupportedMediaType"),
                Arguments.of("Content-Type that is not a media type", post.replace("application/json", "garbage") + "Content-Length: 2\r\n\r\n{}", 415, "UnsupportedMediaType"),
                Arguments.of("patch with Content-Type */*", "PATCH " + CM + "/x HTTP/1.1\r\nHost: localhost\r\nContent-Type: */*\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}", 415, "UnsupportedMediaType"));
    }

    @ParameterizedTest(name = "{0}: {2} {3}")
    @MethodSource("rejected")
    @DisplayName("rejected requests get a Status")
    void rejectedRequestsGetAStatus(String what, String request, int code, String reason) throws Exception {
        RawHttp.Response r = send(request);
        assertThat(r.code()).as(r.text()).isEqualTo(code);
        assertThat(r.header("Content-Type")).startsWith("application/json");
        JsonNode status = r.json();
        assertThat(status.get("kind").asString()).isEqualTo("Status");
        assertThat(status.get("status").asString()).isEqualTo("Failure");
        assertThat(status.get("reason").asString()).isEqualTo(reason);
        assertThat(status.get("code").asInt()).isEqualTo(code);
        assertThat(status.get("message").asString()).isNotBlank().doesNotContain("Exception");
    }

    @Test
    @DisplayName("a write without Content-Type is read as JSON, as kube-apiserver reads it")
    void noContentTypeIsJson() throws Exception {
        String body = "{\"metadata\":{\"name\":\"untyped\"},\"data\":{\"a\":\"b\"}}";
        RawHttp.Response r = send("POST " + CM + " HTTP/1.1\r\nHost: localhost\r\nContent-Length: " + body.length()
                + "\r\nConnection: close\r\n\r\n" + body);
        assertThat(r.code()).as(r.text()).isEqualTo(201);
        assertThat(r.json().at("/data/a").asString()).isEqualTo("b");
    }
}
