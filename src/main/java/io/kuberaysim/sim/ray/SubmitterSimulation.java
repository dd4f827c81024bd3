package io.kuberaysim.sim.ray;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.api.ray.RayJob;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.runtime.Controller;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.reconcile.Reconciler;
import io.kuberaysim.controller.runtime.reconcile.Request;
import io.kuberaysim.controller.runtime.reconcile.Result;
import io.kuberaysim.sim.ray.RayDashboard.ClusterKey;
import io.kuberaysim.sim.ray.RayDashboard.DashboardException;
import io.kuberaysim.sim.ray.RayDashboard.JobDetails;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the container of a RayJob submitter Pod does: {@code ray job submit --no-wait} (unless the job exists) and
 * {@code ray job logs --follow}. Once the Pod is Running it submits the job to its cluster's {@link RayDashboard}
 * (address and id from {@code RAY_DASHBOARD_ADDRESS} / {@code RAY_JOB_SUBMISSION_ID}, falling back to the RayJob's
 * status), and when the Ray job reaches a terminal state the container exits with code 0.
 *
 * <p>The exit is written as the kubelet writes a container that ended: the Pod's status becomes phase Succeeded with
 * the container {@code terminated} (exitCode 0, reason Completed) and the Ready conditions False/PodCompleted. That
 * was chosen over setting {@code sim.kuberay.io/run-seconds}: the exit time is only known when the Ray job ends, and
 * writing it then is exact, whereas an annotation would have to be computed in advance. The batch Job controller
 * then completes the submitter Job as usual. While the cluster's dashboard does not answer, the container keeps
 * waiting (the submitter's {@code until ... sleep 2} loop), polling every 2 s.
 *
 * <p>SidecarMode is simulated with the same submitter Job (a deviation: KubeRay injects the container into the head
 * Pod instead).
 */
public final class SubmitterSimulation implements Reconciler {
    private static final Logger log = LoggerFactory.getLogger(SubmitterSimulation.class);

    /** Label on submitter Pods (through the Job's template). */
    public static final String ORIGINATED_FROM_CRD_LABEL = "ray.io/originated-from-crd";
    /** Label naming the RayJob. */
    public static final String ORIGINATED_FROM_CR_NAME_LABEL = "ray.io/originated-from-cr-name";
    private static final Duration WAIT_POLL = Duration.ofSeconds(2);

    private final KubeClient client;
    private final Clock clock;
    private final RayDashboard dashboard;

    public SubmitterSimulation(KubeClient client, Clock clock, RayDashboard dashboard) {
        this.client = client;
        this.clock = clock;
        this.dashboard = dashboard;
    }

    /**
     * Registers the simulation as a controller on RayJob submitter Pods and wakes those Pods when one of their
     * cluster's jobs ends.
     */
    public static Controller register(ControllerManager manager, RayDashboard dashboard) {
        SubmitterSimulation sim = new SubmitterSimulation(manager.client(), manager.clock(), dashboard);
        Controller controller = manager.controller("ray-job-submitter-sim")
                .watches(ResourceTypes.PODS, pod -> RayJob.KIND.equals(pod.labels().get(ORIGINATED_FROM_CRD_LABEL))
                        ? List.of(new Request(pod.namespace(), pod.name())) : List.of())
                .complete(sim);
        var pods = manager.informer(ResourceTypes.PODS);
        dashboard.addListener((cluster, job) -> {
            if (job.status().terminal()) {
                for (StoredObject pod : pods.list(cluster.namespace(), Map.of(ORIGINATED_FROM_CRD_LABEL, RayJob.KIND))) {
                    controller.enqueue(new Request(pod.namespace(), pod.name()));
                }
            }
        });
        return controller;
    }

    @Override
    public Result reconcile(Request request) {
        StoredObject pod = client.get(ResourceTypes.PODS, request.namespace(), request.name());
        if (pod == null || pod.isDeleting() || !RayJob.KIND.equals(pod.labels().get(ORIGINATED_FROM_CRD_LABEL))) {
            return Result.done();
        }
        if (!"Running".equals(Json.text(pod.object(), "status", "phase")) || containerTerminated(pod)) {
            return Result.done();
        }
        JsonNode podSpec = pod.object().get("spec");
        String address = env(podSpec, "RAY_DASHBOARD_ADDRESS");
        String jobId = env(podSpec, "RAY_JOB_SUBMISSION_ID");
        StoredObject rayJob = client.get(ResourceTypes.RAYJOBS, pod.namespace(),
                pod.labels().get(ORIGINATED_FROM_CR_NAME_LABEL));
        if (address == null && rayJob != null) {
            address = Json.text(rayJob.object(), "status", "dashboardURL");
        }
        if (jobId == null && rayJob != null) {
            jobId = Json.text(rayJob.object(), "status", "jobId");
        }
        Optional<ClusterKey> key = RayDashboard.parseAddress(address);
        if (key.isEmpty() && rayJob != null && Json.text(rayJob.object(), "status", "rayClusterName") != null) {
            key = Optional.of(new ClusterKey(pod.namespace(), Json.text(rayJob.object(), "status", "rayClusterName")));
        }
        if (key.isEmpty() || jobId == null) {
            log.warn("Submitter Pod {}/{}: no dashboard address or job id; the container exits with code 1",
                    pod.namespace(), pod.name());
            exit(pod, 1, "Error");
            return Result.done();
        }
        if (!dashboard.isReachable(key.get())) {
            return Result.requeueAfter(WAIT_POLL);
        }
        try {
            Optional<JobDetails> job = dashboard.status(key.get(), jobId);
            if (job.isEmpty()) {
                RayJob rj = rayJob == null ? null : KubeClient.read(rayJob.object(), RayJob.class);
                Map<String, String> metadata = rj == null ? new LinkedHashMap<>() : metadata(rj);
                String entrypoint = rj == null || rj.spec() == null ? null : rj.spec().entrypoint();
                String runtimeEnv = rj == null || rj.spec() == null ? null : runtimeEnvJson(rj.spec().runtimeEnvYAML());
                job = Optional.of(dashboard.submit(key.get(), jobId, entrypoint, metadata, runtimeEnv));
            }
            if (job.get().status().terminal()) {
                exit(pod, 0, "Completed");
            }
        } catch (DashboardException e) {
            log.debug("Submitter Pod {}/{}: {}", pod.namespace(), pod.name(), e.getMessage());
            return Result.requeueAfter(WAIT_POLL);
        }
        return Result.done();
    }

    private static Map<String, String> metadata(RayJob rj) {
        Map<String, String> out = new LinkedHashMap<>();
        if (rj.spec() != null && rj.spec().metadata() != null) {
            out.putAll(rj.spec().metadata());
        }
        Map<String, String> annotations = new LinkedHashMap<>();
        JsonNode a = Json.at(rj.metadata(), "annotations");
        if (a != null && a.isObject()) {
            a.properties().forEach(e -> annotations.put(e.getKey(), e.getValue().asString()));
        }
        out.putAll(RayDashboard.simulationMetadata(annotations));
        return out;
    }

    private static String runtimeEnvJson(String yaml) {
        if (yaml == null || yaml.isBlank()) {
            return null;
        }
        try {
            JsonNode n = Json.YAML.readTree(yaml);
            return n == null || n.isNull() || n.isMissingNode() ? null : Json.MAPPER.writeValueAsString(n);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static boolean containerTerminated(StoredObject pod) {
        JsonNode statuses = Json.at(pod.object(), "status", "containerStatuses");
        return statuses != null && statuses.isArray() && !statuses.isEmpty()
                && Json.at(statuses.get(0), "state", "terminated") != null;
    }

    /** Writes the container's exit as the kubelet does for a restartPolicy Never Pod. */
    private void exit(StoredObject pod, int exitCode, String reason) {
        String now = clock.now().truncatedTo(ChronoUnit.SECONDS).toString();
        ObjectNode copy = pod.copy();
        ObjectNode status = Json.child(copy, "status");
        status.put("phase", exitCode == 0 ? "Succeeded" : "Failed");
        JsonNode statuses = status.get("containerStatuses");
        if (statuses instanceof ArrayNode arr && !arr.isEmpty()) {
            ObjectNode cs = (ObjectNode) arr.get(0);
            String startedAt = Json.text(cs, "state", "running", "startedAt");
            ObjectNode term = Json.object();
            term.put("exitCode", exitCode);
            term.put("reason", reason);
            if (startedAt != null) {
                term.put("startedAt", startedAt);
            }
            term.put("finishedAt", now);
            if (Json.text(cs, "containerID") != null) {
                term.put("containerID", Json.text(cs, "containerID"));
            }
            ObjectNode state = cs.putObject("state");
            state.set("terminated", term);
            cs.put("ready", false);
            cs.put("started", false);
        }
        JsonNode conds = status.get("conditions");
        if (conds instanceof ArrayNode arr) {
            for (JsonNode c : arr) {
                String type = Json.text(c, "type");
                if ("Ready".equals(type) || "ContainersReady".equals(type)) {
                    ObjectNode oc = (ObjectNode) c;
                    if (!"False".equals(Json.text(oc, "status"))) {
                        oc.put("lastTransitionTime", now);
                    }
                    oc.put("status", "False");
                    oc.put("reason", "PodCompleted");
                }
            }
        }
        client.updateStatus(ResourceTypes.PODS, copy);
    }

    private static String env(JsonNode podSpec, String name) {
        JsonNode c = Json.at(podSpec, "containers");
        if (c == null || !c.isArray() || c.isEmpty()) {
            return null;
        }
        JsonNode env = c.get(0).get("env");
        String found = null;
        if (env != null && env.isArray()) {
            for (JsonNode e : env) {
                if (name.equals(Json.text(e, "name"))) {
                    found = Json.text(e, "value");
                }
            }
        }
        return found;
    }
}
