package io.kuberaysim.sim.ray;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.ray.RayLabels;
import io.kuberaysim.controller.ray.dashboard.ClusterKey;
import io.kuberaysim.controller.ray.dashboard.DashboardException;
import io.kuberaysim.controller.ray.dashboard.JobDetails;
import io.kuberaysim.controller.ray.dashboard.JobSubmission;
import io.kuberaysim.controller.ray.dashboard.RayDashboardClient;
import io.kuberaysim.controller.ray.dashboard.ServeApplication;
import io.kuberaysim.controller.runtime.Controller;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.cache.InformerHandler;
import io.kuberaysim.controller.runtime.reconcile.Request;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Optional;

/**
 * The Ray dashboards of every simulated cluster, as the operator reaches them through {@link RayDashboardClient}:
 * the jobs API ({@link RayDashboard}) and the Serve API ({@link ServeApplications}).
 *
 * <p>A cluster answers while its RayCluster exists and is not being deleted and its head Pod runs. Its job table is
 * dropped when the RayCluster is deleted and when its head Pod stops running or goes away: without the head's GCS
 * Ray keeps no job history, so a job whose head was lost is unknown to the new head and its submitter submits it
 * again there. Serve applications are tied to the head Pod's uid, so a new head reports none.
 */
public final class SimulatedRayDashboard implements RayDashboardClient {
    private final ControllerManager manager;
    private final RayDashboard jobs;
    private final ServeApplications serve;
    private final Map<ClusterKey, Instant> outages = new ConcurrentHashMap<>();

    public SimulatedRayDashboard(ControllerManager manager) {
        this.manager = manager;
        this.jobs = new RayDashboard(manager.clock(), this::reachable);
        this.serve = new ServeApplications(manager.clock());
    }

    /** The jobs API. */
    public RayDashboard jobs() {
        return jobs;
    }

    /** The Serve API. */
    public ServeApplications serve() {
        return serve;
    }

    /**
     * Follows the clusters' lifecycle (see the class comment), wakes {@code rayJobController}'s RayJobs of a cluster
     * as soon as one of its Ray jobs ends (so HTTPMode and InteractiveMode do not wait for the 3 s poll) and runs the
     * submitter Pods' containers ({@link SubmitterSimulation}).
     */
    public void install(Controller rayJobController) {
        manager.informer(ResourceTypes.RAYCLUSTERS).addHandler(new InformerHandler() {
            @Override
            public void onDelete(StoredObject o) {
                ClusterKey key = new ClusterKey(o.namespace(), o.name());
                jobs.forgetCluster(key);
                serve.forget(key);
            }
        });
        manager.informer(ResourceTypes.PODS).addHandler(new InformerHandler() {
            @Override
            public void onUpdate(StoredObject oldObj, StoredObject newObj) {
                if (headRunning(oldObj) && !headRunning(newObj)) {
                    headLost(newObj);
                }
            }

            @Override
            public void onDelete(StoredObject o) {
                if (headRunning(o)) {
                    headLost(o);
                }
            }

            private void headLost(StoredObject head) {
                jobs.forgetCluster(new ClusterKey(head.namespace(), head.labels().get(RayLabels.CLUSTER)));
            }
        });
        var rayJobs = manager.informer(ResourceTypes.RAYJOBS);
        jobs.addListener((cluster, job) -> {
            if (!job.status().terminal()) {
                return;
            }
            for (StoredObject rj : rayJobs.list(cluster.namespace(), Map.of())) {
                if (cluster.name().equals(Json.text(rj.object(), "status", "rayClusterName"))) {
                    rayJobController.enqueue(new Request(rj.namespace(), rj.name()));
                }
            }
        });
        SubmitterSimulation.register(manager, this);
        RedisCleanupSimulation.register(manager);
    }

    @Override
    public JobDetails submitJob(ClusterKey cluster, JobSubmission submission) {
        Map<String, String> metadata = new LinkedHashMap<>(submission.metadata());
        metadata.putAll(RayDashboard.simulationMetadata(submission.ownerAnnotations()));
        return jobs.submit(cluster, submission.submissionId(), submission.entrypoint(), metadata,
                submission.runtimeEnvJson());
    }

    @Override
    public Optional<JobDetails> getJobInfo(ClusterKey cluster, String jobId) {
        return jobs.status(cluster, jobId);
    }

    @Override
    public boolean stopJob(ClusterKey cluster, String jobId) {
        return jobs.stop(cluster, jobId);
    }

    @Override
    public Map<String, ServeApplication> getMultiApplicationStatus(ClusterKey cluster, String headUid) {
        requireNoOutage(cluster);
        return serve.applications(cluster, headUid);
    }

    @Override
    public String getAppliedServeConfig(ClusterKey cluster, String headUid) {
        requireNoOutage(cluster);
        return serve.appliedConfig(cluster, headUid);
    }

    @Override
    public void updateDeployments(ClusterKey cluster, String headUid, String serveConfigV2,
                                  Map<String, String> ownerAnnotations) {
        requireNoOutage(cluster);
        serve.put(cluster, headUid, serveConfigV2, ownerAnnotations);
    }

    /**
     * Fault injection: the cluster's dashboard (jobs and Serve API) refuses connections until {@code until}, as if
     * the head's dashboard process hung.
     */
    public void unreachableUntil(ClusterKey cluster, Instant until) {
        outages.merge(cluster, until, (a, b) -> a.isAfter(b) ? a : b);
    }

    private void requireNoOutage(ClusterKey key) {
        Instant until = outages.get(key);
        if (until != null && manager.clock().now().isBefore(until)) {
            throw new DashboardException(DashboardException.Kind.UNREACHABLE,
                    "Failed to connect to Ray dashboard of " + key + ": connection timed out (simulated outage)");
        }
    }

    private boolean reachable(ClusterKey key) {
        Instant until = outages.get(key);
        if (until != null && manager.clock().now().isBefore(until)) {
            return false;
        }
        StoredObject rc = manager.client().get(ResourceTypes.RAYCLUSTERS, key.namespace(), key.name());
        return rc != null && !rc.isDeleting() && headRunning(
                manager.informer(ResourceTypes.PODS).get(key.namespace(), RayLabels.headPodName(key.name())));
    }

    /** Whether {@code pod} is a Ray head Pod that runs and is not being deleted. */
    private static boolean headRunning(StoredObject pod) {
        return pod != null && !pod.isDeleting() && RayLabels.NODE_TYPE_HEAD.equals(pod.labels().get(RayLabels.NODE_TYPE))
                && pod.labels().get(RayLabels.CLUSTER) != null
                && "Running".equals(Json.text(pod.object(), "status", "phase"));
    }
}
