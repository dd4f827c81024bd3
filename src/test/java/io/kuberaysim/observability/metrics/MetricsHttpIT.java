package io.kuberaysim.observability.metrics;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.http.WatchStreams;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import io.kuberaysim.demo.DemoScenario;
import io.kuberaysim.testing.SeedManifests;
import org.hawkular.agent.prometheus.types.MetricType;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code /metrics} after the seed demo scenario (and a RayService, a watch and a few HTTP requests of every kind) on
 * the virtual clock: every listed family with its type and labels, read with a Prometheus text-format parser;
 * KubeRay's values once a RayCluster is provisioned and a RayJob completed; series gone once their objects are;
 * OpenMetrics on request.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"kuberay-sim.clock=virtual", "kuberay-sim.controllers=true", "spring.application.name=metrics-test"})
class MetricsHttpIT {
    static final String RAYSERVICES = "/apis/ray.io/v1/namespaces/default/rayservices";

    @LocalServerPort
    int port;
    @Autowired
    Clock clock;
    @Autowired
    KubeClient client;
    @Autowired
    ObjectStore store;
    @Autowired
    WatchStreams watches;

    final HttpClient http = HttpClient.newHttpClient();

    HttpResponse<String> send(String method, String path, String contentType, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
        if (body == null) {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            b.header("Content-Type", contentType).method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    Scrape scrape() throws Exception {
        HttpResponse<String> r = send("GET", "/metrics", null, null);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain;version=0.0.4");
        return new Scrape(r.body());
    }

    @Test
    void everyListedMetricAfterTheSeedDemoAndKubeRaySeriesFollowTheirObjects() throws Exception {
        VirtualClock virtual = (VirtualClock) clock;
        virtual.awaitIdle();

        // a watch stays open while the scenario runs
        BlockingQueue<String> watched = new LinkedBlockingQueue<>();
        HttpResponse<Stream<String>> watch = http.send(HttpRequest.newBuilder(URI.create(
                "http://127.0.0.1:" + port + "/api/v1/namespaces/default/pods?watch=true")).build(),
                HttpResponse.BodyHandlers.ofLines());
        Thread reader = new Thread(() -> watch.body().forEach(watched::add));
        reader.start();
        assertThat(scrape().value("apiserver_longrunning_requests", "verb", "WATCH", "resource", "pods",
                "scope", "namespace")).isEqualTo(1);

        // HTTP requests of several kinds
        String rayService = SeedManifests.rayService();
        assertThat(send("POST", RAYSERVICES, "application/yaml", rayService).statusCode()).isEqualTo(201);
        assertThat(send("POST", RAYSERVICES + "?dryRun=All", "application/yaml",
                rayService.replace("name: rayservice-sample", "name: dry")).statusCode()).isEqualTo(201);
        assertThat(send("GET", RAYSERVICES + "/rayservice-sample", null, null).statusCode()).isEqualTo(200);
        assertThat(send("GET", RAYSERVICES + "/nope", null, null).statusCode()).isEqualTo(404);
        assertThat(send("PATCH", RAYSERVICES + "/rayservice-sample", "application/merge-patch+json",
                "{\"metadata\":{\"labels\":{\"team\":\"a\"}}}").statusCode()).isEqualTo(200);
        assertThat(send("GET", "/apis/ray.io/v1/rayclusters?labelSelector=team%3Da", null, null).statusCode())
                .isEqualTo(200);
        assertThat(send("POST", "/api/v1/namespaces/default/pods", "application/json", """
                {"metadata":{"name":"too-big"},"spec":{"containers":[{"name":"c","image":"busybox",
                 "resources":{"requests":{"cpu":"1000"}}}]}}""").statusCode()).isEqualTo(201);

        DemoScenario.Result demo = new DemoScenario(client, virtual).run();
        assertThat(demo.jobStatus()).isEqualTo("Complete");
        virtual.advance(Duration.ofSeconds(10));

        watches.expireAll("test over");
        reader.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(watched).anyMatch(l -> l.startsWith("{\"type\":\"ADDED\""));
        await().atMost(Duration.ofSeconds(30)).until(() -> scrape().value("apiserver_longrunning_requests",
                "verb", "WATCH", "resource", "pods") == 0);

        Scrape m = scrape();
        String[] request = {"verb", "dry_run", "group", "version", "resource", "subresource", "scope", "component"};
        m.assertFamily("apiserver_request_total", MetricType.COUNTER, append(request, "code"));
        m.assertFamily("apiserver_request_duration_seconds", MetricType.HISTOGRAM, request);
        m.assertFamily("apiserver_current_inflight_requests", MetricType.GAUGE, "request_kind");
        m.assertFamily("apiserver_longrunning_requests", MetricType.GAUGE,
                "verb", "group", "version", "resource", "subresource", "scope", "component");
        m.assertFamily("apiserver_storage_objects", MetricType.GAUGE, "resource");
        m.assertFamily("apiserver_watch_events_total", MetricType.COUNTER, "group", "version", "kind");
        m.assertFamily("apiserver_request_body_size_bytes", MetricType.HISTOGRAM, "resource", "verb");
        for (String gauge : List.of("workqueue_depth", "workqueue_unfinished_work_seconds",
                "workqueue_longest_running_processor_seconds")) {
            m.assertFamily(gauge, MetricType.GAUGE, "name", "controller");
        }
        m.assertFamily("workqueue_adds_total", MetricType.COUNTER, "name", "controller");
        m.assertFamily("workqueue_retries_total", MetricType.COUNTER, "name", "controller");
        m.assertFamily("workqueue_queue_duration_seconds", MetricType.HISTOGRAM, "name", "controller");
        m.assertFamily("workqueue_work_duration_seconds", MetricType.HISTOGRAM, "name", "controller");
        m.assertFamily("controller_runtime_reconcile_total", MetricType.COUNTER, "controller", "result");
        m.assertFamily("controller_runtime_reconcile_errors_total", MetricType.COUNTER, "controller");
        m.assertFamily("controller_runtime_reconcile_time_seconds", MetricType.HISTOGRAM, "controller");
        m.assertFamily("controller_runtime_active_workers", MetricType.GAUGE, "controller");
        m.assertFamily("controller_runtime_max_concurrent_reconciles", MetricType.GAUGE, "controller");
        m.assertFamily("kuberay_cluster_info", MetricType.GAUGE, "name", "namespace", "uid", "owner_kind");
        m.assertFamily("kuberay_cluster_condition_provisioned", MetricType.GAUGE, "name", "namespace", "uid",
                "condition");
        m.assertFamily("kuberay_cluster_provisioned_duration_seconds", MetricType.GAUGE, "name", "namespace", "uid");
        m.assertFamily("kuberay_job_info", MetricType.GAUGE, "name", "namespace", "uid");
        m.assertFamily("kuberay_job_deployment_status", MetricType.GAUGE, "name", "namespace", "uid",
                "deployment_status");
        m.assertFamily("kuberay_job_execution_duration_seconds", MetricType.GAUGE, "name", "namespace", "uid",
                "job_deployment_status", "retry_count");
        m.assertFamily("kuberay_service_info", MetricType.GAUGE, "name", "namespace", "uid");
        m.assertFamily("kuberay_service_condition_ready", MetricType.GAUGE, "name", "namespace", "uid", "condition");
        m.assertFamily("kuberay_service_condition_upgrade_in_progress", MetricType.GAUGE, "name", "namespace", "uid",
                "condition");
        m.assertFamily("kube_node_status_capacity", MetricType.GAUGE, "node", "resource", "unit");
        m.assertFamily("kube_node_status_allocatable", MetricType.GAUGE, "node", "resource", "unit");
        m.assertFamily("kuberay_sim_node_allocated", MetricType.GAUGE, "node", "resource", "unit");
        m.assertFamily("scheduler_pending_pods", MetricType.GAUGE, "queue");
        m.assertFamily("kuberay_sim_ray_jobs", MetricType.GAUGE, "state");
        m.assertFamily("kuberay_sim_clock_time_seconds", MetricType.GAUGE, "mode");
        m.assertFamily("kuberay_sim_clock_elapsed_seconds", MetricType.GAUGE, "mode");

        // the requests, as kube-apiserver labels them
        assertThat(m.value("apiserver_request_total", "verb", "POST", "dry_run", "", "group", "ray.io",
                "resource", "rayservices", "scope", "resource", "code", "201")).isEqualTo(1);
        assertThat(m.value("apiserver_request_total", "verb", "POST", "dry_run", "All", "code", "201")).isEqualTo(1);
        assertThat(m.value("apiserver_request_total", "verb", "GET", "resource", "rayservices", "code", "404"))
                .isEqualTo(1);
        assertThat(m.value("apiserver_request_total", "verb", "LIST", "resource", "rayclusters", "scope", "cluster",
                "code", "200")).isEqualTo(1);
        assertThat(m.value("apiserver_request_total", "verb", "WATCH", "resource", "pods", "scope", "namespace",
                "code", "200")).isEqualTo(1);
        assertThat(m.value("apiserver_request_total", "verb", "GET", "resource", "", "subresource", "/metrics",
                "code", "200")).isGreaterThanOrEqualTo(2);
        assertThat(m.value("apiserver_request_body_size_bytes", "resource", "rayservices.ray.io", "verb", "create"))
                .isEqualTo(2);
        assertThat(m.value("apiserver_watch_events_total", "group", "", "version", "v1", "kind", "Pod"))
                .isEqualTo(watched.stream().filter(l -> !l.contains("\"ERROR\"")).count());
        assertThat(m.value("apiserver_storage_objects", "resource", "rayclusters.ray.io"))
                .isEqualTo(store.count(ResourceTypes.RAYCLUSTERS));
        assertThat(m.value("apiserver_current_inflight_requests", "request_kind", "readOnly")).isEqualTo(1);
        assertThat(m.value("workqueue_depth", "name", "raycluster-controller")).isZero();
        assertThat(m.value("controller_runtime_reconcile_total", "controller", "raycluster-controller",
                "result", "requeue_after")).isPositive();

        // KubeRay's series: example-cluster provisioned 2 s after it was created; example-job ran and completed
        String cluster = "example-cluster";
        assertThat(m.value("kuberay_cluster_info", "name", cluster, "namespace", "default", "owner_kind", "None"))
                .isEqualTo(1);
        assertThat(m.value("kuberay_cluster_condition_provisioned", "name", cluster, "condition", "true"))
                .isEqualTo(1);
        assertThat(m.value("kuberay_cluster_provisioned_duration_seconds", "name", cluster)).isEqualTo(2.0);
        JsonNode job = client.get(ResourceTypes.RAYJOBS, "default", "example-job").object();
        double ran = Duration.between(Instant.parse(Json.text(job, "status", "startTime")),
                Instant.parse(Json.text(job, "status", "endTime"))).toMillis() / 1000.0;
        assertThat(ran).isPositive();
        assertThat(m.value("kuberay_job_execution_duration_seconds", "name", "example-job",
                "job_deployment_status", "Complete", "retry_count", "0")).isEqualTo(ran);
        assertThat(m.value("kuberay_job_deployment_status", "name", "example-job", "deployment_status", "Complete"))
                .isEqualTo(1);
        String jobCluster = Json.text(job, "status", "rayClusterName");
        assertThat(m.series("kuberay_cluster_info", "name", jobCluster)).isEmpty(); // deleted with the job done
        assertThat(m.series("kuberay_cluster_provisioned_duration_seconds", "name", jobCluster)).isEmpty();
        assertThat(m.value("kuberay_service_info", "name", "rayservice-sample")).isEqualTo(1);
        assertThat(m.labelValues("kuberay_service_condition_ready", "name")).containsExactly("rayservice-sample");
        assertThat(m.series("kuberay_cluster_info", "owner_kind", "RayService")).hasSize(1);

        // the simulated cluster
        assertThat(m.value("scheduler_pending_pods", "queue", "unschedulable")).isEqualTo(1);
        assertThat(m.value("kube_node_status_capacity", "node", "sim-node-0", "resource", "cpu", "unit", "core"))
                .isEqualTo(16);
        assertThat(m.series("kuberay_sim_node_allocated", "resource", "cpu").stream()
                .mapToDouble(s -> ((org.hawkular.agent.prometheus.types.Gauge) s).getValue()).sum()).isPositive();
        assertThat(m.labelValues("kuberay_sim_ray_jobs", "state"))
                .containsExactly("FAILED", "PENDING", "RUNNING", "STOPPED", "SUCCEEDED");
        assertThat(m.value("kuberay_sim_clock_elapsed_seconds", "mode", "virtual"))
                .isEqualTo(Duration.between(clock.startTime(), clock.now()).toMillis() / 1000.0);

        // deleting the objects removes their series, as KubeRay's collectors do
        assertThat(send("DELETE", "/apis/ray.io/v1/namespaces/default/rayjobs/example-job", null, null).statusCode())
                .isEqualTo(200);
        assertThat(send("DELETE", "/apis/ray.io/v1/namespaces/default/rayclusters/" + cluster, null, null)
                .statusCode()).isEqualTo(200);
        assertThat(send("DELETE", RAYSERVICES + "/rayservice-sample", null, null).statusCode()).isEqualTo(200);
        virtual.awaitIdle();
        virtual.advance(Duration.ofSeconds(5));
        Scrape after = scrape();
        for (String name : List.of("kuberay_job_info", "kuberay_job_deployment_status",
                "kuberay_job_execution_duration_seconds")) {
            assertThat(after.series(name, "name", "example-job")).as(name).isEmpty();
        }
        for (String name : List.of("kuberay_cluster_info", "kuberay_cluster_condition_provisioned",
                "kuberay_cluster_provisioned_duration_seconds")) {
            assertThat(after.series(name, "name", cluster)).as(name).isEmpty();
        }
        assertThat(after.series("kuberay_service_info", "name", "rayservice-sample")).isEmpty();
    }

    @Test
    void openMetricsWhenTheScraperAsksForIt() throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                .header("Accept", "application/openmetrics-text;version=1.0.0,application/openmetrics-text;"
                        + "version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1").build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type").orElse(""))
                .startsWith("application/openmetrics-text;version=1.0.0");
        assertThat(r.body()).endsWith("# EOF\n").contains("# TYPE apiserver_request counter\n",
                "apiserver_request_total{", "# TYPE kuberay_sim_clock_time_seconds gauge\n");
    }

    private static String[] append(String[] labels, String label) {
        String[] out = java.util.Arrays.copyOf(labels, labels.length + 1);
        out[labels.length] = label;
        return out;
    }
}
