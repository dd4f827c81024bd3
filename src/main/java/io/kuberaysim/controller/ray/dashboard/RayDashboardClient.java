package io.kuberaysim.controller.ray.dashboard;

import java.util.Map;
import java.util.Optional;

/**
 * What the operator asks of a Ray head's dashboard: the jobs API ({@code /api/jobs/}) for RayJob and the Serve API
 * ({@code /api/serve/applications/}) for RayService, KubeRay's {@code RayDashboardClientInterface}
 * ({@code ray-operator/controllers/ray/utils/dashboardclient}). The operator only holds this interface; the
 * simulated cluster implements it, and reconciler tests may pass a fake.
 *
 * <p>Every call names the cluster by {@link ClusterKey}. Calls to a cluster whose head is down throw
 * {@link DashboardException} with {@link DashboardException.Kind#UNREACHABLE}.
 */
public interface RayDashboardClient {

    /**
     * {@code POST /api/jobs/}: submits a job.
     *
     * @throws DashboardException ALREADY_EXISTS when the submission id is taken, UNREACHABLE when the head is down
     */
    JobDetails submitJob(ClusterKey cluster, JobSubmission submission);

    /**
     * {@code GET /api/jobs/<id>}.
     *
     * @return the job, or empty when the cluster has no job with that id
     * @throws DashboardException UNREACHABLE when the head is down
     */
    Optional<JobDetails> getJobInfo(ClusterKey cluster, String jobId);

    /**
     * {@code POST /api/jobs/<id>/stop}.
     *
     * @return true when this call stopped the job, false when it had already ended
     * @throws DashboardException NOT_FOUND for an unknown id, UNREACHABLE when the head is down
     */
    boolean stopJob(ClusterKey cluster, String jobId);

    /**
     * The Serve applications the cluster's head Pod {@code headUid} runs, by name in config order; empty when that
     * head has received no config (a new head starts without applications).
     */
    Map<String, ServeApplication> getMultiApplicationStatus(ClusterKey cluster, String headUid);

    /**
     * The Serve config last sent to the head Pod {@code headUid}, or null when none was. (KubeRay keeps this in a
     * cache of the RayService controller; here the dashboard answers it, tied to the head that received it.)
     */
    String getAppliedServeConfig(ClusterKey cluster, String headUid);

    /**
     * {@code PUT /api/serve/applications/}: deploys {@code serveConfigV2} (Serve config V2 YAML) on the head Pod
     * {@code headUid}.
     *
     * @param ownerAnnotations the RayService's annotations: a real dashboard never sees them; the simulated one
     *                         reads its knobs ({@code sim.kuberay.io/serve-*}) from them
     * @throws DashboardException INVALID_CONFIG when the dashboard refuses the config
     */
    void updateDeployments(ClusterKey cluster, String headUid, String serveConfigV2,
                           Map<String, String> ownerAnnotations);
}
