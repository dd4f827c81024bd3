package io.kuberaysim.observability.health;

import io.kuberaysim.KuberaySimApplication;
import io.kuberaysim.apiserver.http.WatchStreams;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.Ordered;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A graceful shutdown makes {@code /readyz} fail first, while the server still answers and watches are still open;
 * the watches end afterwards.
 */
class ReadyzDuringShutdownIT {
    private final HttpClient http = HttpClient.newHttpClient();

    /** What a client sees during shutdown, asked by the last listener of the close event (after the check's). */
    static final class Observer implements ApplicationListener<ContextClosedEvent>, Ordered {
        final List<String> seen = new CopyOnWriteArrayList<>();
        int port;
        WatchStreams watches;

        @Override
        public void onApplicationEvent(ContextClosedEvent event) {
            try {
                HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + "/readyz?verbose")).build(),
                        HttpResponse.BodyHandlers.ofString());
                seen.add(r.statusCode() + " " + r.body());
                HttpResponse<String> one = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + "/readyz/shutdown")).build(),
                        HttpResponse.BodyHandlers.ofString());
                seen.add(one.statusCode() + " " + one.body());
                seen.add("open watches: " + watches.activeCount());
            } catch (Exception e) {
                seen.add("failed: " + e);
            }
        }

        @Override
        public int getOrder() {
            return Ordered.LOWEST_PRECEDENCE;
        }
    }

    @Test
    void readyzFailsAsSoonAsShutdownStartsBeforeWatchesClose() throws Exception {
        Observer observer = new Observer();
        ConfigurableApplicationContext ctx = new SpringApplicationBuilder(KuberaySimApplication.class)
                .listeners(observer)
                .properties("server.port=0", "server.address=127.0.0.1", "kuberay-sim.clock=virtual",
                        "kuberay-sim.controllers=false", "spring.main.banner-mode=off")
                .run();
        try {
            observer.port = Integer.parseInt(ctx.getEnvironment().getProperty("local.server.port"));
            observer.watches = ctx.getBean(WatchStreams.class);
            HttpResponse<String> before = http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + observer.port + "/readyz")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(before.statusCode()).isEqualTo(200);
            assertThat(before.body()).isEqualTo("ok");
            HttpResponse<Stream<String>> watch = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + observer.port + "/api/v1/namespaces?watch=true")).build(), HttpResponse.BodyHandlers.ofLines());
            assertThat(watch.statusCode()).isEqualTo(200);
            assertThat(observer.watches.activeCount()).isEqualTo(1);

            ctx.close();

            assertThat(observer.seen).containsExactly(
                    "500 [+]ping ok\n[-]shutdown failed: reason withheld\nreadyz check failed\n",
                    "500 internal server error: process is shutting down\n",
                    "open watches: 1");
            try (Stream<String> lines = watch.body()) {
                // the watch then ended cleanly, after the initial events of the four namespaces
                assertThat(lines.toList()).hasSize(4).allMatch(l -> l.startsWith("{\"type\":\"ADDED\""));
            }
        } finally {
            ctx.close();
        }
    }
}
