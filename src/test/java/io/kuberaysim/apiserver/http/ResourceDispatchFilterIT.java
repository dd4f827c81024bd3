package io.kuberaysim.apiserver.http;

import io.kuberaysim.testing.RawHttp;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.web.context.support.ServletRequestHandledEvent;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Resource requests served by {@link ResourceDispatchFilter} (without Spring MVC's servlet) answer exactly what the
 * same requests answer through Spring MVC: status, headers and bytes, for successes and for every kind of error.
 * A request carrying an {@code Upgrade} header is left to Spring MVC by the filter, which gives the reference
 * answer over the same port; Spring MVC's own record of the requests it handled shows which path each one took
 * (published before its servlet returns, so before Tomcat closes the connection).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"kuberay-sim.controllers=false", "spring.mvc.publish-request-handled-events=true"})
class ResourceDispatchFilterIT {
    private static final String RC = "/apis/ray.io/v1/namespaces/default/rayclusters";
    private static final String CM = "/api/v1/namespaces/default/configmaps";
    private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io";

    @LocalServerPort
    int port;

    @Autowired
    HandledBySpring handledBySpring;

    /** What Spring MVC's servlet handled, by method and path. */
    static final class HandledBySpring implements ApplicationListener<ServletRequestHandledEvent> {
        final Queue<String> requests = new ConcurrentLinkedQueue<>();

        @Override
        public void onApplicationEvent(ServletRequestHandledEvent event) {
            requests.add(event.getMethod() + " " + event.getRequestUrl());
        }
    }

    @TestConfiguration
    static class Listener {
        @Bean
        HandledBySpring handledBySpring() {
            return new HandledBySpring();
        }
    }

    private static String cluster(String name, String extra) {
        return "{\"apiVersion\":\"ray.io/v1\",\"kind\":\"RayCluster\",\"metadata\":{\"name\":\"" + name + "\"" + extra
                + "},\"spec\":{\"headGroupSpec\":{\"rayStartParams\":{},\"template\":{\"spec\":{\"containers\":"
                + "[{\"name\":\"ray-head\",\"image\":\"rayproject/ray:2.9.0\"}]}}}}}";
    }

    private static String configMap(String name) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\"},"
                + "\"data\":{\"a\":\"1\"}}";
    }

    /** Head and body in one write, so the body arrives with the headers (the common case) and is read at once. */
    private RawHttp.Response send(String method, String path, String contentType, String accept, String body,
                                  boolean throughSpring) throws IOException {
        byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: localhost\r\n");
        if (contentType != null) {
            head.append("Content-Type: ").append(contentType).append("\r\n");
        }
        if (accept != null) {
            head.append("Accept: ").append(accept).append("\r\n");
        }
        if (throughSpring) {
            head.append("Upgrade: reference-answer\r\n"); // no "Connection: upgrade": Tomcat does not act on it
        }
        head.append("Content-Length: ").append(bytes.length).append("\r\nConnection: close\r\n\r\n");
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        all.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
        all.write(bytes);
        try (RawHttp http = new RawHttp(port, Duration.ofSeconds(10))) {
            http.send(all.toByteArray());
            RawHttp.Response response = http.read();
            // Tomcat closes the connection once the request is done, after Spring MVC's servlet has published its record
            assertThat(http.closedByServer()).as("connection closed after " + method + " " + path).isTrue();
            return response;
        }
    }

    /** Status line code, headers but the date, and the body with what differs between two objects made alike. */
    private static String answer(RawHttp.Response r, String... names) {
        String body = r.text();
        for (String name : names) {
            body = body.replace(name, "NAME");
        }
        body = body.replaceAll("\"(uid|resourceVersion|creationTimestamp|time)\":\"[^\"]*\"", "\"$1\":\"X\"");
        List<String> headers = r.headers().stream()
                .filter(h -> !h.regionMatches(true, 0, "Date:", 0, 5))
                .map(h -> names.length > 0 && h.regionMatches(true, 0, "Content-Length:", 0, 15) ? "Content-Length" : h)
                .toList();
        return r.code() + "\n" + String.join("\n", headers) + "\n\n" + body;
    }

    /**
     * Sends a request that changes nothing both ways and expects the same answer, the first one served directly, or
     * for a failure, answered by Spring MVC from the failure of the handler the filter called.
     */
    private String same(String method, String path, String contentType, String accept, String body) throws IOException {
        handledBySpring.requests.clear();
        RawHttp.Response direct = send(method, path, contentType, accept, body, false);
        assertThat(handledBySpring.requests).as("served directly: " + method + " " + path)
                .hasSize(direct.code() >= 400 ? 1 : 0);
        handledBySpring.requests.clear();
        RawHttp.Response spring = send(method, path, contentType, accept, body, true);
        assertThat(handledBySpring.requests).as("served by Spring MVC: " + method + " " + path)
                .containsExactly(method + " " + path.replaceAll("\\?.*", ""));
        assertThat(answer(direct)).as(method + " " + path).isEqualTo(answer(spring));
        return answer(direct);
    }

    @Test
    @DisplayName("errors answered directly are the bytes Spring MVC answers: bad JSON, schema, conflict, missing, method, media type, path")
    void errorsAreTheSame() throws IOException {
        assertThat(send("POST", RC, "application/json", null, cluster("taken", ""), false).code()).isEqualTo(201);

        assertThat(same("POST", RC, "application/json", null, "{\"metadata\":")).startsWith("400");
        assertThat(same("POST", RC, "application/json", null, cluster("bad", ",\"labels\":{\"a\":7}")))
                .startsWith("4");
        assertThat(same("POST", RC, "application/json", null,
                cluster("Bad_Name", ""))).startsWith("422").contains("\"causes\"");
        assertThat(same("POST", RC, "application/json", null, cluster("taken", ""))).startsWith("409");
        assertThat(same("POST", RC, "text/plain", null, cluster("plain", ""))).startsWith("415");
        assertThat(same("POST", RC + "/taken", "application/json", null, cluster("taken", ""))).startsWith("405");
        assertThat(same("POST", "/apis/ray.io/v1/namespaces/default/nosuch", "application/json", null, "{}"))
                .startsWith("404");
        assertThat(same("PATCH", RC + "/missing", "application/merge-patch+json", null, "{}")).startsWith("404");
        assertThat(same("PATCH", RC + "/taken", "text/plain", null, "{}")).startsWith("415");
        assertThat(same("PATCH", RC + "/taken", "application/merge-patch+json", null, "[1]")).startsWith("4");
        assertThat(same("PATCH", RC + "/taken", "application/json-patch+json", null,
                "[{\"op\":\"test\",\"path\":\"/metadata/name\",\"value\":\"other\"}]")).startsWith("4");
        assertThat(same("PUT", RC + "/taken", "application/json", null, cluster("other", ""))).startsWith("4");
        assertThat(same("PUT", RC + "/taken", "application/json", null,
                cluster("taken", ",\"resourceVersion\":\"1\""))).startsWith("4");
        assertThat(same("DELETE", RC + "/missing", null, null, null)).startsWith("404");
        assertThat(same("GET", RC + "/missing", null, null, null)).startsWith("404");
    }

    @Test
    @DisplayName("reads answered directly are the bytes Spring MVC answers: JSON, YAML, Table, status subresource")
    void readsAreTheSame() throws IOException {
        assertThat(send("POST", CM, "application/json", null, configMap("read-me"), false).code()).isEqualTo(201);
        assertThat(send("POST", RC, "application/json", null, cluster("read-me", ""), false).code()).isEqualTo(201);

        assertThat(same("GET", CM + "/read-me", null, null, null)).startsWith("200").contains("\"a\":\"1\"");
        assertThat(same("GET", CM + "/read-me", null, "application/yaml", null)).startsWith("200");
        assertThat(same("GET", CM + "/read-me", null, TABLE, null)).startsWith("200").contains("\"kind\":\"Table\"");
        assertThat(same("GET", RC + "/read-me", null, null, null)).startsWith("200");
        assertThat(same("GET", RC + "/read-me/status", null, null, null)).startsWith("200");
        assertThat(same("GET", "/api/v1/namespaces/default", null, null, null)).startsWith("200");
        assertThat(same("POST", RC + "?dryRun=All", "application/json", null, cluster("dry", "")))
                .startsWith("201");
    }

    @Test
    @DisplayName("writes answered directly match Spring MVC's for objects made alike: create, warnings, merge PATCH, PUT, DELETE")
    void writesAreTheSame() throws IOException {
        for (String[] write : List.of(
                new String[]{"POST", RC, "application/json", cluster("w-%s", "")},
                new String[]{"POST", RC + "?fieldValidation=Warn", "application/json",
                        cluster("warn-%s", ",\"labels\":{\"a\":\"b\"},\"labels\":{\"c\":\"d\"},\"unknownField\":1")},
                new String[]{"PATCH", RC + "/w-%s", "application/merge-patch+json",
                        "{\"metadata\":{\"annotations\":{\"x\":\"y\"}}}"},
                new String[]{"PATCH", RC + "/w-%s/status", "application/merge-patch+json",
                        "{\"status\":{\"state\":\"ready\"}}"},
                new String[]{"PUT", CM + "/c-%s", "application/json", configMap("c-%s")},
                new String[]{"DELETE", RC + "/w-%s", null, null})) {
            if (write[0].equals("PUT")) {
                send("POST", CM, "application/json", null, configMap("c-direct"), false);
                send("POST", CM, "application/json", null, configMap("c-spring"), false);
            }
            handledBySpring.requests.clear();
            RawHttp.Response direct = send(write[0], write[1].formatted("direct"), write[2], null,
                    write[3] == null ? null : write[3].formatted("direct"), false);
            assertThat(handledBySpring.requests).as("served directly: " + write[0] + " " + write[1]).isEmpty();
            RawHttp.Response spring = send(write[0], write[1].formatted("spring"), write[2], null,
                    write[3] == null ? null : write[3].formatted("spring"), true);
            assertThat(handledBySpring.requests).as("served by Spring MVC: " + write[0] + " " + write[1]).hasSize(1);
            assertThat(direct.code()).as(write[0] + " " + write[1]).isLessThan(300);
            assertThat(answer(direct, "direct")).as(write[0] + " " + write[1]).isEqualTo(answer(spring, "spring"));
        }
    }

    @Test
    @DisplayName("lists, watches, logs, HEAD and names with a dot still go through Spring MVC")
    void othersGoThroughSpring() throws IOException {
        send("POST", CM, "application/json", null, configMap("kube-root-ca.crt"), false);
        for (String[] request : List.of(new String[]{"GET", CM}, new String[]{"GET", CM + "/kube-root-ca.crt"},
                new String[]{"HEAD", CM + "/kube-root-ca.crt"}, new String[]{"GET", "/api/v1/namespaces/default/pods/p/log"},
                new String[]{"DELETE", CM + "/kube-root-ca.crt"})) {
            handledBySpring.requests.clear();
            send(request[0], request[1], null, null, null, false);
            assertThat(handledBySpring.requests).as(request[0] + " " + request[1]).hasSize(1);
        }
    }
}
