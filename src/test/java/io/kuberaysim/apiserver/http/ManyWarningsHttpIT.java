package io.kuberaysim.apiserver.http;

import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.testing.RawHttp;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A committed write is answered with its object even when it raises hundreds of warnings: the Warning headers are
 * truncated as kube-apiserver truncates them, so Tomcat's response header buffer never overflows.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = HttpEdgeTestProperties.ALL)
class ManyWarningsHttpIT {
    @LocalServerPort
    int port;
    @Autowired
    GenericRegistry registry;

    @Test
    @DisplayName("a RayCluster with 600 unknown fields: 201 with the object, a bounded set of Warning headers")
    void sixHundredUnknownFields() throws Exception {
        StringBuilder unknown = new StringBuilder();
        for (int i = 0; i < 600; i++) {
            unknown.append("\"u").append(i).append("\":").append(i).append(',');
        }
        String body = """
                {"apiVersion":"ray.io/v1","kind":"RayCluster","metadata":{"name":"warned"},
                 "spec":{%s"headGroupSpec":{"template":{"spec":{"containers":[{"name":"ray-head","image":"rayproject/ray:2.9.0"}]}}}}}
                """.formatted(unknown);
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        RawHttp.Response r = RawHttp.exchange(port, "POST /apis/ray.io/v1/namespaces/default/rayclusters HTTP/1.1\r\n"
                + "Host: localhost\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length
                + "\r\nConnection: close\r\n\r\n", bytes, Duration.ofSeconds(20));

        assertThat(r.code()).as(r.text()).isEqualTo(201);
        assertThat(r.json().at("/metadata/name").asString()).isEqualTo("warned");
        assertThat(r.headers("Warning")).hasSizeBetween(150, 300)
                .first().isEqualTo("299 - \"unknown field \\\"spec.u0\\\"\"");
        assertThat(registry.reader().get(ResourceTypes.RAYCLUSTERS, "default", "warned").json()).isNotEmpty();
    }
}
