package io.kuberaysim.controller.ray.job;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.RandomString;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.api.ray.ClusterState;
import io.kuberaysim.api.ray.DeletionPolicyType;
import io.kuberaysim.api.ray.DeletionRule;
import io.kuberaysim.api.ray.DeletionStrategy;
import io.kuberaysim.api.ray.JobDeploymentStatus;
import io.kuberaysim.api.ray.JobFailedReason;
import io.kuberaysim.api.ray.JobStatus;
import io.kuberaysim.api.ray.JobSubmissionMode;
import io.kuberaysim.api.ray.RayCluster;
import io.kuberaysim.api.ray.RayClusterStatus;
import io.kuberaysim.api.ray.RayJob;
import io.kuberaysim.api.ray.RayJobInfo;
import io.kuberaysim.api.ray.RayJobSpec;
import io.kuberaysim.api.ray.RayJobStatus;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.ray.RayLabels;
import io.kuberaysim.controller.ray.Step;
import io.kuberaysim.controller.ray.ValidationFailure;
import io.kuberaysim.controller.ray.WorkingStatus;
import io.kuberaysim.controller.ray.cluster.ClusterServices;
import io.kuberaysim.controller.ray.cluster.RayClusterViews;
import io.kuberaysim.controller.ray.dashboard.ClusterKey;
import io.kuberaysim.controller.ray.dashboard.DashboardException;
import io.kuberaysim.controller.ray.dashboard.JobDetails;
import io.kuberaysim.controller.ray.dashboard.JobSubmission;
import io.kuberaysim.controller.ray.dashboard.RayDashboardClient;
import io.kuberaysim.controller.runtime.Controller;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.EventRecorder;
import io.kuberaysim.controller.runtime.Finalizers;
import io.kuberaysim.controller.runtime.ObjectSkeleton;
import io.kuberaysim.controller.runtime.OwnerReferences;
import io.kuberaysim.controller.runtime.cache.SharedInformer;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.reconcile.ConflictRetry;
import io.kuberaysim.controller.runtime.reconcile.Reconciler;
import io.kuberaysim.controller.runtime.reconcile.Request;
import io.kuberaysim.controller.runtime.reconcile.Result;
import io.kuberaysim.logging.LogValues;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;

/**
 * KubeRay's RayJob controller ({@code rayjob_controller.go}): the jobDeploymentStatus state machine
 * New → Initializing → (Waiting →) Running → Complete/Failed, with Suspending/Suspended, Retrying and
 * ValidationFailed; it creates the job's RayCluster (or uses one chosen by clusterSelector), the submitter Job
 * (K8sJobMode), {@code <rayjob>-head-svc}, talks to the cluster's {@link RayDashboardClient} and cleans up after the job.
 *
 * <p>Objects are read from the shared informers' caches, as KubeRay's cached client reads them; a pass that started
 * from a stale copy fails its write with a conflict and is requeued ({@link #REQUEUE}), as KubeRay's
 * {@code updateRayJobStatus} error is.
 * Names and job ids come from a {@link Random} seeded with the configured seed, the RayJob's key, the attempt and the
 * (virtual) time, so runs on a virtual clock are repeatable.
 */
public final class RayJobReconciler implements Reconciler {
    private static final Logger log = LoggerFactory.getLogger(RayJobReconciler.class);

    /** The RayJob finalizer. */
    public static final String FINALIZER = "ray.io/rayjob-finalizer";
    /** Label with the submission mode of the RayJob that made a RayCluster. */
    public static final String JOB_SUBMISSION_MODE_LABEL = "ray.io/job-submission-mode";
    /** Event component. */
    public static final String COMPONENT = "rayjob-controller";

    /** KubeRay's RayJobDefaultRequeueDuration. */
    public static final Duration REQUEUE = Duration.ofSeconds(3);
    /** Extra delay KubeRay adds after a TTL before the next pass. */
    static final Duration TTL_SLACK = Duration.ofSeconds(2);
    /** RAYJOB_DEPLOYMENT_STATUS_TRANSITION_GRACE_PERIOD_SECONDS default. */
    static final Duration TRANSITION_GRACE_PERIOD = Duration.ofSeconds(300);
    /** RAYJOB_STATUS_CHECK_TIMEOUT_SECONDS default. */
    static final Duration STATUS_CHECK_TIMEOUT = Duration.ofSeconds(300);
    /** DefaultSubmitterFinishedTimeout. */
    static final Duration SUBMITTER_FINISHED_TIMEOUT = Duration.ofSeconds(30);
    private static final String DASHBOARD_PORT_NAME = "dashboard";

    private final KubeClient client;
    private final SharedInformer rayJobs;
    private final SharedInformer clusters;
    private final SharedInformer submitters;
    private final SharedInformer services;
    private final Clock clock;
    private final EventRecorder events;
    private final RayDashboardClient dashboard;
    private final long seed;

    /**
     * @param manager   the controller manager: client, informers, clock and the recorder for {@value #COMPONENT}
     * @param dashboard the Ray clusters' dashboards
     * @param seed      {@code kuberay-sim.seed}, mixed into generated names
     */
    public RayJobReconciler(ControllerManager manager, RayDashboardClient dashboard, long seed) {
        this.client = manager.operatorClient();
        this.rayJobs = manager.informer(ResourceTypes.RAYJOBS);
        this.clusters = manager.informer(ResourceTypes.RAYCLUSTERS);
        this.submitters = manager.informer(ResourceTypes.JOBS);
        this.services = manager.informer(ResourceTypes.SERVICES);
        this.clock = manager.clock();
        this.events = manager.eventRecorder(COMPONENT);
        this.dashboard = Objects.requireNonNull(dashboard, "dashboard");
        this.seed = seed;
    }

    /** Registers the reconciler: For RayJob; Owns RayCluster, batch Job and Service. */
    public static Controller register(ControllerManager manager, RayDashboardClient dashboard, long seed) {
        return manager.controller(COMPONENT)
                .forType(ResourceTypes.RAYJOBS)
                .owns(ResourceTypes.RAYCLUSTERS)
                .owns(ResourceTypes.JOBS)
                .owns(ResourceTypes.SERVICES)
                .complete(new RayJobReconciler(manager, dashboard, seed));
    }

    /** State of one reconcile pass. */
    private final class Pass {
        StoredObject so;
        final RayJob job;
        final RayJobSpec spec;
        final RayJobStatus old;
        final RayJobWorkingStatus d;
        /** Earliest deadline that should wake the RayJob before the default requeue. */
        Instant wakeAt;

        Pass(StoredObject so, RayJob job) {
            this.so = so;
            this.job = job;
            this.spec = job.spec();
            this.old = job.status() == null ? RayJobWorkingStatus.EMPTY : job.status();
            this.d = RayJobWorkingStatus.of(old);
        }

        String ns() {
            return so.namespace();
        }

        String name() {
            return so.name();
        }

        boolean selectorMode() {
            return spec.clusterSelector() != null && !spec.clusterSelector().isEmpty();
        }

        void wake(Instant at) {
            if (wakeAt == null || at.isBefore(wakeAt)) {
                wakeAt = at;
            }
        }
    }

    @Override
    public Result reconcile(Request request) {
        StoredObject so = rayJobs.get(request.namespace(), request.name());
        if (so == null) {
            return Result.done();
        }
        return ConflictRetry.run(REQUEUE, () -> reconcile(so));
    }

    private Result reconcile(StoredObject so) {
        RayJob job = KubeClient.read(so.object(), RayJob.class);
        if (job.spec() != null && job.spec().managedBy() != null && !job.spec().managedBy().isEmpty()
                && !RayLabels.MANAGED_BY_KUBERAY.equals(job.spec().managedBy())) {
            return Result.done();
        }
        if (so.isDeleting()) {
            return handleDeletion(so, job);
        }
        ValidationFailure failure = RayJobValidation.validate(job, so.annotations());
        if (failure != null) {
            events.event(so, EventRecorder.WARNING, failure.eventReason(RayJob.KIND), "Validate",
                    so.namespace() + "/" + so.name() + ": " + failure.message());
            Pass p = new Pass(so, job);
            p.d.jobDeploymentStatus = JobDeploymentStatus.VALIDATION_FAILED;
            p.d.reason = JobFailedReason.VALIDATION_FAILED;
            p.d.message = failure.message();
            writeStatus(p);
            return Result.done();
        }
        Pass p = new Pass(so, job);
        String ds = p.d.jobDeploymentStatus == null ? JobDeploymentStatus.NEW : p.d.jobDeploymentStatus;
        Step step = switch (ds) {
            case JobDeploymentStatus.NEW -> handleNew(p);
            case JobDeploymentStatus.INITIALIZING -> handleInitializing(p);
            case JobDeploymentStatus.WAITING -> handleWaiting(p);
            case JobDeploymentStatus.RUNNING -> handleRunning(p);
            case JobDeploymentStatus.SUSPENDING, JobDeploymentStatus.RETRYING -> handleTeardown(p, ds);
            case JobDeploymentStatus.SUSPENDED -> handleSuspended(p);
            case JobDeploymentStatus.COMPLETE, JobDeploymentStatus.FAILED -> Step.returnNow(handleFinished(p));
            // ValidationFailed of a spec that became valid: KubeRay has no way out either; nothing to do.
            default -> Step.returnNow(Result.done());
        };
        if (step instanceof Step.Return r) {
            return r.result();
        }
        checkBackoffLimit(p);
        writeStatus(p);
        Duration after = REQUEUE;
        if (p.wakeAt != null) {
            Duration untilDeadline = Duration.between(clock.now(), p.wakeAt);
            if (untilDeadline.compareTo(after) < 0) {
                after = untilDeadline.isNegative() ? Duration.ZERO : untilDeadline;
            }
        }
        return Result.requeueAfter(after);
    }

    // ---------------------------------------------------------------------------------------------- states

    private Step handleNew(Pass p) {
        ensureFinalizer(p);
        Random random = random(p);
        JobSubmissionMode mode = p.spec.submissionModeOrDefault();
        if (isEmpty(p.d.jobId)) {
            if (!isEmpty(p.spec.jobId())) {
                p.d.jobId = p.spec.jobId();
            } else if (mode != JobSubmissionMode.InteractiveMode) {
                p.d.jobId = p.name() + "-" + rand5(random);
            }
        }
        if (isEmpty(p.d.rayClusterName)) {
            p.d.rayClusterName = p.selectorMode() ? p.spec.clusterSelector().get(RayLabels.CLUSTER)
                    : p.name() + "-" + rand5(random);
        }
        p.d.jobStatus = JobStatus.NEW;
        p.d.jobDeploymentStatus = JobDeploymentStatus.INITIALIZING;
        p.d.startTime = now();
        return Step.CONTINUE;
    }

    private Step handleInitializing(Pass p) {
        if (p.spec.suspended()) {
            p.d.jobDeploymentStatus = JobDeploymentStatus.SUSPENDING;
            return Step.CONTINUE;
        }
        if (checkActiveDeadline(p) || checkPreRunningDeadline(p)) {
            return Step.CONTINUE;
        }
        StoredObject cluster = getOrCreateCluster(p);
        if (cluster == null) {
            return Step.returnNow(Result.requeueAfter(REQUEUE));
        }
        p.d.rayClusterStatus = clusterStatus(cluster);
        if (isEmpty(p.d.dashboardURL)) {
            if (!ClusterState.READY.equals(Json.text(cluster.object(), "status", "state"))) {
                return Step.CONTINUE;
            }
            String url = dashboardUrl(cluster);
            if (url == null) {
                return Step.CONTINUE;
            }
            p.d.dashboardURL = url;
        }
        switch (p.spec.submissionModeOrDefault()) {
            case InteractiveMode -> {
                p.d.jobDeploymentStatus = JobDeploymentStatus.WAITING;
                return Step.CONTINUE;
            }
            // SidecarMode is simulated with a submitter Job as well (see the class comment of SubmitterSimulation).
            case K8sJobMode, SidecarMode -> ensureSubmitterJob(p, cluster);
            default -> {
            }
        }
        p.d.jobDeploymentStatus = JobDeploymentStatus.RUNNING;
        return Step.CONTINUE;
    }

    private Step handleWaiting(Pass p) {
        if (checkPreRunningDeadline(p)) {
            return Step.CONTINUE;
        }
        if (!isEmpty(p.spec.jobId())) {
            p.d.jobId = p.spec.jobId();
            p.d.jobDeploymentStatus = JobDeploymentStatus.RUNNING;
        }
        return Step.CONTINUE;
    }

    private Step handleRunning(Pass p) {
        if (p.spec.suspended()) {
            p.d.jobDeploymentStatus = JobDeploymentStatus.SUSPENDING;
            return Step.CONTINUE;
        }
        Instant now = clock.now();
        if (checkActiveDeadline(p) || checkTransitionGracePeriod(p, now) || checkStatusCheckTimeout(p, now)) {
            return Step.CONTINUE;
        }
        // getOrCreateRayClusterInstance in Running too: a deleted cluster is created again (CreatedRayCluster);
        // a missing clusterSelector cluster is an error, retried without a status write
        StoredObject cluster = getOrCreateCluster(p);
        if (cluster == null) {
            return Step.returnNow(Result.requeueAfter(REQUEUE));
        }
        p.d.rayClusterStatus = clusterStatus(cluster);
        if (!p.selectorMode()) {
            ensureRayJobHeadService(p, cluster);
        }
        JobSubmissionMode mode = p.spec.submissionModeOrDefault();
        boolean hasSubmitter = mode == JobSubmissionMode.K8sJobMode || mode == JobSubmissionMode.SidecarMode;
        Instant submitterFinished = null;
        if (hasSubmitter) {
            StoredObject submitter = submitters.get(p.ns(), p.name());
            if (checkSubmitterFailed(p, submitter)) {
                return Step.CONTINUE;
            }
            submitterFinished = submitterFinishedAt(submitter, now);
            if (checkSubmitterFinishedTimeout(p, submitterFinished, now)) {
                return Step.CONTINUE;
            }
        }
        updateFromDashboard(p, mode, hasSubmitter, submitterFinished);
        return Step.CONTINUE;
    }

    /** The Ray job ended but the deployment status did not follow within the grace period. */
    private boolean checkTransitionGracePeriod(Pass p, Instant now) {
        if (!JobStatus.isTerminal(p.d.jobStatus) || p.d.rayJobInfo == null || p.d.rayJobInfo.endTime() == null
                || !now.isAfter(p.d.rayJobInfo.endTime().plus(TRANSITION_GRACE_PERIOD))) {
            return false;
        }
        boolean failed = JobStatus.FAILED.equals(p.d.jobStatus);
        finish(p, failed ? JobDeploymentStatus.FAILED : JobDeploymentStatus.COMPLETE,
                JobFailedReason.TRANSITION_GRACE_PERIOD_EXCEEDED,
                "The RayJob deployment status did not follow the Ray job status " + p.d.jobStatus + " within "
                        + TRANSITION_GRACE_PERIOD.toSeconds() + "s");
        return true;
    }

    /** The dashboard has not answered for longer than the status check timeout. */
    private boolean checkStatusCheckTimeout(Pass p, Instant now) {
        if (p.d.jobStatusCheckFailureStartTime == null
                || !now.isAfter(p.d.jobStatusCheckFailureStartTime.plus(STATUS_CHECK_TIMEOUT))) {
            return false;
        }
        finish(p, JobDeploymentStatus.FAILED, JobFailedReason.JOB_STATUS_CHECK_TIMEOUT_EXCEEDED,
                "Failed to get the Ray job status from the dashboard for more than "
                        + STATUS_CHECK_TIMEOUT.toSeconds() + "s");
        return true;
    }

    private boolean checkSubmitterFailed(Pass p, StoredObject submitter) {
        JsonNode failedCond = submitter == null ? null : jobCondition(submitter, "Failed");
        if (failedCond == null) {
            return false;
        }
        boolean appFailed = JobStatus.FAILED.equals(p.d.jobStatus);
        finish(p, JobDeploymentStatus.FAILED, appFailed ? JobFailedReason.APP_FAILED : JobFailedReason.SUBMISSION_FAILED,
                "Job submission has failed. Reason: " + Objects.toString(Json.text(failedCond, "reason"), "")
                        + ". Message: " + Objects.toString(Json.text(failedCond, "message"), ""));
        return true;
    }

    /** When the submitter Job completed, or null while it runs. */
    private static Instant submitterFinishedAt(StoredObject submitter, Instant now) {
        JsonNode completeCond = submitter == null ? null : jobCondition(submitter, "Complete");
        return completeCond == null ? null : parseTime(Json.text(completeCond, "lastTransitionTime"), now);
    }

    /** The submitter finished but the Ray job did not reach a terminal state in time. */
    private boolean checkSubmitterFinishedTimeout(Pass p, Instant submitterFinished, Instant now) {
        if (submitterFinished == null || JobStatus.isTerminal(p.d.jobStatus)
                || !now.isAfter(submitterFinished.plus(SUBMITTER_FINISHED_TIMEOUT))) {
            return false;
        }
        p.d.jobStatus = JobStatus.FAILED;
        finish(p, JobDeploymentStatus.FAILED, JobFailedReason.TRANSITION_GRACE_PERIOD_EXCEEDED,
                "The RayJob submitter finished at " + submitterFinished + " but the Ray job did not reach a "
                        + "terminal state within " + SUBMITTER_FINISHED_TIMEOUT.toSeconds() + "s");
        return true;
    }

    /** Reads the Ray job from the dashboard (submitting it in HTTPMode) and finishes the RayJob when it ended. */
    private void updateFromDashboard(Pass p, JobSubmissionMode mode, boolean hasSubmitter, Instant submitterFinished) {
        ClusterKey key = clusterKey(p);
        try {
            Optional<JobDetails> info = dashboard.getJobInfo(key, p.d.jobId);
            p.d.jobStatusCheckFailureStartTime = null;
            if (info.isEmpty()) {
                if (mode == JobSubmissionMode.HTTPMode) {
                    submitOverHttp(p, key);
                } else if (submitterFinished != null) {
                    finish(p, JobDeploymentStatus.FAILED, JobFailedReason.APP_FAILED,
                            "Submitter completed but Ray job not found in RayCluster.");
                }
                return;
            }
            JobDetails j = info.get();
            p.d.jobStatus = j.status().name();
            p.d.message = j.message();
            p.d.rayJobInfo = new RayJobInfo(j.startTime() > 0 ? Instant.ofEpochMilli(j.startTime()) : null,
                    j.endTime() > 0 ? Instant.ofEpochMilli(j.endTime()) : null);
            if (JobStatus.isTerminal(p.d.jobStatus) && (!hasSubmitter || submitterFinished != null)) {
                if (JobStatus.FAILED.equals(p.d.jobStatus)) {
                    finish(p, JobDeploymentStatus.FAILED, JobFailedReason.APP_FAILED, j.message());
                } else {
                    finish(p, JobDeploymentStatus.COMPLETE, null, j.message());
                }
            }
        } catch (DashboardException e) {
            log.debug("RayJob {}/{}: dashboard of {} not answering: {}", p.ns(), p.name(), key,
                    LogValues.escape(e.getMessage()));
            if (p.d.jobStatusCheckFailureStartTime == null) {
                p.d.jobStatusCheckFailureStartTime = now();
            }
            p.wake(p.d.jobStatusCheckFailureStartTime.plus(STATUS_CHECK_TIMEOUT).plusMillis(1));
        }
    }

    private void submitOverHttp(Pass p, ClusterKey key) {
        try {
            dashboard.submitJob(key, JobSubmission.of(p.job, p.so.annotations(), p.d.jobId));
        } catch (DashboardException e) {
            if (e.kind() != DashboardException.Kind.ALREADY_EXISTS) {
                throw e;
            }
        }
    }

    /** Suspending and Retrying: delete the cluster and the submitter, then start over (or stay suspended). */
    private Step handleTeardown(Pass p, String ds) {
        boolean pending = false;
        if (!p.selectorMode() && !isEmpty(p.d.rayClusterName)) {
            StoredObject cluster = clusters.get(p.ns(), p.d.rayClusterName);
            if (cluster != null) {
                if (!cluster.isDeleting()) {
                    deleteCluster(p, cluster);
                }
                pending |= clusters.get(p.ns(), p.d.rayClusterName) != null;
            }
        }
        StoredObject submitter = submitters.get(p.ns(), p.name());
        if (submitter != null) {
            if (!submitter.isDeleting()) {
                if (client.delete(ResourceTypes.JOBS, p.ns(), p.name())) {
                    events.event(p.so, EventRecorder.NORMAL, "DeletedRayJobSubmitter", "Delete",
                            "Deleted submitter K8s Job " + p.ns() + "/" + p.name());
                }
            }
            pending |= submitters.get(p.ns(), p.name()) != null;
        }
        if (pending) {
            return Step.returnNow(Result.requeueAfter(REQUEUE));
        }
        p.d.rayClusterName = null;
        p.d.dashboardURL = null;
        p.d.jobId = null;
        p.d.message = null;
        p.d.reason = null;
        p.d.rayJobInfo = null;
        p.d.rayClusterStatus = null;
        p.d.jobStatus = JobStatus.NEW;
        p.d.jobDeploymentStatus = JobDeploymentStatus.SUSPENDING.equals(ds) ? JobDeploymentStatus.SUSPENDED
                : JobDeploymentStatus.NEW;
        return Step.CONTINUE;
    }

    private Step handleSuspended(Pass p) {
        if (p.spec.suspended()) {
            return Step.returnNow(Result.done());
        }
        p.d.jobStatus = JobStatus.NEW;
        p.d.jobDeploymentStatus = JobDeploymentStatus.NEW;
        return Step.CONTINUE;
    }

    /** Complete / Failed: the clean-up policies. Never changes the status. */
    private Result handleFinished(Pass p) {
        if (p.selectorMode()) {
            return Result.done();
        }
        Instant end = p.d.endTime != null ? p.d.endTime : now();
        DeletionStrategy strategy = p.spec.deletionStrategy();
        if (strategy != null && strategy.deletionRules() != null && !strategy.deletionRules().isEmpty()) {
            return applyDeletionRules(p, strategy.deletionRules(), end);
        }
        if (strategy != null && (strategy.onSuccess() != null || strategy.onFailure() != null)) {
            DeletionPolicyType policy = JobStatus.SUCCEEDED.equals(p.d.jobStatus)
                    ? strategy.onSuccess() == null ? null : strategy.onSuccess().policy()
                    : strategy.onFailure() == null ? null : strategy.onFailure().policy();
            if (policy == null || policy == DeletionPolicyType.DeleteNone) {
                return Result.done();
            }
            Instant due = end.plusSeconds(ttlSeconds(p.spec));
            if (clock.now().isBefore(due)) {
                return Result.requeueAfter(Duration.between(clock.now(), due).plus(TTL_SLACK));
            }
            execute(p, policy);
            return Result.done();
        }
        if (p.spec.shutsDownAfterJobFinishes()) {
            Instant due = end.plusSeconds(ttlSeconds(p.spec));
            if (clock.now().isBefore(due)) {
                return Result.requeueAfter(Duration.between(clock.now(), due).plus(TTL_SLACK));
            }
            execute(p, DeletionPolicyType.DeleteCluster);
        }
        return Result.done();
    }

    private Result applyDeletionRules(Pass p, List<DeletionRule> rules, Instant end) {
        Instant now = clock.now();
        DeletionRule chosen = null;
        Instant nextDue = null;
        for (DeletionRule rule : rules) {
            if (!matches(rule, p.d) || isDone(p, rule.policy())) {
                continue;
            }
            int ttl = rule.condition().ttlSeconds() == null ? 0 : rule.condition().ttlSeconds();
            Instant due = end.plusSeconds(ttl);
            if (now.isBefore(due)) {
                nextDue = nextDue == null || due.isBefore(nextDue) ? due : nextDue;
            } else if (chosen == null || rank(rule.policy()) > rank(chosen.policy())) {
                chosen = rule;
            }
        }
        if (chosen != null) {
            execute(p, chosen.policy());
            // Another overdue rule may remain; look again once this action has taken effect.
            return nextDue == null ? Result.requeueAfter(TTL_SLACK) : Result.requeueAfter(
                    Duration.between(now, nextDue).plus(TTL_SLACK));
        }
        return nextDue == null ? Result.done() : Result.requeueAfter(Duration.between(now, nextDue).plus(TTL_SLACK));
    }

    private static boolean matches(DeletionRule rule, RayJobWorkingStatus d) {
        if (rule == null || rule.condition() == null || rule.policy() == null) {
            return false;
        }
        if (rule.condition().jobStatus() != null) {
            return rule.condition().jobStatus().name().equals(d.jobStatus);
        }
        return rule.condition().jobDeploymentStatus() != null
                && JobDeploymentStatus.FAILED.equals(d.jobDeploymentStatus);
    }

    private static int rank(DeletionPolicyType t) {
        return switch (t) {
            case DeleteSelf -> 3;
            case DeleteCluster -> 2;
            case DeleteWorkers -> 1;
            case DeleteNone -> 0;
        };
    }

    private boolean isDone(Pass p, DeletionPolicyType policy) {
        StoredObject cluster = isEmpty(p.d.rayClusterName) ? null
                : clusters.get(p.ns(), p.d.rayClusterName);
        return switch (policy) {
            case DeleteNone -> true;
            case DeleteSelf -> p.so.isDeleting();
            case DeleteCluster -> cluster == null || cluster.isDeleting();
            case DeleteWorkers -> cluster == null || cluster.isDeleting() || allWorkersSuspended(cluster);
        };
    }

    private void execute(Pass p, DeletionPolicyType policy) {
        switch (policy) {
            case DeleteCluster -> {
                StoredObject cluster = isEmpty(p.d.rayClusterName) ? null
                        : clusters.get(p.ns(), p.d.rayClusterName);
                if (cluster != null && !cluster.isDeleting()) {
                    deleteCluster(p, cluster);
                }
            }
            case DeleteWorkers -> suspendWorkers(p);
            case DeleteSelf -> {
                log.info("RayJob {}/{}: deleting itself (DeleteSelf)", p.ns(), p.name());
                client.delete(ResourceTypes.RAYJOBS, p.ns(), p.name());
            }
            case DeleteNone -> {
            }
        }
    }

    private void suspendWorkers(Pass p) {
        StoredObject cluster = isEmpty(p.d.rayClusterName) ? null
                : clusters.get(p.ns(), p.d.rayClusterName);
        if (cluster == null || cluster.isDeleting() || allWorkersSuspended(cluster)) {
            return;
        }
        ObjectNode copy = cluster.copy();
        JsonNode groups = Json.at(copy, "spec", "workerGroupSpecs");
        if (groups instanceof ArrayNode arr) {
            arr.forEach(g -> ((ObjectNode) g).put("suspend", true));
        }
        try {
            client.update(ResourceTypes.RAYCLUSTERS, copy);
            events.event(p.so, EventRecorder.NORMAL, "UpdatedRayCluster", "Update",
                    "Set the `suspend` field to true for all worker groups in cluster " + p.ns() + "/"
                            + cluster.name());
        } catch (ApiException e) {
            events.event(p.so, EventRecorder.WARNING, "FailedToUpdateRayCluster", "Update",
                    "Failed to suspend worker groups in cluster " + p.ns() + "/" + cluster.name() + ": "
                            + e.getMessage());
            throw e;
        }
    }

    private static boolean allWorkersSuspended(StoredObject cluster) {
        JsonNode groups = Json.at(cluster.object(), "spec", "workerGroupSpecs");
        if (groups == null || !groups.isArray()) {
            return true;
        }
        for (JsonNode g : groups) {
            JsonNode s = g.get("suspend");
            if (s == null || !s.asBoolean()) {
                return false;
            }
        }
        return true;
    }

    // ---------------------------------------------------------------------------------------------- deletion

    private Result handleDeletion(StoredObject so, RayJob job) {
        if (!so.hasFinalizer(FINALIZER)) {
            return Result.done();
        }
        RayJobStatus st = job.status();
        if (st != null && !JobStatus.isTerminal(st.jobStatus()) && !isEmpty(st.jobId())
                && !isEmpty(st.rayClusterName())) {
            ClusterKey key = ClusterKey.fromDashboardAddress(st.dashboardURL())
                    .orElse(new ClusterKey(so.namespace(), st.rayClusterName()));
            try {
                dashboard.stopJob(key, st.jobId());
            } catch (DashboardException e) {
                log.debug("RayJob {}/{}: stopping Ray job {} failed (ignored): {}", so.namespace(), so.name(),
                        LogValues.escape(st.jobId()), LogValues.escape(e.getMessage()));
            }
        }
        ObjectNode copy = so.copy();
        Finalizers.remove(copy, FINALIZER);
        client.update(ResourceTypes.RAYJOBS, copy);
        return Result.done();
    }

    private void ensureFinalizer(Pass p) {
        if (p.so.hasFinalizer(FINALIZER)) {
            return;
        }
        ObjectNode copy = p.so.copy();
        Finalizers.add(copy, FINALIZER);
        p.so = client.update(ResourceTypes.RAYJOBS, copy);
    }

    // ---------------------------------------------------------------------------------------------- helpers

    private boolean checkActiveDeadline(Pass p) {
        Integer ads = p.spec.activeDeadlineSeconds();
        if (ads == null || p.d.startTime == null) {
            return false;
        }
        Instant deadline = p.d.startTime.plusSeconds(ads);
        if (!clock.now().isBefore(deadline)) {
            finish(p, JobDeploymentStatus.FAILED, JobFailedReason.DEADLINE_EXCEEDED,
                    "The RayJob has passed the activeDeadlineSeconds. StartTime: " + p.d.startTime
                            + ". ActiveDeadlineSeconds: " + ads);
            return true;
        }
        p.wake(deadline);
        return false;
    }

    private boolean checkPreRunningDeadline(Pass p) {
        Integer prd = p.spec.preRunningDeadlineSeconds();
        if (prd == null || p.d.startTime == null) {
            return false;
        }
        Instant deadline = p.d.startTime.plusSeconds(prd);
        if (!clock.now().isBefore(deadline)) {
            finish(p, JobDeploymentStatus.FAILED, JobFailedReason.PRE_RUNNING_DEADLINE_EXCEEDED,
                    "The RayJob has passed the preRunningDeadlineSeconds. StartTime: " + p.d.startTime
                            + ". PreRunningDeadlineSeconds: " + prd);
            return true;
        }
        p.wake(deadline);
        return false;
    }

    private void finish(Pass p, String deploymentStatus, String reason, String message) {
        p.d.jobDeploymentStatus = deploymentStatus;
        p.d.reason = reason;
        if (message != null) {
            p.d.message = message;
        }
    }

    /** KubeRay's checkBackoffLimitAndUpdateStatusIfNeeded, run after every non-terminal pass. */
    private void checkBackoffLimit(Pass p) {
        if (JobDeploymentStatus.FAILED.equals(p.d.jobDeploymentStatus)) {
            p.d.failed = (p.d.failed == null ? 0 : p.d.failed) + 1;
        } else if (JobDeploymentStatus.COMPLETE.equals(p.d.jobDeploymentStatus)
                && JobStatus.SUCCEEDED.equals(p.d.jobStatus)) {
            p.d.succeeded = (p.d.succeeded == null ? 0 : p.d.succeeded) + 1;
        }
        Integer limit = p.spec.backoffLimit();
        if (JobDeploymentStatus.FAILED.equals(p.d.jobDeploymentStatus) && limit != null && p.d.failed < limit + 1
                && !JobFailedReason.DEADLINE_EXCEEDED.equals(p.d.reason)
                && !JobFailedReason.JOB_STATUS_CHECK_TIMEOUT_EXCEEDED.equals(p.d.reason)) {
            log.info("RayJob {}/{} failed ({}); retry {} of {}", p.ns(), p.name(), LogValues.escape(p.d.reason),
                    p.d.failed, limit);
            p.d.jobDeploymentStatus = JobDeploymentStatus.RETRYING;
        }
    }

    private StoredObject getOrCreateCluster(Pass p) {
        StoredObject cluster = clusters.get(p.ns(), p.d.rayClusterName);
        if (p.selectorMode()) {
            if (cluster == null) {
                events.event(p.so, EventRecorder.WARNING, "RayClusterNotFound", "Validate",
                        "RayCluster " + p.ns() + "/" + p.d.rayClusterName
                                + " set in the clusterSelector is not found. It must be created manually");
            }
            return cluster;
        }
        if (cluster != null) {
            return cluster; // later edits of spec.rayClusterSpec are disregarded, as in KubeRay
        }
        ObjectNode rc = buildCluster(p);
        try {
            cluster = client.create(ResourceTypes.RAYCLUSTERS, p.ns(), rc);
        } catch (ApiException e) {
            if (e.code() == 409) {
                return clusters.get(p.ns(), p.d.rayClusterName);
            }
            events.event(p.so, EventRecorder.WARNING, "FailedToCreateRayCluster", "Create",
                    "Failed to create RayCluster " + p.ns() + "/" + p.d.rayClusterName + ": " + e.getMessage());
            throw e;
        }
        events.event(p.so, EventRecorder.NORMAL, "CreatedRayCluster", "Create",
                "Created RayCluster " + p.ns() + "/" + p.d.rayClusterName);
        return cluster;
    }

    private ObjectNode buildCluster(Pass p) {
        ObjectNode rc = ObjectSkeleton.of(RayCluster.API_VERSION, RayCluster.KIND, p.ns(), p.d.rayClusterName);
        ObjectNode meta = ObjectSkeleton.metadata(rc);
        ObjectNode labels = meta.putObject("labels");
        JsonNode jobLabels = Json.at(p.so.object(), "metadata", "labels");
        if (jobLabels != null && jobLabels.isObject()) {
            labels.setAll((ObjectNode) jobLabels.deepCopy());
        }
        labels.put(RayLabels.ORIGINATED_FROM_CR_NAME, p.name());
        labels.put(RayLabels.ORIGINATED_FROM_CRD, RayJob.KIND);
        labels.put(JOB_SUBMISSION_MODE_LABEL, p.spec.submissionModeOrDefault().name());
        ObjectNode annotations = meta.putObject("annotations");
        JsonNode jobAnnotations = Json.at(p.so.object(), "metadata", "annotations");
        if (jobAnnotations != null && jobAnnotations.isObject()) {
            annotations.setAll((ObjectNode) jobAnnotations.deepCopy());
        }
        if (p.spec.submissionModeOrDefault() == JobSubmissionMode.SidecarMode) {
            annotations.put(RayLabels.DISABLE_PROVISIONED_HEAD_RESTART, "true");
        }
        if (annotations.isEmpty()) {
            meta.remove("annotations");
        }
        meta.putArray("ownerReferences").add(OwnerReferences.controllerReference(p.so));
        // The stored tree, not the bound record, so fields this model does not know survive.
        JsonNode spec = Json.at(p.so.object(), "spec", "rayClusterSpec");
        rc.set("spec", spec == null ? Json.object() : spec.deepCopy());
        return rc;
    }

    private void deleteCluster(Pass p, StoredObject cluster) {
        try {
            if (client.delete(ResourceTypes.RAYCLUSTERS, p.ns(), cluster.name())) {
                events.event(p.so, EventRecorder.NORMAL, "DeletedRayCluster", "Delete",
                        "Deleted cluster " + p.ns() + "/" + cluster.name());
            }
        } catch (ApiException e) {
            events.event(p.so, EventRecorder.WARNING, "FailedToDeleteRayCluster", "Delete",
                    "Failed to delete cluster " + p.ns() + "/" + cluster.name() + ": " + e.getMessage());
            throw e;
        }
    }

    private void ensureSubmitterJob(Pass p, StoredObject cluster) {
        if (submitters.get(p.ns(), p.name()) != null) {
            return;
        }
        String headImage = Json.text(firstContainer(Json.at(cluster.object(), "spec", "headGroupSpec", "template")),
                "image");
        ObjectNode job = SubmitterJobFactory.build(p.so, p.spec, headImage, p.d.dashboardURL, p.d.jobId,
                cluster);
        try {
            client.create(ResourceTypes.JOBS, p.ns(), job);
        } catch (ApiException e) {
            if (e.code() == 409) {
                return;
            }
            events.event(p.so, EventRecorder.WARNING, "FailedToCreateRayJobSubmitter", "Create",
                    "Failed to create new Kubernetes Job " + p.ns() + "/" + p.name() + ": " + e.getMessage());
            throw e;
        }
        events.event(p.so, EventRecorder.NORMAL, "CreatedRayJobSubmitter", "Create",
                "Created Kubernetes Job " + p.ns() + "/" + p.name());
    }

    /** {@code <rayjob>-head-svc}: a stable address of the job's head, owned by the RayJob. */
    private void ensureRayJobHeadService(Pass p, StoredObject cluster) {
        StoredObject headSvc = services.get(p.ns(), ClusterServices.headServiceName(cluster.name(), RayClusterViews.spec(cluster)));
        if (headSvc == null) {
            return;
        }
        String name = RayLabels.headServiceName(p.name());
        StoredObject existing = services.get(p.ns(), name);
        JsonNode selector = Json.at(headSvc.object(), "spec", "selector");
        if (existing != null) {
            if (Objects.equals(Json.text(existing.object(), "spec", "selector", RayLabels.CLUSTER), cluster.name())
                    || selector == null) {
                return;
            }
            ObjectNode copy = existing.copy();
            ((ObjectNode) copy.get("spec")).set("selector", selector.deepCopy());
            client.update(ResourceTypes.SERVICES, copy);
            events.event(p.so, EventRecorder.NORMAL, "UpdatedService", "Update",
                    "Updated the service " + p.ns() + "/" + name);
            return;
        }
        ObjectNode svc = ObjectSkeleton.of("v1", "Service", p.ns(), name);
        ObjectNode meta = ObjectSkeleton.metadata(svc);
        meta.putObject("labels").put(RayLabels.ORIGINATED_FROM_CR_NAME, p.name())
                .put(RayLabels.ORIGINATED_FROM_CRD, RayJob.KIND)
                .put(RayLabels.CREATED_BY, RayLabels.CREATED_BY_VALUE);
        meta.putArray("ownerReferences").add(OwnerReferences.controllerReference(p.so));
        ObjectNode spec = svc.putObject("spec");
        JsonNode src = headSvc.object().get("spec");
        for (String f : List.of("type", "ports", "selector", "publishNotReadyAddresses")) {
            if (src != null && src.get(f) != null) {
                spec.set(f, src.get(f).deepCopy());
            }
        }
        if ("None".equals(Json.text(src, "clusterIP"))) {
            spec.put("clusterIP", "None");
        }
        JsonNode ports = spec.get("ports");
        if (ports instanceof ArrayNode arr) {
            arr.forEach(port -> ((ObjectNode) port).remove("nodePort"));
        }
        try {
            client.create(ResourceTypes.SERVICES, p.ns(), svc);
            events.event(p.so, EventRecorder.NORMAL, "CreatedService", "Create",
                    "Created the service " + p.ns() + "/" + name);
        } catch (ApiException e) {
            if (e.code() != 409) {
                events.event(p.so, EventRecorder.WARNING, "FailedToCreateService", "Create",
                        "Failed to create the service " + p.ns() + "/" + name + ", " + e.getMessage());
                throw e;
            }
        }
    }

    /** {@code <head svc>.<ns>.svc.cluster.local:<dashboard port>}, or null while the Service is missing. */
    private String dashboardUrl(StoredObject cluster) {
        String svcName = ClusterServices.headServiceName(cluster.name(), RayClusterViews.spec(cluster));
        StoredObject svc = services.get(cluster.namespace(), svcName);
        if (svc == null) {
            return null;
        }
        JsonNode ports = Json.at(svc.object(), "spec", "ports");
        if (ports != null && ports.isArray()) {
            for (JsonNode port : ports) {
                if (DASHBOARD_PORT_NAME.equals(Json.text(port, "name"))) {
                    return svcName + "." + cluster.namespace() + ".svc.cluster.local:" + port.get("port").asInt();
                }
            }
        }
        return null;
    }

    private ClusterKey clusterKey(Pass p) {
        return ClusterKey.fromDashboardAddress(p.d.dashboardURL).orElse(new ClusterKey(p.ns(), p.d.rayClusterName));
    }

    private static JsonNode jobCondition(StoredObject job, String type) {
        JsonNode conds = Json.at(job.object(), "status", "conditions");
        if (conds == null || !conds.isArray()) {
            return null;
        }
        for (JsonNode c : conds) {
            if (type.equals(Json.text(c, "type")) && "True".equals(Json.text(c, "status"))) {
                return c;
            }
        }
        return null;
    }

    private static JsonNode firstContainer(JsonNode template) {
        JsonNode c = Json.at(template, "spec", "containers");
        return c != null && c.isArray() && !c.isEmpty() ? c.get(0) : null;
    }

    private static RayClusterStatus clusterStatus(StoredObject cluster) {
        JsonNode st = cluster.object().get("status");
        return st == null || st.isNull() ? null : KubeClient.read(st, RayClusterStatus.class);
    }

    private static int ttlSeconds(RayJobSpec spec) {
        return spec.ttlSecondsAfterFinished() == null ? 0 : spec.ttlSecondsAfterFinished();
    }

    private Random random(Pass p) {
        long h = seed;
        h = h * 1_000_003L + p.ns().hashCode();
        h = h * 1_000_003L + p.name().hashCode();
        h = h * 1_000_003L + clock.now().toEpochMilli();
        h = h * 1_000_003L + (p.d.failed == null ? 0 : p.d.failed);
        h = h * 1_000_003L + (p.d.succeeded == null ? 0 : p.d.succeeded);
        return new Random(h);
    }

    /** KubeRay's {@code GenerateRayClusterName} / {@code GenerateRayJobId} suffix: {@code rand.String(5)}. */
    private static String rand5(Random r) {
        return RandomString.of(5, r);
    }

    private Instant now() {
        return clock.now().truncatedTo(ChronoUnit.SECONDS);
    }

    private static Instant parseTime(String s, Instant dflt) {
        try {
            return s == null ? dflt : Instant.parse(s);
        } catch (RuntimeException e) {
            return dflt;
        }
    }

    private static boolean isEmpty(String s) {
        return s == null || s.isEmpty();
    }

    private void writeStatus(Pass p) {
        p.so = WorkingStatus.write(client, ResourceTypes.RAYJOBS, p.so, p.old, p.d, clock.now());
    }
}
