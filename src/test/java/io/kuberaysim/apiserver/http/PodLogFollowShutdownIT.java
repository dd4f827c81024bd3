package io.kuberaysim.apiserver.http;

import io.kuberaysim.KuberaySimApplication;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code kubectl logs -f} against a server that shuts down: the stream ends cleanly with what it had, in the first
 * shutdown phase, so the web server's graceful shutdown does not wait its timeout for it (and then cut it off).
 */
class PodLogFollowShutdownIT {
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aFollowedLogEndsCleanlyWhenTheServerStops() throws Exception {
        ConfigurableApplicationContext ctx = new SpringApplicationBuilder(KuberaySimApplication.class)
                // a short graceful timeout: a stream left open would be cut off (a truncated body), not waited for
                .properties("server.port=0", "server.address=127.0.0.1", "kuberay-sim.clock=virtual",
                        "kuberay-sim.controllers=true", "spring.main.banner-mode=off",
                        "spring.lifecycle.timeout-per-shutdown-phase=2s")
                .run();
        try {
            String base = "http://127.0.0.1:" + ctx.getEnvironment().getProperty("local.server.port")
                    + "/api/v1/namespaces/default/pods";
            HttpResponse<String> created = http.send(HttpRequest.newBuilder(URI.create(base))
                    .header("Content-Type", "application/yaml")
                    .POST(HttpRequest.BodyPublishers.ofString("""
                            apiVersion: v1
                            kind: Pod
                            metadata: {name: followed}
                            spec:
                              containers: [{name: main, image: busybox, command: [sleep, "3600"]}]
                            """)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            VirtualClock clock = (VirtualClock) ctx.getBean(Clock.class);
            clock.awaitIdle();
            clock.advance(Duration.ofSeconds(3));
            HttpResponse<Stream<String>> follow = http.send(HttpRequest.newBuilder(
                    URI.create(base + "/followed/log?follow=true")).build(), HttpResponse.BodyHandlers.ofLines());
            assertThat(follow.statusCode()).isEqualTo(200);

            ctx.close();

            try (Stream<String> lines = follow.body()) {
                List<String> all = lines.toList(); // a body cut off by the server would throw here
                assertThat(all).anyMatch(l -> l.contains("command: sleep 3600"));
                assertThat(all).noneMatch(l -> l.contains("exited"));
            }
        } finally {
            ctx.close();
        }
    }
}
