package io.kuberaysim.sim.ray;

import io.kuberaysim.controller.ray.dashboard.ClusterKey;
import io.kuberaysim.controller.ray.dashboard.DashboardException;
import io.kuberaysim.controller.ray.dashboard.JobDetails;
import io.kuberaysim.controller.ray.dashboard.JobState;
import io.kuberaysim.controller.runtime.clock.Cancellable;
import io.kuberaysim.controller.runtime.clock.Clock;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The simulated Ray dashboard's job API ({@code /api/jobs/}): one job table per RayCluster, keyed by namespace and
 * cluster name, as the operator and {@code ray job submit} see it.
 *
 * <p>A submitted job is PENDING, turns RUNNING after {@value #START_SECONDS_ANNOTATION} (default 0 s) and ends after
 * {@value #DURATION_ANNOTATION} seconds of running (default 1 s) with {@value #RESULT_ANNOTATION} ({@code SUCCEEDED}
 * unless {@code FAILED}). Those keys are read from the submission metadata, where the operator and the simulated
 * submitter copy them from the RayJob's annotations. Transitions are timers on the {@link Clock}, so they are
 * deterministic on a virtual clock. A cluster's table vanishes when {@link #forgetCluster} is called (its RayCluster
 * was deleted). A cluster is reachable only while the reachability predicate says so (its head is up); calls to an
 * unreachable cluster throw {@link DashboardException} with {@link DashboardException.Kind#UNREACHABLE}.
 *
 * <p>Thread-safe. Listeners are called on the clock loop (timers) or on the caller's thread (submit/stop), outside
 * the table's lock.
 */
public final class RayDashboard {

    /** RayJob annotation (copied to the submission metadata): seconds the job runs once started; default 1. */
    public static final String DURATION_ANNOTATION = "sim.kuberay.io/job-duration-seconds";
    /** RayJob annotation (copied to the submission metadata): {@code SUCCEEDED} (default) or {@code FAILED}. */
    public static final String RESULT_ANNOTATION = "sim.kuberay.io/job-result";
    /** RayJob annotation (copied to the submission metadata): seconds the job stays PENDING; default 0. */
    public static final String START_SECONDS_ANNOTATION = "sim.kuberay.io/job-start-seconds";
    /** The simulation keys, in the order they are documented. */
    public static final List<String> SIMULATION_KEYS = List.of(DURATION_ANNOTATION, RESULT_ANNOTATION,
            START_SECONDS_ANNOTATION);

    /** Ray's message for a job waiting to start. */
    public static final String MSG_PENDING = "Job has not started yet. It may be waiting for resources (CPUs, GPUs, "
            + "memory, custom resources) to become available. It may be waiting for the runtime environment to be "
            + "set up.";
    /** Ray's message for a running job. */
    public static final String MSG_RUNNING = "Job is currently running.";
    /** Ray's message for a successful job. */
    public static final String MSG_SUCCEEDED = "Job finished successfully.";
    /** Ray's message for a failed entrypoint. */
    public static final String MSG_FAILED = "Job entrypoint command failed with exit code 1, last available logs "
            + "(truncated to 20,000 chars):\nsimulated failure (" + RESULT_ANNOTATION + "=FAILED)";
    /** Ray's message for a stopped job. */
    public static final String MSG_STOPPED = "Job was intentionally stopped.";

    /** Notified of every job state change (submission included). */
    @FunctionalInterface
    public interface JobListener {
        /** {@code job} in {@code cluster} is now in the given state. */
        void jobChanged(ClusterKey cluster, JobDetails job);
    }

    private final Clock clock;
    private final Predicate<ClusterKey> reachable;
    private final Map<ClusterKey, Map<String, SimJob>> tables = new HashMap<>();
    private final List<JobListener> listeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<ClusterKey>> clusterGoneListeners = new CopyOnWriteArrayList<>();

    /** A dashboard where every cluster is reachable (unit tests). */
    public RayDashboard(Clock clock) {
        this(clock, k -> true);
    }

    /** A dashboard whose clusters answer only while {@code reachable} holds (e.g. the RayCluster exists). */
    public RayDashboard(Clock clock, Predicate<ClusterKey> reachable) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.reachable = Objects.requireNonNull(reachable, "reachable");
    }

    /** Registers a listener for job state changes. */
    public void addListener(JobListener listener) {
        listeners.add(listener);
    }

    /** Registers a hook run when a cluster's state is dropped (for other per-cluster simulations, e.g. Serve). */
    public void onClusterForgotten(Consumer<ClusterKey> hook) {
        clusterGoneListeners.add(hook);
    }

    /** Whether the cluster's dashboard answers. */
    public boolean isReachable(ClusterKey cluster) {
        return reachable.test(cluster);
    }

    /**
     * {@code POST /api/jobs/}: submits a job. The simulation keys are read from {@code metadata}.
     *
     * @throws DashboardException ALREADY_EXISTS when the id is taken, UNREACHABLE when the cluster is down
     */
    public JobDetails submit(ClusterKey cluster, String jobId, String entrypoint, Map<String, String> metadata,
                             String runtimeEnvJson) {
        requireReachable(cluster);
        Objects.requireNonNull(jobId, "jobId");
        Map<String, String> meta = metadata == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
        SimJob job;
        synchronized (this) {
            Map<String, SimJob> table = tables.computeIfAbsent(cluster, k -> new LinkedHashMap<>());
            if (table.containsKey(jobId)) {
                throw new DashboardException(DashboardException.Kind.ALREADY_EXISTS,
                        "Job with submission_id " + jobId + " already exists. Please use a different submission_id.");
            }
            job = new SimJob(cluster, jobId, entrypoint, meta, runtimeEnvJson);
            table.put(jobId, job);
            Duration startDelay = seconds(meta.get(START_SECONDS_ANNOTATION), Duration.ZERO);
            if (startDelay.isZero()) {
                startRunning(job);
            } else {
                job.dueAt = clock.now().plus(startDelay);
                job.timer = clock.schedule(startDelay, () -> onTimer(job));
            }
        }
        JobDetails details = job.details();
        notifyListeners(cluster, details);
        return details;
    }

    /**
     * {@code GET /api/jobs/<id>}.
     *
     * @return the job, or empty when the cluster has no such job
     * @throws DashboardException UNREACHABLE when the cluster is down
     */
    public Optional<JobDetails> status(ClusterKey cluster, String jobId) {
        requireReachable(cluster);
        synchronized (this) {
            Map<String, SimJob> table = tables.get(cluster);
            SimJob job = table == null ? null : table.get(jobId);
            return job == null ? Optional.empty() : Optional.of(job.details());
        }
    }

    /** The jobs of a cluster in submission order (empty when unknown); does not check reachability. */
    public synchronized List<JobDetails> jobs(ClusterKey cluster) {
        Map<String, SimJob> table = tables.get(cluster);
        List<JobDetails> out = new ArrayList<>();
        if (table != null) {
            table.values().forEach(j -> out.add(j.details()));
        }
        return out;
    }

    /** How many jobs every dashboard holds in each state (every state present, zero included). */
    public synchronized Map<JobState, Integer> jobsByState() {
        Map<JobState, Integer> counts = new EnumMap<>(JobState.class);
        for (JobState state : JobState.values()) {
            counts.put(state, 0);
        }
        for (Map<String, SimJob> table : tables.values()) {
            for (SimJob job : table.values()) {
                counts.merge(job.state, 1, Integer::sum);
            }
        }
        return counts;
    }

    /**
     * {@code POST /api/jobs/<id>/stop}: a PENDING or RUNNING job becomes STOPPED.
     *
     * @return true when the job was stopped by this call, false when it had already ended
     * @throws DashboardException NOT_FOUND for an unknown id, UNREACHABLE when the cluster is down
     */
    public boolean stop(ClusterKey cluster, String jobId) {
        requireReachable(cluster);
        JobDetails details;
        synchronized (this) {
            Map<String, SimJob> table = tables.get(cluster);
            SimJob job = table == null ? null : table.get(jobId);
            if (job == null) {
                throw new DashboardException(DashboardException.Kind.NOT_FOUND, "Job " + jobId + " does not exist");
            }
            if (job.state.terminal()) {
                return false;
            }
            finish(job, JobState.STOPPED, MSG_STOPPED);
            details = job.details();
        }
        notifyListeners(cluster, details);
        return true;
    }

    /**
     * Fails a PENDING or RUNNING job now (its entrypoint exited 1), as a scenario's fault does.
     *
     * @return true when the job was failed by this call, false when it is unknown or had already ended
     */
    public boolean fail(ClusterKey cluster, String jobId) {
        return fail(cluster, jobId, MSG_FAILED);
    }

    /**
     * Fault injection: a PENDING or RUNNING job fails now with {@code message} (as if its entrypoint failed).
     *
     * @return false when there is no such job or it had already ended
     */
    public boolean fail(ClusterKey cluster, String jobId, String message) {
        JobDetails details;
        synchronized (this) {
            SimJob job = job(cluster, jobId);
            if (job == null || job.state.terminal()) {
                return false;
            }
            finish(job, JobState.FAILED, message);
            details = job.details();
        }
        notifyListeners(cluster, details);
        return true;
    }

    /**
     * Fault injection: a PENDING or RUNNING job's next step (start or end) comes {@code extra} later.
     *
     * @return false when there is no such job or it had already ended
     */
    public synchronized boolean delay(ClusterKey cluster, String jobId, Duration extra) {
        SimJob job = job(cluster, jobId);
        if (job == null || job.state.terminal() || job.timer == null) {
            return false;
        }
        job.timer.cancel();
        job.dueAt = job.dueAt.plus(extra);
        job.timer = clock.schedule(Duration.between(clock.now(), job.dueAt), () -> onTimer(job));
        return true;
    }

    // Caller holds the lock.
    private SimJob job(ClusterKey cluster, String jobId) {
        Map<String, SimJob> table = tables.get(cluster);
        return table == null ? null : table.get(jobId);
    }

    /** Drops a cluster's job table and cancels its timers: the RayCluster was deleted or its head Pod was lost. */
    public void forgetCluster(ClusterKey cluster) {
        synchronized (this) {
            Map<String, SimJob> table = tables.remove(cluster);
            if (table != null) {
                table.values().forEach(j -> {
                    if (j.timer != null) {
                        j.timer.cancel();
                    }
                });
            }
        }
        clusterGoneListeners.forEach(h -> h.accept(cluster));
    }

    /** The simulation keys among {@code annotations}, to be copied to a submission's metadata. */
    public static Map<String, String> simulationMetadata(Map<String, String> annotations) {
        Map<String, String> out = new LinkedHashMap<>();
        if (annotations != null) {
            for (String k : SIMULATION_KEYS) {
                if (annotations.containsKey(k)) {
                    out.put(k, annotations.get(k));
                }
            }
        }
        return out;
    }

    private void requireReachable(ClusterKey cluster) {
        if (!reachable.test(cluster)) {
            throw new DashboardException(DashboardException.Kind.UNREACHABLE,
                    "Failed to connect to Ray dashboard of " + cluster + ": connection refused");
        }
    }

    private void onTimer(SimJob job) {
        JobDetails details;
        synchronized (this) {
            Map<String, SimJob> table = tables.get(job.cluster);
            if (table == null || table.get(job.jobId) != job || job.state.terminal()) {
                return; // forgotten or stopped meanwhile
            }
            if (job.state == JobState.PENDING) {
                startRunning(job);
            } else {
                boolean failed = "FAILED".equalsIgnoreCase(job.metadata.get(RESULT_ANNOTATION));
                finish(job, failed ? JobState.FAILED : JobState.SUCCEEDED, failed ? MSG_FAILED : MSG_SUCCEEDED);
            }
            details = job.details();
        }
        notifyListeners(job.cluster, details);
    }

    // Caller holds the lock.
    private void startRunning(SimJob job) {
        job.state = JobState.RUNNING;
        job.message = MSG_RUNNING;
        job.startTime = clock.now().toEpochMilli();
        Duration d = seconds(job.metadata.get(DURATION_ANNOTATION), Duration.ofSeconds(1));
        job.dueAt = clock.now().plus(d);
        job.timer = clock.schedule(d, () -> onTimer(job));
    }

    // Caller holds the lock.
    private void finish(SimJob job, JobState state, String message) {
        if (job.timer != null) {
            job.timer.cancel();
            job.timer = null;
        }
        Instant now = clock.now();
        if (job.startTime == 0 && state != JobState.STOPPED) {
            job.startTime = now.toEpochMilli();
        }
        job.state = state;
        job.message = message;
        job.endTime = now.toEpochMilli();
    }

    private void notifyListeners(ClusterKey cluster, JobDetails details) {
        for (JobListener l : listeners) {
            l.jobChanged(cluster, details);
        }
    }

    /** Seconds as a (possibly fractional, non-negative) duration; a missing or malformed value gives the default. */
    static Duration seconds(String value, Duration dflt) {
        if (value == null || value.isBlank()) {
            return dflt;
        }
        try {
            double s = Double.parseDouble(value.trim());
            if (s < 0 || Double.isNaN(s) || Double.isInfinite(s)) {
                return dflt;
            }
            return Duration.ofMillis(Math.round(s * 1000));
        } catch (NumberFormatException e) {
            return dflt;
        }
    }

    private static final class SimJob {
        final ClusterKey cluster;
        final String jobId;
        final String entrypoint;
        final Map<String, String> metadata;
        final String runtimeEnv;
        JobState state = JobState.PENDING;
        String message = MSG_PENDING;
        long startTime;
        long endTime;
        Cancellable timer;
        Instant dueAt;

        SimJob(ClusterKey cluster, String jobId, String entrypoint, Map<String, String> metadata, String runtimeEnv) {
            this.cluster = cluster;
            this.jobId = jobId;
            this.entrypoint = entrypoint;
            this.metadata = metadata;
            this.runtimeEnv = runtimeEnv;
        }

        JobDetails details() {
            return new JobDetails(jobId, state, message, entrypoint, metadata, runtimeEnv, startTime, endTime);
        }
    }
}
