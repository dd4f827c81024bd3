package io.kuberaysim.config;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.options.GetOption;
import io.kuberaysim.testing.EtcdServer;
import io.kuberaysim.testing.ServerProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static io.kuberaysim.testing.ServerProcess.Awaiting.until;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The packaged jar ({@code java -jar target/kuberay-sim.jar}) starts with the bean definitions Spring's
 * ahead-of-time processing generated at build time, and the settings that choose beans still work there: the
 * controllers on or off, request metrics off, the etcd store with its health check and compactor, and the refusal
 * of etcd with the virtual clock. Each case is one server process; the virtual clock makes the operator's work
 * deterministic (settle instead of waiting).
 */
class PackagedJarSettingsIT {
    private static final Path JAR = Path.of("target", "kuberay-sim.jar");
    private static final String AOT_START = "Starting AOT-processed KuberaySimApplication";
    private static final String CLUSTERS = "/apis/ray.io/v1/namespaces/default/rayclusters";
    private static final String PODS = "/api/v1/namespaces/default/pods?labelSelector=ray.io/cluster%3Ddemo-raycluster";
    private static final Duration START = Duration.ofSeconds(120);

    private final List<ServerProcess> servers = new ArrayList<>();
    private EtcdServer etcd;

    @BeforeEach
    void jarBuilt() {
        assumeTrue(Files.isRegularFile(JAR), "the jar is built by package, before the integration tests");
    }

    @AfterEach
    void stopAll() {
        servers.forEach(ServerProcess::close);
        if (etcd != null) {
            etcd.close();
        }
    }

    private ServerProcess jar(String name, String... args) {
        ServerProcess s = ServerProcess.startJar(name, JAR, List.of(args));
        servers.add(s);
        return s;
    }

    private static String demoCluster() throws IOException {
        return Files.readString(Path.of("http-examples", "demo-raycluster.yaml"));
    }

    @Test
    void byDefaultTheOperatorRunsAndEveryRequestIsCounted() throws IOException {
        ServerProcess s = jar("aot-defaults", "--kuberay-sim.clock=virtual").awaitReady(START);
        assertThat(s.log()).contains(AOT_START);
        assertThat(s.get("/readyz?verbose").body()).contains("[+]informer-sync ok", "[+]controllers ok");

        assertThat(s.send("POST", CLUSTERS, "application/yaml", demoCluster()).statusCode()).isEqualTo(201);
        assertThat(s.send("POST", "/sim/v1/clock/settle", "application/json", "").statusCode()).isEqualTo(200);

        assertThat(s.getJson(PODS).path("items")).as("head and two workers").hasSize(3);
        assertThat(s.get("/metrics").body()).contains("apiserver_request_total{", "kuberay_cluster_info{");
    }

    @Test
    void controllersAndRequestMetricsTurnOff() throws IOException {
        ServerProcess s = jar("aot-bare", "--kuberay-sim.clock=virtual", "--kuberay-sim.controllers=false",
                "--kuberay-sim.metrics.requests=false").awaitReady(START);
        assertThat(s.log()).contains(AOT_START);
        assertThat(s.get("/readyz?verbose").body()).isEqualTo("[+]ping ok\n[+]shutdown ok\nreadyz check passed\n");

        assertThat(s.send("POST", CLUSTERS, "application/yaml", demoCluster()).statusCode()).isEqualTo(201);
        assertThat(s.send("POST", "/sim/v1/clock/settle", "application/json", "").statusCode()).isEqualTo(200);

        assertThat(s.getJson(PODS).path("items")).as("no operator: no Pods").isEmpty();
        assertThat(s.get("/metrics").body()).doesNotContain("apiserver_request_total", "kuberay_cluster_info")
                .contains("apiserver_storage_objects{");
    }

    @Test
    void etcdStorageIsUsedAndChecked() {
        EtcdServer.assumeInstalled();
        etcd = EtcdServer.start();
        String[] args = {"--kuberay-sim.storage=etcd", "--kuberay-sim.etcd.endpoints=" + etcd.endpoint(),
                "--kuberay-sim.etcd.compaction-interval=1s", "--kuberay-sim.controllers=false"};
        ServerProcess first = jar("aot-etcd", args).awaitReady(START);
        assertThat(first.log()).contains(AOT_START);
        assertThat(first.get("/readyz?verbose").body()).contains("[+]etcd ok");
        assertThat(first.send("POST", "/api/v1/namespaces/default/configmaps", "application/json",
                "{\"metadata\":{\"name\":\"kept\"},\"data\":{\"a\":\"b\"}}").statusCode()).isEqualTo(201);
        assertCompacted(etcd.endpoint());
        first.kill();

        ServerProcess second = jar("aot-etcd-again", args).awaitReady(START);
        assertThat(second.getJson("/api/v1/namespaces/default/configmaps/kept").path("data").path("a").asText())
                .as("the object outlived the process: it was in etcd").isEqualTo("b");
    }

    /** The compactor runs: etcd's first revisions become unreadable (a 1 s interval compacts within ~2 s). */
    private static void assertCompacted(String endpoint) {
        try (Client client = Client.builder().endpoints(endpoint).build()) {
            until(Duration.ofSeconds(30), "etcd compacted by the server", () -> {
                try {
                    client.getKVClient().get(ByteSequence.from("/registry", StandardCharsets.UTF_8),
                            GetOption.builder().withRevision(1).build()).get(10, TimeUnit.SECONDS);
                    return false;
                } catch (ExecutionException e) {
                    return String.valueOf(e.getCause().getMessage()).contains("compacted");
                } catch (InterruptedException | TimeoutException e) {
                    return false;
                }
            });
        }
    }

    @Test
    void etcdWithTheVirtualClockIsRefused() {
        ServerProcess s = jar("aot-refused", "--kuberay-sim.storage=etcd", "--kuberay-sim.clock=virtual");
        assertThat(s.awaitExit(START)).isNotZero();
        assertThat(s.log()).contains(AOT_START,
                "kuberay-sim.storage=etcd does not work with kuberay-sim.clock=virtual");
    }
}
