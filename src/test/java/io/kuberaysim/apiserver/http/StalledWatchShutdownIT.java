package io.kuberaysim.apiserver.http;

import io.kuberaysim.KuberaySimApplication;
import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.WriteOptions;
import io.kuberaysim.testing.RawHttp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.Socket;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A server stops at once although a watch client reads nothing, whether its watch is still open or was already
 * closed as unresponsive: such a body cannot be ended (the client takes no data), so its connection is cut. Before,
 * the response stayed in progress in Tomcat and the graceful shutdown waited its whole timeout for it (30 s by
 * default, logged as "aborted with one or more requests still active").
 */
@ExtendWith(OutputCaptureExtension.class)
class StalledWatchShutdownIT {
    private static final String CM = "/api/v1/namespaces/default/configmaps";

    @Test
    void aWatcherClosedAsUnresponsiveDoesNotHoldUpShutdown(CapturedOutput output) throws Exception {
        ConfigurableApplicationContext ctx = start("kuberay-sim.watch-buffer=20");
        try (Socket stuck = RawHttp.getWithoutReading(port(ctx), CM + "?watch=1")) {
            WatchStreams watches = ctx.getBean(WatchStreams.class);
            await().atMost(Duration.ofSeconds(30)).until(() -> watches.activeCount() == 1);
            fill(ctx, 200);
            await().atMost(Duration.ofSeconds(30)).until(() -> watches.activeCount() == 0);

            // the client finds what reached its socket, then the end: the connection cut where the socket was full,
            // or the body ended where the writer (starved on a loaded machine) fell behind with room in the socket
            try (RawHttp closed = RawHttp.over(stuck, Duration.ofSeconds(30))) {
                assertThat(closed.readHead().code()).isEqualTo(200);
                assertThat(readsToTheEnd(closed)).isTrue();
            }
            ctx.close();
            assertThat(output).contains("Graceful shutdown complete").doesNotContain("requests still active");
        } finally {
            ctx.close();
        }
    }

    @Test
    void anOpenWatchWhoseClientReadsNothingDoesNotHoldUpShutdown(CapturedOutput output) throws Exception {
        ConfigurableApplicationContext ctx = start("kuberay-sim.watch-buffer=100000");
        try (Socket stuck = RawHttp.getWithoutReading(port(ctx), CM + "?watch=1")) {
            WatchStreams watches = ctx.getBean(WatchStreams.class);
            await().atMost(Duration.ofSeconds(30)).until(() -> watches.activeCount() == 1);
            fill(ctx, 200); // far more than the socket buffers hold; the watch stays open (its buffer is larger)
            assertThat(watches.activeCount()).isEqualTo(1);

            ctx.close();
            assertThat(output).contains("Graceful shutdown complete").doesNotContain("requests still active");
        } finally {
            ctx.close();
        }
    }

    private static ConfigurableApplicationContext start(String watchBuffer) {
        // a graceful timeout longer than the test waits for anything else: a held-up shutdown shows in the log
        return new SpringApplicationBuilder(KuberaySimApplication.class)
                .properties("server.port=0", "server.address=127.0.0.1", "kuberay-sim.clock=virtual",
                        "kuberay-sim.controllers=false", "spring.main.banner-mode=off", watchBuffer,
                        "spring.lifecycle.timeout-per-shutdown-phase=10s")
                .run();
    }

    private static int port(ConfigurableApplicationContext ctx) {
        return Integer.parseInt(ctx.getEnvironment().getProperty("local.server.port"));
    }

    /** 200 ConfigMaps of 50 kB: 10 MB for every watcher. */
    private static void fill(ConfigurableApplicationContext ctx, int n) {
        GenericRegistry registry = ctx.getBean(GenericRegistry.class);
        String payload = "x".repeat(50_000);
        for (int i = 0; i < n; i++) {
            ObjectNode cm = Json.object();
            cm.putObject("metadata").put("name", "filler-" + i);
            cm.putObject("data").put("payload", payload);
            registry.create(ResourceTypes.CONFIGMAPS, "default", cm, WriteOptions.DEFAULT);
        }
    }

    /** Reads the chunked body until the body or the connection ends; false if nothing ends within the timeout. */
    private static boolean readsToTheEnd(RawHttp http) {
        try {
            while (true) {
                int n = Integer.parseInt(http.line().trim(), 16);
                if (n == 0) {
                    return true;
                }
                http.readBytes(n);
                http.line();
            }
        } catch (java.net.SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // end of stream or reset: the connection was cut
        }
    }
}
