package io.kuberaysim.sim.ray;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.api.ray.RayJob;
import io.kuberaysim.apiserver.registry.PatchType;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.ray.RayLabels;
import io.kuberaysim.controller.ray.dashboard.ClusterKey;
import io.kuberaysim.controller.ray.dashboard.DashboardException;
import io.kuberaysim.controller.ray.dashboard.JobDetails;
import io.kuberaysim.controller.ray.dashboard.JobSubmission;
import io.kuberaysim.controller.runtime.Controller;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.reconcile.Reconciler;
import io.kuberaysim.controller.runtime.reconcile.Request;
import io.kuberaysim.controller.runtime.reconcile.Result;
import io.kuberaysim.logging.LogValues;
import io.kuberaysim.sim.SimulationSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the container of a RayJob submitter Pod does: {@code ray job submit --no-wait} (unless the job exists) and
 * {@code ray job logs --follow}. Once the Pod is Running it submits the job to its cluster's simulated dashboard
 * (address and id from {@code RAY_DASHBOARD_ADDRESS} / {@code RAY_JOB_SUBMISSION_ID}, falling back to the RayJob's
 * status), and when the Ray job reaches a terminal state the container exits with code 0.
 *
 * <p>The exit goes through the simulated kubelet, which stays the only writer of Pod status: when the Ray job ends the
 * Pod gets {@code sim.kuberay.io/run-seconds} (the seconds it has been running, rounded up) and
 * {@code sim.kuberay.io/exit-code: "0"}, and the kubelet then writes the terminated container and phase Succeeded as
 * for any container that exits; the batch Job controller completes the submitter Job as usual. (A run-seconds
 * annotation a user put on their own submitter template is left as it is.)
 * While the cluster's dashboard does not answer, the container keeps
 * waiting (the submitter's {@code until ... sleep 2} loop), polling every 2 s.
 *
 * <p>SidecarMode is simulated with the same submitter Job (a deviation: KubeRay injects the container into the head
 * Pod instead).
 */
public final class SubmitterSimulation implements Reconciler {
    private static final Logger log = LoggerFactory.getLogger(SubmitterSimulation.class);

    private static final Duration WAIT_POLL = Duration.ofSeconds(2);

    private final KubeClient client;
    private final Clock clock;
    private final SimulatedRayDashboard dashboard;

    public SubmitterSimulation(KubeClient client, Clock clock, SimulatedRayDashboard dashboard) {
        this.client = client;
        this.clock = clock;
        this.dashboard = dashboard;
    }

    /**
     * Registers the simulation as a controller on RayJob submitter Pods and wakes those Pods when one of their
     * cluster's jobs ends.
     */
    public static Controller register(ControllerManager manager, SimulatedRayDashboard dashboard) {
        SubmitterSimulation sim = new SubmitterSimulation(manager.client(), manager.clock(), dashboard);
        Controller controller = manager.controller("ray-job-submitter-sim")
                .watches(ResourceTypes.PODS, pod -> RayJob.KIND.equals(pod.labels().get(RayLabels.ORIGINATED_FROM_CRD))
                        ? List.of(new Request(pod.namespace(), pod.name())) : List.of())
                .complete(sim);
        var pods = manager.informer(ResourceTypes.PODS);
        dashboard.jobs().addListener((cluster, job) -> {
            if (job.status().terminal()) {
                for (StoredObject pod : pods.list(cluster.namespace(), Map.of(RayLabels.ORIGINATED_FROM_CRD, RayJob.KIND))) {
                    controller.enqueue(new Request(pod.namespace(), pod.name()));
                }
            }
        });
        // a lost head took its jobs along: a submitter still following one waits for the new head and submits again
        dashboard.jobs().onClusterForgotten(cluster -> {
            for (StoredObject pod : pods.list(cluster.namespace(), Map.of(RayLabels.ORIGINATED_FROM_CRD, RayJob.KIND))) {
                controller.enqueue(new Request(pod.namespace(), pod.name()));
            }
        });
        return controller;
    }

    @Override
    public Result reconcile(Request request) {
        StoredObject pod = client.get(ResourceTypes.PODS, request.namespace(), request.name());
        if (pod == null || pod.isDeleting() || !RayJob.KIND.equals(pod.labels().get(RayLabels.ORIGINATED_FROM_CRD))) {
            return Result.done();
        }
        if (!"Running".equals(Json.text(pod.object(), "status", "phase")) || containerTerminated(pod)) {
            return Result.done();
        }
        JsonNode podSpec = pod.object().get("spec");
        String address = env(podSpec, "RAY_DASHBOARD_ADDRESS");
        String jobId = env(podSpec, "RAY_JOB_SUBMISSION_ID");
        StoredObject rayJob = client.get(ResourceTypes.RAYJOBS, pod.namespace(),
                pod.labels().get(RayLabels.ORIGINATED_FROM_CR_NAME));
        if (address == null && rayJob != null) {
            address = Json.text(rayJob.object(), "status", "dashboardURL");
        }
        if (jobId == null && rayJob != null) {
            jobId = Json.text(rayJob.object(), "status", "jobId");
        }
        Optional<ClusterKey> key = ClusterKey.fromDashboardAddress(address);
        if (key.isEmpty() && rayJob != null && Json.text(rayJob.object(), "status", "rayClusterName") != null) {
            key = Optional.of(new ClusterKey(pod.namespace(), Json.text(rayJob.object(), "status", "rayClusterName")));
        }
        if (key.isEmpty() || jobId == null) {
            log.warn("Submitter Pod {}/{}: no dashboard address or job id; the container exits with code 1",
                    pod.namespace(), pod.name());
            exit(pod, 1);
            return Result.done();
        }
        if (!dashboard.jobs().isReachable(key.get())) {
            return Result.requeueAfter(WAIT_POLL);
        }
        try {
            Optional<JobDetails> job = dashboard.getJobInfo(key.get(), jobId);
            if (job.isEmpty()) {
                JobSubmission submission = rayJob == null ? new JobSubmission(jobId, null, Map.of(), null, Map.of())
                        : JobSubmission.of(KubeClient.read(rayJob.object(), RayJob.class), rayJob.annotations(),
                        jobId);
                job = Optional.of(dashboard.submitJob(key.get(), submission));
            }
            if (job.get().status().terminal() && !pod.metadata().path("annotations").has(SimulationSettings.RUN_SECONDS)) {
                exit(pod, 0);
            }
        } catch (DashboardException e) {
            log.debug("Submitter Pod {}/{}: {}", pod.namespace(), pod.name(), LogValues.escape(e.getMessage()));
            return Result.requeueAfter(WAIT_POLL);
        }
        return Result.done();
    }

    private static boolean containerTerminated(StoredObject pod) {
        JsonNode statuses = Json.at(pod.object(), "status", "containerStatuses");
        return statuses != null && statuses.isArray() && !statuses.isEmpty()
                && Json.at(statuses.get(0), "state", "terminated") != null;
    }

    /**
     * Makes the container exit now with {@code exitCode}, through the kubelet: the Pod gets the run-seconds
     * annotation for the time it has been running (rounded up) and the exit code, and the kubelet writes the
     * terminated status as for any other container that ends.
     */
    private void exit(StoredObject pod, int exitCode) {
        JsonNode statuses = Json.at(pod.object(), "status", "containerStatuses");
        String startedAt = statuses != null && statuses.isArray() && !statuses.isEmpty()
                ? Json.text(statuses.get(0), "state", "running", "startedAt") : null;
        long runSeconds = 0;
        if (startedAt != null) {
            long ms = Duration.between(Instant.parse(startedAt), clock.now()).toMillis();
            runSeconds = Math.max(0, (ms + 999) / 1000);
        }
        ObjectNode patch = Json.object();
        patch.putObject("metadata").putObject("annotations")
                .put(SimulationSettings.RUN_SECONDS, Long.toString(runSeconds))
                .put(SimulationSettings.EXIT_CODE, Integer.toString(exitCode));
        client.patch(ResourceTypes.PODS, pod.namespace(), pod.name(), PatchType.MERGE, patch);
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
