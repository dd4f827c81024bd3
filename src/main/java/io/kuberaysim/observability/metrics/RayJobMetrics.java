package io.kuberaysim.observability.metrics;

import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.api.ray.JobDeploymentStatus;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.cache.InformerHandler;
import io.kuberaysim.controller.runtime.cache.SharedInformer;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * KubeRay's RayJob metrics, with its names and labels. {@code kuberay_job_info} and
 * {@code kuberay_job_deployment_status} come from the informer cache at every scrape.
 * {@code kuberay_job_execution_duration_seconds} is set when a RayJob's {@code jobDeploymentStatus} moves from a
 * non-terminal state to Complete, Failed or Retrying — from {@code status.startTime} on the simulation clock
 * (virtual seconds on a virtual clock), with {@code retry_count} the failures before — and dropped when the RayJob
 * is deleted.
 */
public final class RayJobMetrics implements MultiCollector {
    /** Exposed as {@code kuberay_job_info}. */
    static final String INFO = "kuberay_job";
    static final String DEPLOYMENT_STATUS = "kuberay_job_deployment_status";
    static final String EXECUTION_DURATION = "kuberay_job_execution_duration_seconds";

    private final SharedInformer jobs;
    private final Clock clock;
    private final Map<String, Observation> durations = new ConcurrentHashMap<>();

    private record Observation(String name, String namespace, String uid, String status, int retryCount,
                               double seconds) {
    }

    public RayJobMetrics(ControllerManager manager) {
        this.jobs = manager.informer(ResourceTypes.RAYJOBS);
        this.clock = manager.clock();
        jobs.addHandler(new InformerHandler() {
            @Override
            public void onUpdate(StoredObject oldObj, StoredObject newObj) {
                String before = status(oldObj);
                String after = status(newObj);
                if (!JobDeploymentStatus.isTerminal(before) && (JobDeploymentStatus.isTerminal(after)
                        || JobDeploymentStatus.RETRYING.equals(after))) {
                    observeExecution(oldObj, newObj, after);
                }
            }

            @Override
            public void onDelete(StoredObject o) {
                durations.remove(RayClusterMetrics.key(o));
            }
        });
    }

    private static String status(StoredObject o) {
        return o.object().path("status").path("jobDeploymentStatus").asString("");
    }

    private void observeExecution(StoredObject oldObj, StoredObject newObj, String status) {
        String start = newObj.object().path("status").path("startTime").asString("");
        try {
            double seconds = Duration.between(Instant.parse(start), clock.now()).toMillis() / 1000.0;
            int retries = oldObj.object().path("status").path("failed").asInt(0);
            durations.put(RayClusterMetrics.key(newObj), new Observation(newObj.name(), newObj.namespace(),
                    newObj.uid(), status, retries, seconds));
        } catch (DateTimeParseException e) {
            // no start time, no duration
        }
    }

    @Override
    public MetricSnapshots collect() {
        InfoFamily info = new InfoFamily(INFO, "Metadata information about RayJob custom resources");
        GaugeFamily deployment = new GaugeFamily(DEPLOYMENT_STATUS, "The RayJob's current deployment status");
        for (StoredObject j : jobs.list(null, null)) {
            info.add("name", j.name(), "namespace", j.namespace(), "uid", j.uid());
            deployment.add(1, "name", j.name(), "namespace", j.namespace(), "uid", j.uid(),
                    "deployment_status", status(j));
        }
        GaugeFamily duration = new GaugeFamily(EXECUTION_DURATION, "Duration from when the RayJob CR's "
                + "JobDeploymentStatus transitions from Initializing to either the Retrying state or a terminal state, "
                + "such as Complete or Failed. The Retrying state indicates that the CR previously failed and that "
                + "spec.backoffLimit is enabled.");
        for (Observation d : durations.values()) {
            duration.add(d.seconds(), "name", d.name(), "namespace", d.namespace(), "uid", d.uid(),
                    "job_deployment_status", d.status(), "retry_count", Integer.toString(d.retryCount()));
        }
        return MetricSnapshots.of(info.build(), deployment.build(), duration.build());
    }

    @Override
    public List<String> getPrometheusNames() {
        return List.of(INFO, DEPLOYMENT_STATUS, EXECUTION_DURATION);
    }
}
