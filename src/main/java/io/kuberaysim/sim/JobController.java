package io.kuberaysim.sim;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
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
        this.events = manager.legacyEventRecorder("job-controller");
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
        // The store is read directly (one namespace, label-indexed by job uid) so Pods this controller just
        // created are always counted; this stands in for client-go's expectations.
        List<StoredObject> pods = client.list(ResourceTypes.PODS, job.namespace(),
                "batch.kubernetes.io/controller-uid=" + job.uid());
        List<StoredObject> active = new ArrayList<>();
        int succeeded = 0;
        int failed = 0;
        int ready = 0;
        int terminating = 0;
        for (StoredObject p : pods) {
            String phase = Json.text(p.object(), "status", "phase");
            if ("Succeeded".equals(phase)) {
                succeeded++;
            } else if ("Failed".equals(phase)) {
                failed++;
            } else if (p.isDeleting()) {
                terminating++;
            } else {
                active.add(p);
                JsonNode r = Scheduler.condition(p, "Ready");
                if (r != null && "True".equals(Json.text(r, "status"))) {
                    ready++;
                }
            }
        }
        succeeded = Math.max(succeeded, obj.path("status").path("succeeded").asInt(0));
        failed = Math.max(failed, obj.path("status").path("failed").asInt(0));
        boolean finished = hasCondition(obj, "Complete") || hasCondition(obj, "Failed");
        Instant now = clock.now();
        ObjectNode next = job.copy();
        ObjectNode status = Json.child(next, "status");
        ArrayNode conds = status.has("conditions") ? (ArrayNode) status.get("conditions") : status.putArray("conditions");
        int completions = obj.path("spec").path("completions").asInt(1);
        int parallelism = obj.path("spec").path("parallelism").asInt(1);
        int backoffLimit = obj.path("spec").path("backoffLimit").asInt(6);
        boolean suspended = obj.path("spec").path("suspend").asBoolean(false);

        if (!finished) {
            if (failed > backoffLimit) {
                String msg = "Job has reached the specified backoff limit";
                addCondition(conds, "FailureTarget", "BackoffLimitExceeded", msg, now);
                addCondition(conds, "Failed", "BackoffLimitExceeded", msg, now);
                deleteAll(active);
                terminating += active.size();
                active.clear();
                events.event(job, EventRecorder.WARNING, "BackoffLimitExceeded", "Failed", msg);
            } else if (succeeded >= completions) {
                String msg = "Reached expected number of succeeded pods";
                addCondition(conds, "SuccessCriteriaMet", "CompletionsReached", msg, now);
                addCondition(conds, "Complete", "CompletionsReached", msg, now);
                status.put("completionTime", ts(now));
                events.event(job, EventRecorder.NORMAL, "Completed", "Complete", "Job completed");
            } else if (suspended) {
                deleteAll(active);
                terminating += active.size();
                active.clear();
                if (!hasCondition(obj, "Suspended")) {
                    removeCondition(conds, "Suspended");
                    addCondition(conds, "Suspended", "JobSuspended", "Job suspended", now);
                    events.event(job, EventRecorder.NORMAL, "Suspended", "Suspend", "Job suspended");
                }
            } else {
                if (hasCondition(obj, "Suspended")) {
                    removeCondition(conds, "Suspended");
                    addCondition(conds, "Suspended", "JobResumed", "Job resumed", now);
                    ((ObjectNode) conds.get(conds.size() - 1)).put("status", "False");
                }
                if (!status.has("startTime")) {
                    status.put("startTime", ts(now));
                }
                int want = Math.min(parallelism, completions - succeeded);
                for (int i = active.size(); i < want; i++) {
                    StoredObject created = client.create(ResourceTypes.PODS, job.namespace(), podFor(job));
                    active.add(created);
                    events.event(job, EventRecorder.NORMAL, "SuccessfulCreate", "Create",
                            "Created pod: " + created.name());
                }
            }
        }
        status.put("active", active.size());
        if (succeeded > 0 || status.has("succeeded")) {
            status.put("succeeded", succeeded);
        }
        if (failed > 0 || status.has("failed")) {
            status.put("failed", failed);
        }
        status.put("ready", ready);
        status.put("terminating", terminating);
        if (active.isEmpty()) {
            status.remove("active");
        }
        status.putObject("uncountedTerminatedPods");
        if (!next.equals(obj)) {
            client.updateStatus(ResourceTypes.JOBS, next);
        }
        return Result.done();
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
