package io.kuberaysim.security;

import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.ListOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Browsers cannot be turned against the server: a page on another origin cannot create a Pod with a "simple"
 * cross-site POST, a DNS-rebound host name is refused, while the server's own pages, listed origins and clients
 * that send no Origin (kubectl, client libraries) keep working.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"kuberay-sim.controllers=false", "kuberay-sim.allowed-origins=https://console.example:8443"})
class HostAndOriginHttpIT {
    static final String POD = """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s"},
             "spec":{"containers":[{"name":"c","image":"busybox"}]}}""";

    @LocalServerPort
    int port;
    @Autowired
    GenericRegistry registry;
    final HttpClient http = HttpClient.newHttpClient();

    private String base() {
        return "http://127.0.0.1:" + port;
    }

    /** A cross-site POST a page can send without a preflight: Blob body, no Content-Type. */
    private HttpResponse<String> postPod(String name, String origin) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base() + "/api/v1/namespaces/default/pods"))
                .POST(HttpRequest.BodyPublishers.ofString(POD.formatted(name)));
        if (origin != null) {
            b.header("Origin", origin);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private boolean podExists(String name) {
        return registry.reader().list(ResourceTypes.PODS, "default", ListOptions.ALL).items().stream()
                .anyMatch(o -> o.name().equals(name));
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://evil.example", "null", "http://127.0.0.1:1", "https://console.example",
            "http://localhost.evil.example", "not a url"})
    void aForeignOriginCannotCreateAPod(String origin) throws Exception {
        HttpResponse<String> r = postPod("from-web-page", origin);

        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(r.body()).contains("\"kind\":\"Status\"", "\"reason\":\"Forbidden\"", "\"code\":403",
                "Origin \\\"" + origin + "\\\" is not this server's own", "kuberay-sim.allowed-origins");
        assertThat(podExists("from-web-page")).isFalse();
        assertThat(r.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
    }

    @Test
    void clientsWithoutOriginAndTheServersOwnPagesAreUnaffected() throws Exception {
        assertThat(postPod("from-kubectl", null).statusCode()).isEqualTo(201);
        assertThat(postPod("from-swagger-ui", base()).statusCode()).isEqualTo(201);
        assertThat(postPod("from-localhost-page", "http://localhost:" + port).statusCode()).isEqualTo(403);
        assertThat(podExists("from-swagger-ui")).isTrue();
        assertThat(http.send(HttpRequest.newBuilder(URI.create(base() + "/swagger-ui/index.html")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
    }

    @Test
    void aListedOriginGetsCorsHeadersAndPreflightAnswers() throws Exception {
        HttpResponse<String> preflight = http.send(HttpRequest.newBuilder(
                        URI.create(base() + "/api/v1/namespaces/default/pods"))
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Origin", "https://console.example:8443")
                .header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "content-type,authorization").build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(preflight.statusCode()).isEqualTo(204);
        assertThat(preflight.headers().firstValue("Access-Control-Allow-Origin"))
                .hasValue("https://console.example:8443");
        assertThat(preflight.headers().firstValue("Access-Control-Allow-Methods").orElse("")).contains("POST");

        HttpResponse<String> created = postPod("from-console", "https://console.example:8443");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(created.headers().firstValue("Access-Control-Allow-Origin"))
                .hasValue("https://console.example:8443");
        assertThat(created.headers().firstValue("Access-Control-Allow-Credentials")).hasValue("true");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rebind.attacker.example", "127.0.0.1.nip.io", "10.1.2.3", "console.example.evil"})
    void aRequestForAnotherHostIsRefused(String host) throws Exception {
        String response = raw("POST /api/v1/namespaces/default/pods HTTP/1.1\r\nHost: " + host + ":" + port
                + "\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
                POD.formatted("rebound"));

        assertThat(response).startsWith("HTTP/1.1 403");
        assertThat(response).contains("\"reason\":\"Forbidden\"", "Host \\\"" + host + ":" + port
                + "\\\" is not a loopback name or address nor this server's address");
        assertThat(podExists("rebound")).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"localhost", "LOCALHOST", "127.0.0.1", "127.1.2.3", "[::1]", "app.localhost",
            "console.example"})
    void loopbackNamesAndListedHostsAreServed(String host) throws Exception {
        String response = raw("GET /api/v1/namespaces/default/pods HTTP/1.1\r\nHost: " + host + ":" + port
                + "\r\nConnection: close\r\n\r\n%s", "");

        assertThat(response).startsWith("HTTP/1.1 200");
    }

    /** Java's HTTP client will not send a Host of our choosing; a socket will. */
    private String raw(String template, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        String request = template.contains("%d") ? template.formatted(bytes.length, body) : template.formatted(body);
        try (Socket s = new Socket("127.0.0.1", port)) {
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
