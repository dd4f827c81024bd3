package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ray.ClusterState;
import io.kuberaysim.api.ray.Condition;
import io.kuberaysim.api.ray.HeadInfo;
import io.kuberaysim.api.ray.RayClusterConditions;
import io.kuberaysim.api.ray.RayClusterSpec;
import io.kuberaysim.api.ray.RayClusterStatus;
import io.kuberaysim.api.ray.WorkerGroupSpec;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.ray.RayLabels;
import tools.jackson.databind.JsonNode;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * KubeRay's {@code calculateStatus} ({@code raycluster_controller.go}) and {@code InconsistentRayClusterStatus}
 * ({@code utils/consistency.go}): replica counts, desired resources, endpoints, head addresses, the sticky
 * {@code ready} state and the HeadPodReady / RayClusterProvisioned / ReplicaFailure / suspend conditions.
 */
public final class RayClusterStatusCalculator {
    private static final Pattern MIG = Pattern.compile("nvidia\\.com/mig-\\d+g\\.\\d+gb");

    private RayClusterStatusCalculator() {
    }

    /** Where KubeRay stands in its suspend state machine ({@code FindRayClusterSuspendStatus}). */
    public enum SuspendStatus { NONE, SUSPENDING, SUSPENDED }

    /** The suspend status recorded in the conditions. */
    public static SuspendStatus suspendStatus(RayClusterStatus status) {
        if (status == null) {
            return SuspendStatus.NONE;
        }
        Condition suspending = status.condition(RayClusterConditions.RAY_CLUSTER_SUSPENDING);
        Condition suspended = status.condition(RayClusterConditions.RAY_CLUSTER_SUSPENDED);
        if (suspending != null && suspending.isTrue()) {
            return SuspendStatus.SUSPENDING;
        }
        if (suspended != null && suspended.isTrue()) {
            return SuspendStatus.SUSPENDED;
        }
        return SuspendStatus.NONE;
    }

    /** {@code GetWorkerGroupDesiredReplicas}: replicas clamped to [min, max], times numOfHosts; 0 when suspended. */
    public static int desiredReplicas(WorkerGroupSpec g) {
        if (g.suspended()) {
            return 0;
        }
        int min = g.minReplicasOrDefault();
        int max = g.maxReplicasOrDefault();
        int r;
        if (min > max) {
            r = max;
        } else if (g.replicas() == null || g.replicas() < min) {
            r = min;
        } else {
            r = Math.min(g.replicas(), max);
        }
        return (int) Math.min(Integer.MAX_VALUE, (long) r * g.numOfHostsOrDefault());
    }

    /** Σ desiredReplicas over the groups. */
    public static int desiredWorkers(RayClusterSpec spec) {
        long sum = 0;
        for (WorkerGroupSpec g : spec.workerGroups()) {
            sum += desiredReplicas(g);
        }
        return (int) Math.min(Integer.MAX_VALUE, sum);
    }

    /** Phase Running and no PodReady condition other than True ({@code CheckAllPodsRunning} per Pod). */
    public static boolean runningAndNotUnready(JsonNode pod) {
        if (!"Running".equals(Json.text(pod, "status", "phase"))) {
            return false;
        }
        for (JsonNode c : pod.path("status").path("conditions")) {
            if ("Ready".equals(Json.text(c, "type")) && !"True".equals(Json.text(c, "status"))) {
                return false;
            }
        }
        return true;
    }

    /** {@code CheckAllPodsRunning}: at least one Pod, all running and not unready. */
    public static boolean allPodsRunning(List<StoredObject> pods) {
        return !pods.isEmpty() && pods.stream().allMatch(p -> runningAndNotUnready(p.object()));
    }

    private static boolean podReadyTrue(JsonNode pod) {
        for (JsonNode c : pod.path("status").path("conditions")) {
            if ("Ready".equals(Json.text(c, "type"))) {
                return "True".equals(Json.text(c, "status"));
            }
        }
        return false;
    }

    /**
     * The new status.
     *
     * @param cluster      the RayCluster as read at the start of the reconcile
     * @param spec         its spec
     * @param pods         every Pod labelled with the cluster, terminating ones included
     * @param headService  the head Service, or null
     * @param failure      the reconcile error, or null
     * @param now          the controller clock
     */
    public static RayClusterStatus calculate(StoredObject cluster, RayClusterSpec spec, List<StoredObject> pods,
            StoredObject headService, ReconcileFailure failure, Instant now) {
        return calculate(cluster, spec, DesiredResources.of(spec), pods, headService, failure, now);
    }

    /** The same, given the resources the spec asks for ({@link DesiredResources#of}, which depends on the spec only). */
    public static RayClusterStatus calculate(StoredObject cluster, RayClusterSpec spec, DesiredResources res,
            List<StoredObject> pods, StoredObject headService, ReconcileFailure failure, Instant now) {
        RayClusterStatus old = RayClusterViews.status(cluster);
        String state = old == null ? null : old.state();
        String reason = old == null ? null : old.reason();
        Map<String, Instant> transitions = old == null || old.stateTransitionTimes() == null
                ? new LinkedHashMap<>() : new LinkedHashMap<>(old.stateTransitionTimes());
        List<Condition> conditions = old == null ? new ArrayList<>() : new ArrayList<>(old.conditionList());

        int ready = 0;
        int available = 0;
        StoredObject headPod = null;
        for (StoredObject p : pods) {
            String type = p.labels().get(RayLabels.NODE_TYPE);
            if (RayLabels.NODE_TYPE_WORKER.equals(type)) {
                boolean running = "Running".equals(Json.text(p.object(), "status", "phase"));
                if (running) {
                    available++;
                    if (podReadyTrue(p.object())) {
                        ready++;
                    }
                }
            } else if (RayLabels.NODE_TYPE_HEAD.equals(type) && headPod == null) {
                headPod = p;
            }
        }
        int desired = desiredWorkers(spec);
        long min = 0;
        long max = 0;
        for (WorkerGroupSpec g : spec.workerGroups()) {
            if (!g.suspended()) {
                min += (long) g.minReplicasOrDefault() * g.numOfHostsOrDefault();
                max += (long) g.maxReplicasOrDefault() * g.numOfHostsOrDefault();
            }
        }

        if (failure == null && pods.size() == desired + 1 && allPodsRunning(pods)) {
            state = ClusterState.READY;
            reason = null; // KubeRay clears it to "", which omitempty leaves out of the JSON
        }
        if (spec.suspended() && pods.isEmpty()) {
            state = ClusterState.SUSPENDED;
        }
        if (!Objects.equals(state, old == null ? null : old.state()) && state != null) {
            transitions.put(state, now);
        }

        updateConditions(conditions, old, spec, pods, headPod, failure, now);

        Map<String, String> endpoints = endpoints(headService);
        HeadInfo head = headInfo(headPod, headService);
        long observed = cluster.generation();
        Long generation = observed == 0 ? null : observed; // observedGeneration is omitempty in KubeRay's type
        // the worker counts are int32 with omitempty in KubeRay's type: a zero is not written
        return new RayClusterStatus(state, reason, res.cpu(), res.memory(), res.gpu(), res.tpu(), nonZero(ready),
                nonZero(available), nonZero(desired), nonZero((int) Math.min(Integer.MAX_VALUE, min)),
                nonZero((int) Math.min(Integer.MAX_VALUE, max)),
                endpoints.isEmpty() ? null : endpoints, head, old == null ? null : old.lastUpdateTime(),
                transitions.isEmpty() ? null : transitions, generation, conditions.isEmpty() ? null : conditions);
    }

    private static Integer nonZero(int count) {
        return count == 0 ? null : count;
    }

    /** KubeRay's status conditions (the RayClusterStatusConditions gate, on by default). */
    private static void updateConditions(List<Condition> conditions, RayClusterStatus old, RayClusterSpec spec,
                                         List<StoredObject> pods, StoredObject headPod, ReconcileFailure failure,
                                         Instant now) {
        if (failure != null) {
            if (failure.marker() != null) {
                // errors.Join(marker, err).Error(): the marker, a newline, the error
                set(conditions, RayClusterConditions.REPLICA_FAILURE, Condition.Status.True, failure.marker(),
                        failure.marker() + "\n" + failure.getMessage(), now);
            }
        } else {
            conditions.removeIf(c -> RayClusterConditions.REPLICA_FAILURE.equals(c.type()));
        }
        if (headPod != null) {
            headPodReady(conditions, headPod.object(), now);
        } else {
            set(conditions, RayClusterConditions.HEAD_POD_READY, Condition.Status.False,
                    RayClusterConditions.HEAD_POD_NOT_FOUND, "Head Pod not found", now);
        }
        SuspendStatus suspend = suspendStatus(old);
        Condition provisioned = find(conditions, RayClusterConditions.RAY_CLUSTER_PROVISIONED);
        if ((provisioned == null || !provisioned.isTrue()) && suspend != SuspendStatus.SUSPENDED) {
            if (allPodsRunning(pods)) {
                set(conditions, RayClusterConditions.RAY_CLUSTER_PROVISIONED, Condition.Status.True,
                        RayClusterConditions.ALL_POD_RUNNING_AND_READY_FIRST_TIME,
                        "All Ray Pods are ready for the first time", now);
            } else {
                set(conditions, RayClusterConditions.RAY_CLUSTER_PROVISIONED, Condition.Status.False,
                        RayClusterConditions.RAY_CLUSTER_PODS_PROVISIONING,
                        "RayCluster Pods are being provisioned for first time", now);
            }
        }
        updateSuspendConditions(conditions, suspend, spec, pods, now);
    }

    /** RayClusterSuspending and RayClusterSuspended as a suspend request goes through. */
    private static void updateSuspendConditions(List<Condition> conditions, SuspendStatus suspend,
                                                RayClusterSpec spec, List<StoredObject> pods, Instant now) {
        switch (suspend) {
            case SUSPENDING -> {
                if (pods.isEmpty()) {
                    set(conditions, RayClusterConditions.RAY_CLUSTER_PROVISIONED, Condition.Status.False,
                            RayClusterConditions.RAY_CLUSTER_PODS_PROVISIONING, "RayCluster has been suspended", now);
                    set(conditions, RayClusterConditions.RAY_CLUSTER_SUSPENDING, Condition.Status.False,
                            RayClusterConditions.RAY_CLUSTER_SUSPENDING, "", now);
                    set(conditions, RayClusterConditions.RAY_CLUSTER_SUSPENDED, Condition.Status.True,
                            RayClusterConditions.RAY_CLUSTER_SUSPENDED, "", now);
                }
            }
            case SUSPENDED -> {
                if (!spec.suspended()) {
                    set(conditions, RayClusterConditions.RAY_CLUSTER_SUSPENDED, Condition.Status.False,
                            RayClusterConditions.RAY_CLUSTER_SUSPENDED, "", now);
                }
            }
            case NONE -> {
                // KubeRay's default branch writes both conditions on every pass, so a cluster that was never
                // suspended shows RayClusterSuspended=False and RayClusterSuspending=False
                set(conditions, RayClusterConditions.RAY_CLUSTER_SUSPENDED, Condition.Status.False,
                        RayClusterConditions.RAY_CLUSTER_SUSPENDED, "", now);
                set(conditions, RayClusterConditions.RAY_CLUSTER_SUSPENDING,
                        spec.suspended() ? Condition.Status.True : Condition.Status.False,
                        RayClusterConditions.RAY_CLUSTER_SUSPENDING, "", now);
            }
        }
    }

    /**
     * {@code InconsistentRayClusterStatus}: only state, reason, the replica counts, endpoints, head and conditions
     * count; desired resources, observedGeneration and lastUpdateTime ride along with other changes.
     */
    public static boolean inconsistent(RayClusterStatus a, RayClusterStatus b) {
        if (a == null || b == null) {
            return a != b;
        }
        return !Objects.equals(a.state(), b.state())
                || !Objects.equals(emptyToNull(a.reason()), emptyToNull(b.reason()))
                || !Objects.equals(a.readyWorkerReplicas(), b.readyWorkerReplicas())
                || !Objects.equals(a.availableWorkerReplicas(), b.availableWorkerReplicas())
                || !Objects.equals(a.desiredWorkerReplicas(), b.desiredWorkerReplicas())
                || !Objects.equals(a.minWorkerReplicas(), b.minWorkerReplicas())
                || !Objects.equals(a.maxWorkerReplicas(), b.maxWorkerReplicas())
                || !Objects.equals(a.endpoints(), b.endpoints())
                || !Objects.equals(a.head(), b.head())
                || !Objects.equals(a.conditions(), b.conditions());
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    private static Condition find(List<Condition> conditions, String type) {
        return conditions.stream().filter(c -> type.equals(c.type())).findFirst().orElse(null);
    }

    /** {@code meta.SetStatusCondition}: the transition time moves only when the status changes. */
    static void set(List<Condition> conditions, String type, Condition.Status status, String reason, String message,
            Instant now) {
        for (int i = 0; i < conditions.size(); i++) {
            Condition c = conditions.get(i);
            if (type.equals(c.type())) {
                Instant t = c.status() == status && c.lastTransitionTime() != null ? c.lastTransitionTime() : now;
                conditions.set(i, new Condition(type, status, c.observedGeneration(), t, reason, message));
                return;
            }
        }
        conditions.add(new Condition(type, status, null, now, reason, message));
    }

    /** {@code FindHeadPodReadyCondition}. */
    private static void headPodReady(List<Condition> conditions, JsonNode pod, Instant now) {
        Condition.Status status = Condition.Status.False;
        String reason = "Unknown";
        String message = "";
        for (JsonNode c : pod.path("status").path("conditions")) {
            if (!"Ready".equals(Json.text(c, "type"))) {
                continue;
            }
            String s = Json.text(c, "status");
            status = "True".equals(s) ? Condition.Status.True
                    : "False".equals(s) ? Condition.Status.False : Condition.Status.Unknown;
            message = Json.text(c, "message") == null ? "" : Json.text(c, "message");
            String r = Json.text(c, "reason");
            if (status == Condition.Status.True && (r == null || r.isEmpty())) {
                r = RayClusterConditions.HEAD_POD_RUNNING_AND_READY;
            }
            if (r != null && !r.isEmpty()) {
                reason = r;
            }
            break;
        }
        if ("ContainersNotReady".equals(reason)) {
            // firstNotReadyContainerStatus: the first container (in status order) that waits or terminated;
            // its name and message are appended to the Pod condition's message
            for (JsonNode cs : pod.path("status").path("containerStatuses")) {
                String state = cs.path("state").has("waiting") ? "waiting"
                        : cs.path("state").has("terminated") ? "terminated" : null;
                if (state != null) {
                    String detail = Json.text(cs, "name") + ": " + orEmpty(Json.text(cs, "state", state, "message"));
                    message = message.isEmpty() ? detail : message + "; " + detail;
                    reason = orEmpty(Json.text(cs, "state", state, "reason"));
                    break;
                }
            }
        }
        set(conditions, RayClusterConditions.HEAD_POD_READY, status, reason, message, now);
    }

    /** Port name to nodePort, else targetPort, of the head Service's named ports. */
    static Map<String, String> endpoints(StoredObject headService) {
        Map<String, String> m = new LinkedHashMap<>();
        if (headService == null) {
            return m;
        }
        for (JsonNode p : headService.object().path("spec").path("ports")) {
            String name = Json.text(p, "name");
            if (name == null || name.isEmpty()) {
                continue;
            }
            JsonNode nodePort = p.get("nodePort");
            JsonNode target = p.get("targetPort");
            if (nodePort != null && nodePort.asInt() != 0) {
                m.put(name, nodePort.asString());
            } else if (target != null && !target.isNull()) {
                m.put(name, target.asString());
            } else {
                m.put(name, p.path("port").asString());
            }
        }
        return m;
    }

    private static HeadInfo headInfo(StoredObject headPod, StoredObject headService) {
        String podIP = headPod == null ? null : emptyToNull(Json.text(headPod.object(), "status", "podIP"));
        String podName = headPod == null ? null : headPod.name();
        String serviceName = headService == null ? null : headService.name();
        String serviceIP = null;
        if (headService != null) {
            String ip = Json.text(headService.object(), "spec", "clusterIP");
            serviceIP = "None".equals(ip) ? podIP : emptyToNull(ip);
        }
        if (podIP == null && podName == null && serviceIP == null && serviceName == null) {
            return null;
        }
        return new HeadInfo(podIP, podName, serviceIP, serviceName);
    }

    /** {@code CalculateDesiredResources}: head template plus each non-suspended group times its raw replicas. */
    public record DesiredResources(io.fabric8.kubernetes.api.model.Quantity cpu,
                                   io.fabric8.kubernetes.api.model.Quantity memory,
                                   io.fabric8.kubernetes.api.model.Quantity gpu,
                                   io.fabric8.kubernetes.api.model.Quantity tpu) {

        public static DesiredResources of(RayClusterSpec spec) {
            ResourceQuantities.Sum cpu = new ResourceQuantities.Sum();
            ResourceQuantities.Sum mem = new ResourceQuantities.Sum();
            ResourceQuantities.Sum gpu = new ResourceQuantities.Sum();
            ResourceQuantities.Sum tpu = new ResourceQuantities.Sum();
            if (spec == null || spec.headGroupSpec() == null) {
                // no spec stored (the CRD does not require one): validation refuses the cluster; nothing is desired
                return new DesiredResources(cpu.quantity(), mem.quantity(), gpu.quantity(), tpu.quantity());
            }
            add(spec.headGroupSpec().template(), 1, cpu, mem, gpu, tpu);
            for (WorkerGroupSpec g : spec.workerGroups()) {
                if (!g.suspended()) {
                    // KubeRay multiplies by the raw replicas; its CRD has no minimum, so a negative count would show
                    // negative cpus ("-40m"): no group asks for less than nothing here
                    long replicas = Math.max(0, g.replicasOrZero());
                    add(g.template(), replicas * g.numOfHostsOrDefault(), cpu, mem, gpu, tpu);
                }
            }
            return new DesiredResources(cpu.quantity(), mem.quantity(), gpu.quantity(), tpu.quantity());
        }

        private static void add(JsonNode template, long times, ResourceQuantities.Sum cpu, ResourceQuantities.Sum mem,
                ResourceQuantities.Sum gpu, ResourceQuantities.Sum tpu) {
            // CalculatePodResource: per container, the request, else the limit; init containers are not counted
            Map<String, String> perContainer;
            for (JsonNode c : template.path("spec").path("containers")) {
                perContainer = new LinkedHashMap<>();
                JsonNode limits = c.path("resources").path("limits");
                JsonNode requests = c.path("resources").path("requests");
                for (var e : limits.properties()) {
                    perContainer.put(e.getKey(), e.getValue().asString());
                }
                for (var e : requests.properties()) {
                    perContainer.put(e.getKey(), e.getValue().asString());
                }
                for (var e : perContainer.entrySet()) {
                    String k = e.getKey();
                    if (k.equals("cpu")) {
                        cpu.add(e.getValue(), times);
                    } else if (k.equals("memory")) {
                        mem.add(e.getValue(), times);
                    } else if (k.equals("google.com/tpu")) {
                        tpu.add(e.getValue(), times);
                    } else if (k.endsWith("gpu") || MIG.matcher(k).matches()) {
                        gpu.add(e.getValue(), times);
                    }
                }
            }
        }
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }
}
