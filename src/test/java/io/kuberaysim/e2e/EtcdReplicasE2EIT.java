package io.kuberaysim.e2e;

import io.kuberaysim.api.Json;
import io.kuberaysim.testing.EtcdServer;
import io.kuberaysim.testing.ServerProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.kuberaysim.testing.ServerProcess.Awaiting.until;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Server processes on one real etcd (issue 21 items 3-5): two replicas serve one API and elect one controller
 * leader; the leader is killed (SIGKILL) and the other takes over within the Lease's duration without duplicating
 * Pods; then every server is killed and one started again finds every object with its resourceVersion, resumes
 * watches and keeps its RayCluster's Pods; etcd going away makes /readyz fail and writes answer 504, and both come
 * back with etcd. Wall-clock processes, so this test polls; timings are shortened by settings (Lease 3 s).
 */
class EtcdReplicasE2EIT {
    private static final Duration LEASE = Duration.ofSeconds(3);
    private static final Duration RETRY = Duration.ofMillis(500);
    private static final String CLUSTERS = "/apis/ray.io/v1/namespaces/default/rayclusters";
    private static final String JOB = "/apis/ray.io/v1/namespaces/default/rayjobs/example-job";
    private static final String PODS = "/api/v1/namespaces/default/pods?labelSelector=ray.io/cluster%3Ddemo-raycluster";
    private static final String LEASE_PATH =
            "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kuberay-sim-controllers";

    private EtcdServer etcd;
    private final List<ServerProcess> servers = new ArrayList<>();

    @BeforeEach
    void startEtcd() {
        EtcdServer.assumeInstalled();
        etcd = EtcdServer.start();
    }

    @AfterEach
    void stopAll() {
        servers.forEach(ServerProcess::close);
        if (etcd != null) {
            etcd.close();
        }
    }

    private ServerProcess server(String identity) {
        ServerProcess s = ServerProcess.start(identity, List.of("--kuberay-sim.clock=wall",
                "--kuberay-sim.storage=etcd", "--kuberay-sim.etcd.endpoints=" + etcd.endpoint(),
                "--kuberay-sim.etcd.request-timeout=5s",
                "--kuberay-sim.leader-election.identity=" + identity,
                "--kuberay-sim.leader-election.lease-duration=" + LEASE.toMillis() + "ms",
                "--kuberay-sim.leader-election.renew-deadline=2s",
                "--kuberay-sim.leader-election.retry-period=" + RETRY.toMillis() + "ms",
                "--kuberay-sim.kubelet.startup-seconds=0.2", "--logging.level.root=WARN"));
        servers.add(s);
        return s;
    }

    private static String holder(ServerProcess s) {
        HttpResponse<String> r = s.get(LEASE_PATH);
        return r.statusCode() == 200 ? Json.text(Json.MAPPER.readTree(r.body()), "spec", "holderIdentity") : null;
    }

    /** Pod name → uid of the cluster's Pods that are Running, read through {@code s}. */
    private static Map<String, String> runningPods(ServerProcess s) {
        Map<String, String> pods = new TreeMap<>();
        for (JsonNode p : s.getJson(PODS).path("items")) {
            if ("Running".equals(Json.text(p, "status", "phase")) && Json.text(p, "metadata", "deletionTimestamp") == null) {
                pods.put(Json.text(p, "metadata", "name"), Json.text(p, "metadata", "uid"));
            }
        }
        return pods;
    }

    /** Waits until the cluster is ready and its status has stopped changing (the same resourceVersion 1 s apart). */
    private static void awaitSettled(ServerProcess s) {
        String[] last = {null};
        until(Duration.ofSeconds(30), "cluster settled", () -> {
            JsonNode rc = s.getJson(CLUSTERS + "/demo-raycluster");
            String rv = Json.text(rc, "metadata", "resourceVersion");
            boolean settled = rv.equals(last[0]) && "ready".equals(Json.text(rc, "status", "state"));
            last[0] = rv;
            if (!settled) {
                pause(Duration.ofSeconds(1));
            }
            return settled;
        });
    }

    private static void pause(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String jobState(ServerProcess s) {
        return Json.text(s.getJson(JOB), "status", "jobDeploymentStatus");
    }

    private static String state(ServerProcess s) {
        return Json.text(s.getJson(CLUSTERS + "/demo-raycluster"), "status", "state");
    }

    @Test
    @DisplayName("two replicas, one leader; kill -9 the leader, the other takes over; kill all, restart, nothing lost")
    void replicasFailoverAndRestart() throws Exception {
        ServerProcess a = server("replica-a").awaitReady(Duration.ofSeconds(90));
        until(Duration.ofSeconds(10), "replica-a leads", () -> "replica-a".equals(holder(a)));
        ServerProcess b = server("replica-b").awaitReady(Duration.ofSeconds(90));

        // a write through the standby is reconciled by the leader and read through both
        String manifest = Files.readString(Path.of("http-examples/demo-raycluster.yaml"));
        assertThat(b.send("POST", CLUSTERS, "application/yaml", manifest).statusCode()).isEqualTo(201);
        // and a RayJob whose simulated Ray job runs for 10 minutes
        String job = Files.readString(Path.of("http-examples/example-job.yaml")).replaceFirst("metadata:\n",
                "metadata:\n  annotations:\n    sim.kuberay.io/job-duration-seconds: \"600\"\n");
        assertThat(b.send("POST", JOB.substring(0, JOB.lastIndexOf('/')), "application/yaml", job).statusCode())
                .isEqualTo(201);
        until(Duration.ofSeconds(30), "3 Pods Running, cluster ready",
                () -> runningPods(a).size() == 3 && "ready".equals(state(a)));
        until(Duration.ofSeconds(30), "RayJob Running", () -> "Running".equals(jobState(a)));
        String jobId = Json.text(a.getJson(JOB), "status", "jobId");
        Map<String, String> pods = runningPods(a);
        assertThat(runningPods(b)).isEqualTo(pods);
        assertThat(holder(b)).isEqualTo("replica-a");

        // failover: SIGKILL the leader; the standby takes the Lease once it expired
        long killed = System.nanoTime();
        a.kill();
        until(LEASE.plusSeconds(10), "replica-b leads", () -> "replica-b".equals(holder(b)));
        Duration failover = Duration.ofNanos(System.nanoTime() - killed);
        assertThat(failover).isLessThan(LEASE.plus(RETRY.multipliedBy(2)).plusSeconds(3));

        // the new leader reconciles the same cluster: no duplicates, and a scale-up is served
        String scale = "[{\"op\":\"replace\",\"path\":\"/spec/workerGroupSpecs/0/replicas\",\"value\":3}]";
        assertThat(b.send("PATCH", CLUSTERS + "/demo-raycluster", "application/json-patch+json", scale)
                .statusCode()).isEqualTo(200);
        until(Duration.ofSeconds(30), "4 Pods Running", () -> runningPods(b).size() == 4);
        // the RayJob the old leader started stays Running under the new one, with the same Ray job
        assertThat(jobState(b)).isEqualTo("Running");
        assertThat(Json.text(b.getJson(JOB), "status", "jobId")).isEqualTo(jobId);
        Map<String, String> scaled = runningPods(b);
        assertThat(scaled).containsAllEntriesOf(pods);
        assertThat(b.getJson(PODS).path("items").size()).isEqualTo(4);

        // every server down, one started again: same objects, same resourceVersions, same Pods
        awaitSettled(b);
        JsonNode before = b.getJson(CLUSTERS + "/demo-raycluster");
        String lastSeen = Json.text(b.getJson(CLUSTERS), "metadata", "resourceVersion");
        b.kill();
        ServerProcess a2 = server("replica-a").awaitReady(Duration.ofSeconds(90));
        JsonNode after = a2.getJson(CLUSTERS + "/demo-raycluster");
        assertThat(Json.text(after, "metadata", "resourceVersion"))
                .isEqualTo(Json.text(before, "metadata", "resourceVersion"));
        assertThat(after.path("status")).isEqualTo(before.path("status"));
        assertThat(runningPods(a2)).isEqualTo(scaled);
        until(LEASE.plusSeconds(10), "replica-a leads again", () -> "replica-a".equals(holder(a2)));
        assertThat(jobState(a2)).isEqualTo("Running");

        // a client resumes its watch from the resourceVersion it last saw before the restart
        String rv = lastSeen;
        CompletableFuture<List<String>> events = CompletableFuture.supplyAsync(() -> {
            try (Stream<String> lines = a2.watch(CLUSTERS + "?watch=true&timeoutSeconds=20&resourceVersion=" + rv)) {
                return lines.filter(l -> l.contains("\"restarted\"")).limit(1).toList();
            }
        });
        until(Duration.ofSeconds(10), "label written", () -> a2.send("PATCH", CLUSTERS + "/demo-raycluster",
                "application/merge-patch+json", "{\"metadata\":{\"labels\":{\"restarted\":\"yes\"}}}")
                .statusCode() == 200);
        assertThat(events.get(20, TimeUnit.SECONDS)).singleElement().asString().startsWith("{\"type\":\"MODIFIED\"");
        // the Pods the new leader found are the ones it keeps
        until(Duration.ofSeconds(10), "cluster ready", () -> "ready".equals(state(a2)));
        assertThat(runningPods(a2)).isEqualTo(scaled);

        // etcd lost: readyz fails and writes time out with a Status; etcd back: both recover
        etcd.kill();
        until(Duration.ofSeconds(10), "readyz fails", () -> a2.get("/readyz?verbose").statusCode() != 200);
        assertThat(a2.get("/readyz?verbose").body()).contains("[-]etcd failed");
        String cm = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"after-outage\"}}";
        HttpResponse<String> refused = a2.send("POST", "/api/v1/namespaces/default/configmaps", "application/json", cm);
        assertThat(refused.statusCode()).isEqualTo(504);
        JsonNode status = Json.MAPPER.readTree(refused.body());
        assertThat(Json.text(status, "kind")).isEqualTo("Status");
        assertThat(Json.text(status, "reason")).isEqualTo("Timeout");
        etcd.startAgain();
        try {
            until(Duration.ofSeconds(30), "readyz passes", () -> a2.get("/readyz").statusCode() == 200);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\n" + a2.get("/readyz?verbose").body() + "\n" + a2.log(), e);
        }
        // 409 too: the refused write may have reached etcd after all, as with kube-apiserver's timeouts
        until(Duration.ofSeconds(10), "ConfigMap created", () -> List.of(201, 409).contains(a2.send("POST",
                "/api/v1/namespaces/default/configmaps", "application/json", cm).statusCode()));
        until(Duration.ofSeconds(10), "ConfigMap read back through the watch cache",
                () -> a2.get("/api/v1/namespaces/default/configmaps/after-outage").statusCode() == 200);
        // the outage outlasted the renew deadline: the leader stopped its controllers and asks to be restarted
        assertThat(a2.get("/livez?verbose").body()).contains("[-]leader-election failed");
    }
}
