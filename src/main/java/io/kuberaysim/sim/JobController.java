package io.kuberaysim.sim;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.EventRecorder;
import io.kuberaysim.controller.runtime.OwnerReferences;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.reconcile.Request;
import io.kuberaysim.controller.runtime.reconcile.Result;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * The batch/v1 Job controller for non-indexed Jobs: keeps {@code min(parallelism, completions - succeeded)}
 * Pods running from the template, counts succeeded and failed Pods, and finishes the Job as Kubernetes 1.32
 * does: SuccessCriteriaMet then Complete (reason CompletionsReached) with completionTime, or FailureTarget
 * then Failed (reason BackoffLimitExceeded) once more Pods failed than {@code backoffLimit}, deleting the
 * Pods still active. {@code suspend: true} deletes active Pods and sets Suspended.
 */
final class JobController {
    private final KubeClient client;
    private final Clock clock;
    private final EventRecorder events;

    JobController(ControllerManager manager) {
        this.client = manager.client().as("kube-controller-manager");
        this.clock = manager.clock();
        this.events = manager.legacyEventRecorder("job-controller", "kube-controller-manager");
    }

    void register(ControllerManager manager) {
        manager.controller("job").forType(ResourceTypes.JOBS).owns(ResourceTypes.PODS).complete(this::reconcile);
    }

    private static String ts(Instant t) {
        return t.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    private static boolean hasCondition(JsonNode job, String type) {
        for (JsonNode c : job.path("status").path("conditions")) {
            if (type.equals(Json.text(c, "type")) && "True".equals(Json.text(c, "status"))) {
                return true;
            }
        }
        return false;
    }

    Result reconcile(Request request) {
        StoredObject job = client.get(ResourceTypes.JOBS, request.namespace(), request.name());
        if (job == null || job.isDeleting()) {
            return Result.done();
        }
        JsonNode obj = job.object();
        PodCounts counts = countPods(job);
        ObjectNode next = job.copy();
        ObjectNode status = Json.child(next, "status");
        ArrayNode conds = status.has("conditions") ? (ArrayNode) status.get("conditions") : status.putArray("conditions");
        if (!hasCondition(obj, "Complete") && !hasCondition(obj, "Failed")) {
            syncJob(job, counts, status, conds, clock.now());
        }
        writeCounts(status, counts);
        if (!next.equals(obj)) {
            client.updateStatus(ResourceTypes.JOBS, next);
        }
        return counts.createFailed ? Result.requeueWithBackoff() : Result.done();
    }

    /** The Job's Pods by state; succeeded and failed never fall below what the status already counted. */
    private static final class PodCounts {
        final List<StoredObject> active = new ArrayList<>();
        int succeeded;
        int failed;
        int ready;
        int terminating;
        boolean createFailed;
    }

    private PodCounts countPods(StoredObject job) {
        // The store is read directly (one namespace, label-indexed by job uid) so Pods this controller just
        // created are always counted; this stands in for client-go's expectations.
        List<StoredObject> pods = client.list(ResourceTypes.PODS, job.namespace(),
                "batch.kubernetes.io/controller-uid=" + job.uid());
        PodCounts counts = new PodCounts();
        for (StoredObject p : pods) {
            String phase = Json.text(p.object(), "status", "phase");
            if ("Succeeded".equals(phase)) {
                counts.succeeded++;
            } else if ("Failed".equals(phase)) {
                counts.failed++;
            } else if (p.isDeleting()) {
                counts.terminating++;
            } else {
                counts.active.add(p);
                JsonNode r = Scheduler.condition(p, "Ready");
                if (r != null && "True".equals(Json.text(r, "status"))) {
                    counts.ready++;
                }
            }
        }
        JsonNode status = job.object().path("status");
        counts.succeeded = Math.max(counts.succeeded, status.path("succeeded").asInt(0));
        counts.failed = Math.max(counts.failed, status.path("failed").asInt(0));
        return counts;
    }

    /** An unfinished Job: fail it past the backoff limit, complete it, suspend it, or run its Pods. */
    private void syncJob(StoredObject job, PodCounts counts, ObjectNode status, ArrayNode conds, Instant now) {
        JsonNode spec = job.object().path("spec");
        int completions = spec.path("completions").asInt(1);
        if (counts.failed > spec.path("backoffLimit").asInt(6)) {
            String msg = "Job has reached the specified backoff limit";
            addCondition(conds, "FailureTarget", "BackoffLimitExceeded", msg, now);
            addCondition(conds, "Failed", "BackoffLimitExceeded", msg, now);
            terminateActive(counts);
            events.event(job, EventRecorder.WARNING, "BackoffLimitExceeded", "Failed", msg);
        } else if (counts.succeeded >= completions) {
            String msg = "Reached expected number of succeeded pods";
            addCondition(conds, "SuccessCriteriaMet", "CompletionsReached", msg, now);
            addCondition(conds, "Complete", "CompletionsReached", msg, now);
            status.put("completionTime", ts(now));
            events.event(job, EventRecorder.NORMAL, "Completed", "Complete", "Job completed");
        } else if (spec.path("suspend").asBoolean(false)) {
            terminateActive(counts);
            if (!hasCondition(job.object(), "Suspended")) {
                removeCondition(conds, "Suspended");
                addCondition(conds, "Suspended", "JobSuspended", "Job suspended", now);
                events.event(job, EventRecorder.NORMAL, "Suspended", "Suspend", "Job suspended");
            }
        } else {
            runPods(job, counts, status, conds, now, Math.min(spec.path("parallelism").asInt(1),
                    completions - counts.succeeded));
        }
    }

    /** A running Job: resumed if it was suspended, started, and topped up to {@code want} active Pods. */
    private void runPods(StoredObject job, PodCounts counts, ObjectNode status, ArrayNode conds, Instant now, int want) {
        if (hasCondition(job.object(), "Suspended")) {
            removeCondition(conds, "Suspended");
            addCondition(conds, "Suspended", "JobResumed", "Job resumed", now);
            ((ObjectNode) conds.get(conds.size() - 1)).put("status", "False");
        }
        if (!status.has("startTime")) {
            status.put("startTime", ts(now));
        }
        for (int i = counts.active.size(); i < want; i++) {
            StoredObject created;
            try {
                created = client.create(ResourceTypes.PODS, job.namespace(), podFor(job));
            } catch (ApiException refused) {
                // e.g. its ServiceAccount does not exist: the Job controller reports it and tries again later
                events.event(job, EventRecorder.WARNING, "FailedCreate", "Create", "Error creating: "
                        + refused.getMessage());
                counts.createFailed = true;
                return;
            }
            counts.active.add(created);
            events.event(job, EventRecorder.NORMAL, "SuccessfulCreate", "Create", "Created pod: " + created.name());
        }
    }

    private void terminateActive(PodCounts counts) {
        deleteAll(counts.active);
        counts.terminating += counts.active.size();
        counts.active.clear();
    }

    private static void writeCounts(ObjectNode status, PodCounts counts) {
        status.put("active", counts.active.size());
        if (counts.succeeded > 0 || status.has("succeeded")) {
            status.put("succeeded", counts.succeeded);
        }
        if (counts.failed > 0 || status.has("failed")) {
            status.put("failed", counts.failed);
        }
        status.put("ready", counts.ready);
        status.put("terminating", counts.terminating);
        if (counts.active.isEmpty()) {
            status.remove("active");
        }
        status.putObject("uncountedTerminatedPods");
    }

    private void deleteAll(List<StoredObject> pods) {
        for (StoredObject p : pods) {
            client.delete(ResourceTypes.PODS, p.namespace(), p.name());
        }
    }

    private static void addCondition(ArrayNode conds, String type, String reason, String message, Instant now) {
        conds.addObject().put("type", type).put("status", "True").put("lastProbeTime", ts(now))
                .put("lastTransitionTime", ts(now)).put("reason", reason).put("message", message);
    }

    private static void removeCondition(ArrayNode conds, String type) {
        for (int i = conds.size() - 1; i >= 0; i--) {
            if (type.equals(Json.text(conds.get(i), "type"))) {
                conds.remove(i);
            }
        }
    }

    private static ObjectNode podFor(StoredObject job) {
        JsonNode template = job.object().path("spec").path("template");
        ObjectNode pod = Json.object();
        pod.put("apiVersion", "v1");
        pod.put("kind", "Pod");
        ObjectNode meta = pod.putObject("metadata");
        meta.put("generateName", job.name() + "-");
        JsonNode tm = template.path("metadata");
        if (tm.has("labels")) {
            meta.set("labels", tm.get("labels").deepCopy());
        }
        if (tm.has("annotations")) {
            meta.set("annotations", tm.get("annotations").deepCopy());
        }
        Json.child(meta, "labels").put("batch.kubernetes.io/controller-uid", job.uid())
                .put("batch.kubernetes.io/job-name", job.name()).put("controller-uid", job.uid())
                .put("job-name", job.name());
        meta.putArray("ownerReferences").add(OwnerReferences.controllerReference(job));
        pod.set("spec", template.path("spec").deepCopy());
        return pod;
    }
}
