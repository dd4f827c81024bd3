package io.kuberaysim.demo;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import io.kuberaysim.scenario.Scenario;
import io.kuberaysim.scenario.ScenarioFiles;
import io.kuberaysim.scenario.ScenarioReader;
import io.kuberaysim.scenario.ScenarioResult;
import io.kuberaysim.scenario.ScenarioRunner;
import io.kuberaysim.scenario.ScenarioTarget;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The seed's demo (§7.3): a RayCluster converges, is scaled from 2 to 4 workers and converges again, then a
 * RayJob with its own cluster runs to completion and its cluster is deleted. The story is the scenario file
 * {@value #FILE}, run by the {@link ScenarioRunner} on the virtual clock (time moves only to the next pending timer
 * once everything due now is done); this class adds the seed's result figures.
 */
public final class DemoScenario {
    static final String NAMESPACE = "default";
    static final String CLUSTER = "example-cluster";
    static final String JOB = "example-job";
    /** The story, shipped in the jar: {@code scenarios/seed-demo.yaml} in the repository. */
    public static final String FILE = "scenarios/seed-demo.yaml";
    private static final String EXAMPLES = "static/console/examples/";

    private final KubeClient client;
    private final VirtualClock clock;

    public DemoScenario(KubeClient client, VirtualClock clock) {
        this.client = client;
        this.clock = clock;
    }

    /** The figures the seed prints after its timeline. */
    public record Result(String clusterName, int finalWorkerCount, String jobName, String jobStatus,
                         boolean jobClusterDeleted, double elapsedTime) {
        /** Pretty JSON with exactly the seed's keys. */
        public String toJson() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("cluster_name", clusterName);
            m.put("final_worker_count", finalWorkerCount);
            m.put("job_name", jobName);
            m.put("job_status", jobStatus);
            m.put("job_cluster_deleted", jobClusterDeleted);
            m.put("elapsed_time", elapsedTime);
            StringBuilder sb = new StringBuilder("{\n");
            int i = 0;
            for (Map.Entry<String, Object> e : m.entrySet()) {
                sb.append("  ").append(Json.MAPPER.writeValueAsString(e.getKey())).append(": ")
                        .append(Json.MAPPER.writeValueAsString(e.getValue()))
                        .append(++i < m.size() ? ",\n" : "\n");
            }
            return sb.append('}').toString();
        }
    }

    /**
     * Runs {@link #FILE} and reads the result from the cluster.
     *
     * @throws IllegalStateException when a step or expectation of the scenario failed
     */
    public Result run() {
        Instant start = clock.now();
        Scenario scenario = new ScenarioReader().read(resource(FILE), "seed-demo",
                ScenarioFiles.classpath("scenarios"));
        ScenarioResult outcome = new ScenarioRunner().run(scenario, new ScenarioTarget(client, clock, null),
                line -> { });
        if (!outcome.passed()) {
            throw new IllegalStateException("the demo did not converge: " + String.join("; ", outcome.failures()));
        }
        StoredObject job = client.get(ResourceTypes.RAYJOBS, NAMESPACE, JOB);
        String jobCluster = Json.text(job.object(), "status", "rayClusterName");
        int workers = client.list(ResourceTypes.PODS, NAMESPACE,
                "ray.io/cluster=" + CLUSTER + ",ray.io/node-type=worker").size();
        double elapsed = Duration.between(start, clock.now()).toMillis() / 1000.0;
        return new Result(CLUSTER, workers, JOB, Json.text(job.object(), "status", "jobDeploymentStatus"),
                client.get(ResourceTypes.RAYCLUSTERS, NAMESPACE, jobCluster) == null, elapsed);
    }

    private static String resource(String name) {
        try (InputStream in = DemoScenario.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing " + name + " in the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
