package io.kuberaysim.demo;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.PatchType;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * The seed's demo (§7.3): a RayCluster converges, is scaled from 2 to 4 workers and converges again, then a
 * RayJob with its own cluster runs to completion and its cluster is deleted. Runs on the virtual clock:
 * time moves only to the next pending timer once everything due now is done.
 */
public final class DemoScenario {
    static final String NAMESPACE = "default";
    static final String CLUSTER = "example-cluster";
    static final String JOB = "example-job";
    private static final Duration LIMIT = Duration.ofMinutes(10);
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

    public Result run() {
        Instant start = clock.now();
        client.create(ResourceTypes.RAYCLUSTERS, NAMESPACE, manifest("example-cluster.yaml"));
        converge(() -> readyWorkers(CLUSTER) == 2 && "ready".equals(state(CLUSTER)));

        client.patch(ResourceTypes.RAYCLUSTERS, NAMESPACE, CLUSTER, PatchType.JSON, Json.MAPPER.readTree(
                "[{\"op\":\"replace\",\"path\":\"/spec/workerGroupSpecs/0/replicas\",\"value\":4}]"));
        converge(() -> readyWorkers(CLUSTER) == 4);

        client.create(ResourceTypes.RAYJOBS, NAMESPACE, manifest("example-job.yaml"));
        converge(() -> {
            StoredObject job = client.get(ResourceTypes.RAYJOBS, NAMESPACE, JOB);
            String cluster = job == null ? null : Json.text(job.object(), "status", "rayClusterName");
            return job != null && "Complete".equals(Json.text(job.object(), "status", "jobDeploymentStatus"))
                    && cluster != null && client.get(ResourceTypes.RAYCLUSTERS, NAMESPACE, cluster) == null;
        });

        StoredObject job = client.get(ResourceTypes.RAYJOBS, NAMESPACE, JOB);
        String jobCluster = Json.text(job.object(), "status", "rayClusterName");
        int workers = client.list(ResourceTypes.PODS, NAMESPACE,
                "ray.io/cluster=" + CLUSTER + ",ray.io/node-type=worker").size();
        double elapsed = Duration.between(start, clock.now()).toMillis() / 1000.0;
        return new Result(CLUSTER, workers, JOB, Json.text(job.object(), "status", "jobDeploymentStatus"),
                client.get(ResourceTypes.RAYCLUSTERS, NAMESPACE, jobCluster) == null, elapsed);
    }

    /** Runs everything due now, then moves time to the next timer, until the condition holds. */
    private void converge(BooleanSupplier done) {
        Instant deadline = clock.now().plus(LIMIT);
        while (true) {
            clock.awaitIdle();
            if (done.getAsBoolean()) {
                return;
            }
            Optional<Instant> next = clock.nextTimer();
            if (next.isEmpty() || next.get().isAfter(deadline)) {
                throw new IllegalStateException("the demo did not converge: nothing left to do at " + clock.now());
            }
            clock.advance(Duration.between(clock.now(), next.get()));
        }
    }

    private int readyWorkers(String cluster) {
        StoredObject o = client.get(ResourceTypes.RAYCLUSTERS, NAMESPACE, cluster);
        return o == null ? -1 : o.object().path("status").path("readyWorkerReplicas").asInt(0);
    }

    private String state(String cluster) {
        StoredObject o = client.get(ResourceTypes.RAYCLUSTERS, NAMESPACE, cluster);
        return o == null ? null : Json.text(o.object(), "status", "state");
    }

    /** A manifest from {@code http-examples/}, which the build copies into the jar for the console (one copy). */
    static ObjectNode manifest(String fileName) {
        String resource = EXAMPLES + fileName;
        try (InputStream in = DemoScenario.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing demo manifest " + resource);
            }
            return (ObjectNode) Json.YAML.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
