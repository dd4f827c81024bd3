package io.kuberaysim.e2e;

import io.kuberaysim.testing.SeedManifests;
import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.WriteOptions;
import io.kuberaysim.apiserver.http.WatchStreams;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.node.ObjectNode;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The real {@code kubectl} binary against the server on a random port, with a fresh discovery cache and a
 * kubeconfig pointing at it. Skipped (with a message) where kubectl is not installed.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "kuberay-sim.controllers=false")
class KubectlE2EIT {
    static final String DEMO = SeedManifests.demoRayCluster().replace("name: demo-raycluster", "name: %s");

    @LocalServerPort
    int port;
    @Autowired
    GenericRegistry registry;
    @Autowired
    WatchStreams watches;
    @TempDir
    static Path dir;
    Path kubeconfig;
    final HttpClient http = HttpClient.newHttpClient();

    record Result(int exit, String out, String err) {
        String all() {
            return out + err;
        }
    }

    @BeforeAll
    static void kubectlInstalled() {
        assumeTrue(onPath("kubectl"), "kubectl is not on PATH: skipping the kubectl end-to-end tests");
    }

    static boolean onPath(String exe) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String d : path.split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(d, exe))) {
                return true;
            }
        }
        return false;
    }

    @BeforeEach
    void writeKubeconfig() throws IOException {
        kubeconfig = dir.resolve("kubeconfig-" + port);
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                clusters:
                - name: kuberay-sim
                  cluster:
                    server: http://127.0.0.1:%d
                contexts:
                - name: kuberay-sim
                  context:
                    cluster: kuberay-sim
                    namespace: default
                    user: kuberay-sim
                current-context: kuberay-sim
                users:
                - name: kuberay-sim
                  user: {}
                """.formatted(port));
    }

    ProcessBuilder command(String... args) {
        List<String> cmd = new ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig.toString(),
                "--cache-dir", dir.resolve("cache").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().remove("KUBECONFIG");
        return pb;
    }

    Result kubectlWithInput(String stdin, String... args) throws Exception {
        Process p = command(args).start();
        if (stdin != null) {
            p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        p.getOutputStream().close();
        var out = new java.util.concurrent.CompletableFuture<String>();
        var err = new java.util.concurrent.CompletableFuture<String>();
        new Thread(() -> out.complete(read(p.getInputStream()))).start();
        new Thread(() -> err.complete(read(p.getErrorStream()))).start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("kubectl " + String.join(" ", args) + " did not finish");
        }
        return new Result(p.exitValue(), out.get(10, TimeUnit.SECONDS), err.get(10, TimeUnit.SECONDS));
    }

    Result kubectl(String... args) throws Exception {
        return kubectlWithInput(null, args);
    }

    static String read(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** A kubectl left running (get -w, wait): its output lines as they come. */
    final class Background implements AutoCloseable {
        final Process process;
        final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

        Background(String... args) throws IOException {
            process = command(args).redirectErrorStream(true).start();
            Thread t = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    String l;
                    while ((l = r.readLine()) != null) {
                        lines.add(l);
                    }
                } catch (IOException ignored) {
                    // process ended
                }
            });
            t.setDaemon(true);
            t.start();
        }

        String awaitLine(String containing) throws InterruptedException {
            List<String> seen = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline) {
                String l = lines.poll(1, TimeUnit.SECONDS);
                if (l != null) {
                    seen.add(l);
                    if (l.contains(containing)) {
                        return l;
                    }
                }
            }
            throw new AssertionError("no line containing '" + containing + "' in " + seen);
        }

        @Override
        public void close() {
            process.destroy();
        }
    }

    int send(String method, String path, String contentType, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .method(method, HttpRequest.BodyPublishers.ofString(body));
        b.header("Content-Type", contentType);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    /** Waits (up to 60 s) until the server holds more open watches than {@code before}. */
    void awaitWatchOpened(int before) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (watches.activeCount() <= before) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("kubectl opened no watch");
            }
            Thread.sleep(10);
        }
    }

    void writeStatus(String name, String statusJson) throws Exception {
        assertThat(send("PATCH", "/apis/ray.io/v1/namespaces/default/rayclusters/" + name + "/status",
                "application/merge-patch+json", "{\"status\":" + statusJson + "}")).isEqualTo(200);
    }

    Result apply(String name) throws Exception {
        Path f = dir.resolve(name + ".yaml");
        Files.writeString(f, DEMO.formatted(name));
        return kubectl("apply", "-f", f.toString());
    }

    @Test
    void applyWithDefaultValidationThenGetInAllItsForms() throws Exception {
        Result applied = apply("demo-raycluster");
        assertThat(applied.exit()).as(applied.all()).isZero();
        assertThat(applied.out()).contains("raycluster.ray.io/demo-raycluster created");
        long rv = registry.reader().get(ResourceTypes.RAYCLUSTERS, "default", "demo-raycluster").resourceVersion();
        // the server defaults fields inside workerGroupSpecs, so kubectl's 3-way merge patch resends that list
        // (as against a real cluster); the server sees a no-op and writes nothing
        Result again = apply("demo-raycluster");
        assertThat(again.exit()).as(again.all()).isZero();
        assertThat(registry.reader().get(ResourceTypes.RAYCLUSTERS, "default", "demo-raycluster").resourceVersion())
                .isEqualTo(rv);
        writeStatus("demo-raycluster", "{\"state\":\"ready\",\"desiredWorkerReplicas\":2,\"availableWorkerReplicas\":2,"
                + "\"desiredCPU\":\"5\",\"desiredMemory\":\"10Gi\",\"desiredGPU\":\"0\",\"head\":{\"podIP\":\"10.244.0.5\","
                + "\"serviceIP\":\"10.96.0.12\"}}");

        Result get = kubectl("get", "rayclusters");
        assertThat(get.exit()).as(get.all()).isZero();
        assertThat(get.out()).contains("DESIRED WORKERS", "AVAILABLE WORKERS", "CPUS", "MEMORY", "GPUS", "STATUS", "AGE")
                .doesNotContain("HEAD POD IP");
        assertThat(get.out().lines().filter(l -> l.startsWith("demo-raycluster")).findFirst().orElseThrow()
                .split("\\s+")).startsWith("demo-raycluster", "2", "2", "5", "10Gi", "0", "ready");

        Result wide = kubectl("get", "raycluster", "demo-raycluster", "-o", "wide");
        assertThat(wide.out()).contains("TPUS", "HEAD POD IP", "HEAD SERVICE IP", "10.244.0.5", "10.96.0.12");

        ObjectNode pod = (ObjectNode) Json.MAPPER.readTree("""
                {"metadata":{"name":"demo-raycluster-head","labels":{"ray.io/cluster":"demo-raycluster"}},
                 "spec":{"containers":[{"name":"ray-head","image":"rayproject/ray:2.9.0"}]}}""");
        registry.create(ResourceTypes.PODS, "default", pod, WriteOptions.DEFAULT);
        ObjectNode other = (ObjectNode) Json.MAPPER.readTree("""
                {"metadata":{"name":"unrelated"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}""");
        registry.create(ResourceTypes.PODS, "default", other, WriteOptions.DEFAULT);

        Result all = kubectl("get", "all");
        assertThat(all.out()).contains("raycluster.ray.io/demo-raycluster", "pod/demo-raycluster-head");

        Result everywhere = kubectl("get", "rayclusters", "-A");
        assertThat(everywhere.out()).contains("NAMESPACE").containsPattern("default\\s+demo-raycluster");

        Result pods = kubectl("get", "pods", "-l", "ray.io/cluster=demo-raycluster");
        assertThat(pods.out()).contains("READY", "STATUS", "RESTARTS", "demo-raycluster-head")
                .doesNotContain("unrelated");

        Result explain = kubectl("explain", "raycluster.spec.workerGroupSpecs");
        assertThat(explain.exit()).as(explain.all()).isZero();
        assertThat(explain.out()).contains("KIND:       RayCluster", "groupName", "replicas");
    }

    @Test
    void describeListsTheClustersEvents() throws Exception {
        assertThat(apply("described").exit()).isZero();
        String uid = registry.reader().get(ResourceTypes.RAYCLUSTERS, "default", "described").uid();
        assertThat(send("POST", "/api/v1/namespaces/default/events", "application/json", """
                {"metadata":{"name":"described.1"},
                 "involvedObject":{"apiVersion":"ray.io/v1","kind":"RayCluster","name":"described","namespace":"default",
                                   "uid":"%s"},
                 "reason":"CreatedService","message":"Created service default/described-head-svc","type":"Normal",
                 "source":{"component":"raycluster-controller"},"count":1}""".formatted(uid))).isEqualTo(201);
        Result d = kubectl("describe", "raycluster", "described");
        assertThat(d.exit()).as(d.all()).isZero();
        assertThat(d.out()).contains("Name:", "described", "Events:", "CreatedService",
                "Created service default/described-head-svc");
    }

    // kube-apiserver serves the same Events under events.k8s.io/v1 (pkg/apis/events/v1/conversion.go)
    @Test
    void eventsK8sIoServesTheSameEvents() throws Exception {
        assertThat(send("POST", "/apis/events.k8s.io/v1/namespaces/default/events", "application/json", """
                {"metadata":{"name":"newapi.1"},"eventTime":"2025-01-01T00:00:00.000000Z",
                 "reportingController":"rayjob-controller","reportingInstance":"rayjob-controller-host",
                 "action":"Create","reason":"CreatedRayCluster","type":"Normal",
                 "regarding":{"apiVersion":"ray.io/v1","kind":"RayJob","name":"newapi","namespace":"default"},
                 "note":"Created RayCluster default/newapi-8zf7m"}""")).isEqualTo(201);
        Result yaml = kubectl("get", "events.v1.events.k8s.io", "newapi.1", "-o", "yaml");
        assertThat(yaml.exit()).as(yaml.all()).isZero();
        assertThat(yaml.out()).contains("apiVersion: events.k8s.io/v1", "note: Created RayCluster default/newapi-8zf7m",
                "reportingController: rayjob-controller", "deprecatedSource: {}");
        Result core = kubectl("get", "events", "--field-selector", "involvedObject.name=newapi");
        assertThat(core.exit()).as(core.all()).isZero();
        assertThat(core.out()).contains("CreatedRayCluster", "rayjob/newapi", "Created RayCluster default/newapi-8zf7m");
        Result table = kubectl("get", "events.events.k8s.io", "--field-selector", "regarding.name=newapi");
        assertThat(table.exit()).as(table.all()).isZero();
        assertThat(table.out()).contains("LAST SEEN", "CreatedRayCluster", "rayjob/newapi");

        HttpResponse<String> watch = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/apis/events.k8s.io/v1/namespaces/default/events?watch=true&timeoutSeconds=1"
                + "&fieldSelector=regarding.name%3Dnewapi")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(watch.body()).startsWith("{\"type\":\"ADDED\",\"object\":{\"kind\":\"Event\","
                + "\"apiVersion\":\"events.k8s.io/v1\"").contains("\"note\":\"Created RayCluster");
    }

    @Test
    void patchLabelReplaceAndServerSideApply() throws Exception {
        assertThat(apply("patched").exit()).isZero();
        Result merge = kubectl("patch", "raycluster", "patched", "--type", "merge", "-p", "{\"spec\":{\"suspend\":true}}");
        assertThat(merge.out()).as(merge.all()).contains("raycluster.ray.io/patched patched");
        assertThat(spec("patched").path("suspend").asBoolean()).isTrue();

        Result json = kubectl("patch", "raycluster", "patched", "--type", "json", "-p",
                "[{\"op\":\"replace\",\"path\":\"/spec/workerGroupSpecs/0/replicas\",\"value\":3}]");
        assertThat(json.out()).as(json.all()).contains("patched");
        assertThat(spec("patched").at("/workerGroupSpecs/0/replicas").asInt()).isEqualTo(3);

        Result strategic = kubectl("patch", "raycluster", "patched", "-p", "{\"spec\":{\"suspend\":false}}");
        assertThat(strategic.exit()).isNotZero();
        assertThat(strategic.err()).contains("application/strategic-merge-patch+json is not supported");

        Result label = kubectl("label", "raycluster", "patched", "team=ml");
        assertThat(label.out()).contains("raycluster.ray.io/patched labeled");
        assertThat(registry.reader().get(ResourceTypes.RAYCLUSTERS, "default", "patched").labels())
                .containsEntry("team", "ml");

        Result yaml = kubectl("get", "raycluster", "patched", "-o", "yaml");
        String changed = yaml.out().replace("rayVersion: 2.9.0", "rayVersion: 2.9.1");
        assertThat(changed).isNotEqualTo(yaml.out());
        Result replaced = kubectlWithInput(changed, "replace", "-f", "-");
        assertThat(replaced.out()).as(replaced.all()).contains("raycluster.ray.io/patched replaced");
        assertThat(spec("patched").get("rayVersion").asString()).isEqualTo("2.9.1");

        Result ssa = kubectlWithInput(DEMO.formatted("ssa-created"), "apply", "--server-side", "-f", "-");
        assertThat(ssa.out()).as(ssa.all()).contains("raycluster.ray.io/ssa-created serverside-applied");
        assertThat(registry.store().get(ResourceTypes.RAYCLUSTERS, "default", "ssa-created")).isNotNull();
    }

    @Test
    void dryRunServerAndCreateTwice() throws Exception {
        Result dry = kubectlWithInput(DEMO.formatted("dry"), "create", "--dry-run=server", "-f", "-");
        assertThat(dry.out()).as(dry.all()).contains("raycluster.ray.io/dry created (server dry run)");
        assertThat(registry.store().get(ResourceTypes.RAYCLUSTERS, "default", "dry")).isNull();

        Path f = dir.resolve("twice.yaml");
        Files.writeString(f, DEMO.formatted("twice"));
        assertThat(kubectl("create", "-f", f.toString()).out()).contains("raycluster.ray.io/twice created");
        Result again = kubectl("create", "-f", f.toString());
        assertThat(again.exit()).isNotZero();
        assertThat(again.err()).contains("Error from server (AlreadyExists): error when creating \"" + f
                + "\": rayclusters.ray.io \"twice\" already exists");
    }

    @Test
    void getWatchSeesALaterChange() throws Exception {
        assertThat(apply("watched").exit()).isZero();
        int open = watches.activeCount();
        try (Background w = new Background("get", "raycluster", "watched", "-w")) {
            w.awaitLine("watched");
            // kubectl prints the object it read, then watches from resourceVersion 0 and suppresses that watch's
            // first (synthetic ADDED) event (kubectl get.go watch()); a change written before the watch is open
            // would arrive only as that suppressed event, on kube-apiserver too
            awaitWatchOpened(open);
            writeStatus("watched", "{\"state\":\"ready\",\"desiredWorkerReplicas\":2}");
            assertThat(w.awaitLine("ready")).startsWith("watched").contains("2");
        }
        try (Background w = new Background("get", "rayclusters", "-w", "--output-watch-events")) {
            w.awaitLine("watched");
            assertThat(apply("watched-later").exit()).isZero();
            assertThat(w.awaitLine("watched-later")).startsWith("ADDED");
        }
    }

    @Test
    void waitForJsonPathReturnsOnceTheStatusIsWritten() throws Exception {
        assertThat(apply("awaited").exit()).isZero();
        try (Background w = new Background("wait", "--for=jsonpath={.status.state}=ready", "raycluster/awaited",
                "--timeout=60s")) {
            writeStatus("awaited", "{\"state\":\"ready\"}");
            assertThat(w.awaitLine("condition met")).contains("raycluster.ray.io/awaited");
            assertThat(w.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(w.process.exitValue()).isZero();
        }
    }

    @Test
    void deleteWaitsUntilGone() throws Exception {
        assertThat(apply("doomed").exit()).isZero();
        Result d = kubectl("delete", "raycluster", "doomed");
        assertThat(d.out()).as(d.all()).contains("raycluster.ray.io \"doomed\" deleted");
        assertThat(registry.store().get(ResourceTypes.RAYCLUSTERS, "default", "doomed")).isNull();
        Result gone = kubectl("get", "raycluster", "doomed");
        assertThat(gone.err()).contains("Error from server (NotFound): rayclusters.ray.io \"doomed\" not found");
    }

    @Test
    void getRawReadsHealthAndPrometheusMetrics() throws Exception {
        Result ready = kubectl("get", "--raw", "/readyz?verbose");
        assertThat(ready.exit()).as(ready.all()).isZero();
        assertThat(ready.out()).startsWith("[+]ping ok\n").endsWith("readyz check passed\n");
        Result metrics = kubectl("get", "--raw", "/metrics");
        assertThat(metrics.exit()).as(metrics.all()).isZero();
        assertThat(metrics.out()).contains("# TYPE apiserver_request_total counter\n",
                "apiserver_storage_objects{resource=\"rayclusters.ray.io\"} ");
        Result missing = kubectl("get", "--raw", "/readyz/etcd");
        assertThat(missing.err()).contains("Error from server (NotFound)");
    }

    tools.jackson.databind.JsonNode spec(String name) {
        return registry.reader().get(ResourceTypes.RAYCLUSTERS, "default", name).object().get("spec");
    }
}
