package io.kuberaysim.security;

import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.ListOptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The authentication matrix over a real port with {@code kuberay-sim.auth.token} set: no token, a wrong token, a
 * non-bearer header and the right token, on public and protected paths, with read and write verbs. Rejected writes
 * leave the store as it was.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"kuberay-sim.controllers=false", "kuberay-sim.auth.token=" + TokenAuthenticationHttpIT.TOKEN})
class TokenAuthenticationHttpIT {
    static final String TOKEN = "9f2c-test-token";
    static final String UNAUTHORIZED = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
            + "\"message\":\"Unauthorized\",\"reason\":\"Unauthorized\",\"code\":401}";
    private static final AtomicInteger NAMES = new AtomicInteger();

    @LocalServerPort
    int port;
    @Autowired
    GenericRegistry registry;
    final HttpClient http = HttpClient.newHttpClient();

    enum Credentials {
        NONE(null), WRONG("Bearer not-the-token"), BASIC("Basic YWRtaW46YWRtaW4="), EMPTY_BEARER("Bearer "),
        RIGHT("Bearer " + TOKEN);

        final String header;

        Credentials(String header) {
            this.header = header;
        }

        /** kube-apiserver: a presented token that matches nobody fails everywhere; no token is anonymous. */
        boolean anonymous() {
            return this == NONE || this == BASIC || this == EMPTY_BEARER;
        }
    }

    enum Verb { GET, POST, DELETE }

    static Stream<Arguments> matrix() {
        Stream.Builder<Arguments> b = Stream.builder();
        for (Credentials c : Credentials.values()) {
            for (String path : new String[]{"/version", "/healthz", "/livez", "/v3/api-docs",
                    "/swagger-ui/index.html"}) {
                b.add(Arguments.of(c, Verb.GET, path, c == Credentials.WRONG ? 401 : 200));
            }
            for (Verb v : Verb.values()) {
                int expected = c == Credentials.RIGHT ? (v == Verb.POST ? 201 : 200) : 401;
                b.add(Arguments.of(c, v, "/api/v1/namespaces/default/configmaps", expected));
            }
            b.add(Arguments.of(c, Verb.GET, "/apis/ray.io/v1/rayclusters", c == Credentials.RIGHT ? 200 : 401));
            b.add(Arguments.of(c, Verb.GET, "/sim/v1/clock", c == Credentials.RIGHT ? 200 : 401));
            b.add(Arguments.of(c, Verb.GET, "/metrics", c == Credentials.RIGHT ? 200 : 401));
            b.add(Arguments.of(c, Verb.GET, "/healthz/ping", c == Credentials.RIGHT ? 200 : 401));
            b.add(Arguments.of(c, Verb.GET, "/no/such/path", c == Credentials.RIGHT ? 404 : 401));
        }
        return b.build();
    }

    @ParameterizedTest(name = "{0} {1} {2} -> {3}")
    @MethodSource("matrix")
    void authenticationMatrix(Credentials credentials, Verb verb, String path, int expected) throws Exception {
        String name = "cm-" + NAMES.incrementAndGet();
        long before = configMaps();
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path
                + (verb == Verb.DELETE ? "/" + name : "")));
        if (credentials.header != null) {
            req.header("Authorization", credentials.header);
        }
        switch (verb) {
            case GET -> req.GET();
            case POST -> req.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                    "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\"}}"));
            case DELETE -> {
                createConfigMap(name);
                before = configMaps();
                req.DELETE();
            }
        }
        HttpResponse<String> resp = http.send(req.build(), HttpResponse.BodyHandlers.ofString());

        assertThat(resp.statusCode()).as(resp.body()).isEqualTo(expected);
        if (expected == 401) {
            assertThat(resp.body()).isEqualTo(UNAUTHORIZED);
            assertThat(resp.headers().firstValue("Content-Type")).hasValueSatisfying(
                    t -> assertThat(t).startsWith("application/json"));
            assertThat(configMaps()).as("a rejected request changes nothing").isEqualTo(before);
        }
        if (verb == Verb.POST && expected == 201) {
            assertThat(configMaps()).isEqualTo(before + 1);
        }
        if (verb == Verb.DELETE && expected == 200) {
            assertThat(configMaps()).isEqualTo(before - 1);
        }
    }

    @org.junit.jupiter.api.Test
    void swaggerUiOffersItsAuthorizeDialogForTheToken() throws Exception {
        HttpResponse<String> spec = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/v3/api-docs")).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(spec.statusCode()).isEqualTo(200);
        assertThat(spec.body()).contains("\"bearerToken\":{\"type\":\"http\"", "\"scheme\":\"bearer\"")
                .doesNotContain(TOKEN);
    }

    private void createConfigMap(String name) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/api/v1/namespaces/default/configmaps")).header("Authorization", "Bearer " + TOKEN)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\"}}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    }

    private long configMaps() {
        return registry.reader().list(ResourceTypes.CONFIGMAPS, "default", ListOptions.ALL).items().size();
    }
}
