package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ray.AutoscalerOptions;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.api.ray.RayCluster;
import io.kuberaysim.api.ray.RayClusterConditions;
import io.kuberaysim.api.ray.RayClusterSpec;
import io.kuberaysim.api.ray.RayClusterStatus;
import io.kuberaysim.api.ray.RayClusterUpgradeStrategy;
import io.kuberaysim.api.ray.WorkerGroupSpec;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.ray.ClusterSpecHash;
import io.kuberaysim.controller.ray.KubeRayOperator;
import io.kuberaysim.controller.ray.RayLabels;
import io.kuberaysim.controller.ray.ValidationFailure;
import io.kuberaysim.controller.ray.WorkingStatus;
import io.kuberaysim.controller.runtime.Controller;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.EventRecorder;
import io.kuberaysim.controller.runtime.ObjectSkeleton;
import io.kuberaysim.controller.runtime.UpdatePredicate;
import io.kuberaysim.controller.runtime.cache.SharedInformer;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.reconcile.Reconciler;
import io.kuberaysim.controller.runtime.reconcile.Request;
import io.kuberaysim.controller.runtime.reconcile.Result;
import io.kuberaysim.logging.LogValues;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * The RayCluster controller, following KubeRay's {@code raycluster_controller.go}: validate, head Service,
 * serve Service, head Pod, worker Pods group by group, then the status, written only when it changed. Pods are
 * named deterministically ({@code <cluster>-head}, {@code <cluster>-worker-<group>-<index>} with the lowest free
 * index) and scaled in from the highest index, so names stay compact.
 */
public final class RayClusterReconciler implements Reconciler {
    /** Event source component. */
    public static final String COMPONENT = "raycluster-controller";
    /** {@code DefaultRequeueDuration}: after a change or an error. */
    public static final Duration SHORT_REQUEUE = Duration.ofSeconds(2);
    /** {@code RAYCLUSTER_DEFAULT_REQUEUE_SECONDS}. */
    public static final Duration DEFAULT_STEADY_REQUEUE = Duration.ofSeconds(300);

    private static final Logger log = LoggerFactory.getLogger(RayClusterReconciler.class);

    private final KubeClient client;
    private final SharedInformer clusters;
    private final SharedInformer pods;
    private final SharedInformer services;
    private final EventRecorder events;
    private final Clock clock;
    private final ScaleExpectations expectations;
    private final Duration steadyRequeue;
    private final long seed;
    private final RedisCleanup redisCleanup;
    /**
     * The typed spec per cluster with the spec tree it was read from: status writes share the spec subtree
     * with the previous stored version, so a reconcile after a status write reuses the spec it read before
     * instead of binding the tree again (identity, not equality, decides).
     */
    private final Map<String, SpecMemo> specs = new java.util.concurrent.ConcurrentHashMap<>();

    /** The typed spec of a stored spec tree, and the resources it asks for (status.desired*), both per spec. */
    private record SpecMemo(JsonNode tree, RayClusterSpec spec, RayClusterStatusCalculator.DesiredResources desired) {
    }

    public RayClusterReconciler(ControllerManager manager, Duration steadyRequeue) {
        this(manager, steadyRequeue, KubeRayOperator.Options.DEFAULTS.seed());
    }

    /** @param seed {@code kuberay-sim.seed}: the random auth tokens it creates are reproducible under it */
    public RayClusterReconciler(ControllerManager manager, Duration steadyRequeue, long seed) {
        this.client = manager.operatorClient();
        this.clusters = manager.informer(ResourceTypes.RAYCLUSTERS);
        this.pods = manager.informer(ResourceTypes.PODS);
        this.services = manager.informer(ResourceTypes.SERVICES);
        this.events = manager.eventRecorder(COMPONENT);
        this.clock = manager.clock();
        this.steadyRequeue = steadyRequeue;
        this.seed = seed;
        this.redisCleanup = new RedisCleanup(client, events);
        this.expectations = new ScaleExpectations(clock, (ns, name) -> pods.get(ns, name) != null);
    }

    /**
     * Registers the controller as KubeRay's {@code SetupWithManager} does: For RayCluster (generation, label or
     * annotation changes only, so status writes do not trigger it), Owns Pod and Service.
     */
    public static Controller register(ControllerManager manager, Duration steadyRequeue) {
        return register(manager, steadyRequeue, KubeRayOperator.Options.DEFAULTS.seed());
    }

    /** {@link #register(ControllerManager, Duration)} with the simulation's seed. */
    public static Controller register(ControllerManager manager, Duration steadyRequeue, long seed) {
        return manager.controller(COMPONENT)
                .forType(ResourceTypes.RAYCLUSTERS, UpdatePredicate.GENERATION_LABELS_OR_ANNOTATIONS_CHANGED)
                .owns(ResourceTypes.PODS)
                .owns(ResourceTypes.SERVICES)
                .owns(ResourceTypes.SECRETS)
                .complete(new RayClusterReconciler(manager, steadyRequeue, seed));
    }

    @Override
    public Result reconcile(Request request) {
        StoredObject cluster = clusters.get(request.namespace(), request.name());
        if (cluster == null) {
            expectations.forget(request.namespace(), request.name());
            specs.remove(request.namespace() + "/" + request.name());
            return Result.done();
        }
        String key = cluster.namespace() + "/" + cluster.name();
        SpecMemo memo = spec(key, cluster);
        RayClusterSpec spec = memo.spec();
        if (spec != null && spec.managedBy() != null && !spec.managedBy().isEmpty()
                && !RayLabels.MANAGED_BY_KUBERAY.equals(spec.managedBy())) {
            log.info("Skipping RayCluster {} managed by {}", key, LogValues.escape(spec.managedBy()));
            return Result.done();
        }
        RayClusterStatus oldStatus = RayClusterViews.status(cluster);
        ValidationFailure invalid = RayClusterValidation.validate(cluster.name(), spec, cluster.annotations(),
                oldStatus);
        if (invalid != null) {
            // KubeRay writes "invalid ns/name: err" for metadata and spec, "invalid ns/name, err" for status
            String sep = invalid.part() == ValidationFailure.Part.STATUS ? ", " : ": ";
            events.event(cluster, EventRecorder.WARNING, invalid.eventReason(RayCluster.KIND), "Validate",
                    "The RayCluster " + invalid.part().word() + " is invalid " + key + sep + invalid.message());
            return invalid.part() == ValidationFailure.Part.STATUS ? Result.requeueAfter(SHORT_REQUEUE) : Result.done();
        }
        warnAutoscalerV1RestartPolicy(cluster, spec, key);
        String upgradeError = upgradeOptionsError(cluster, spec);
        if (upgradeError != null) {
            events.event(cluster, EventRecorder.WARNING, "InvalidRayClusterSpec", "Validate",
                    "The RayCluster UpgradeStrategy is invalid " + key + ": " + upgradeError);
            return Result.done();
        }
        Optional<Result> cleanup;
        try {
            cleanup = redisCleanup.reconcile(cluster, spec);
        } catch (ReconcileFailure | ApiException e) {
            log.info("RayCluster {} Redis cleanup error: {}", key, LogValues.escape(e.getMessage()));
            return Result.requeueAfter(SHORT_REQUEUE);
        }
        if (cleanup.isPresent()) {
            return cleanup.get();
        }
        if (cluster.isDeleting()) {
            // the garbage collector removes the children through their ownerReferences
            return Result.done();
        }

        ReconcileFailure failure = null;
        try {
            reconcileAutoscalerServiceAccount(cluster, spec);
            reconcileAutoscalerRole(cluster, spec);
            reconcileAutoscalerRoleBinding(cluster, spec);
            reconcileAuthSecret(cluster, spec);
            reconcileHeadService(cluster, spec);
            reconcileServeService(cluster, spec);
            reconcilePods(cluster, spec, oldStatus);
        } catch (ReconcileFailure f) {
            failure = f;
        } catch (ApiException e) {
            failure = new ReconcileFailure(null, e.getMessage());
        }
        if (failure != null) {
            log.info("RayCluster {} reconcile error: {}", key, LogValues.escape(failure.getMessage()));
        }

        List<StoredObject> clusterPods = pods.list(cluster.namespace(), Map.of(RayLabels.CLUSTER, cluster.name()));
        StoredObject headSvc = services.get(cluster.namespace(), ClusterServices.headServiceName(cluster.name(), spec));
        RayClusterWorkingStatus newStatus = new RayClusterWorkingStatus(RayClusterStatusCalculator.calculate(cluster,
                spec, memo.desired(), clusterPods, headSvc, failure, clock.now()));
        boolean changed = newStatus.inconsistentWith(oldStatus);
        boolean updateFailed = false;
        if (changed) {
            updateFailed = !writeStatus(cluster, oldStatus, newStatus);
        }
        return failure != null || changed || updateFailed ? Result.requeueAfter(SHORT_REQUEUE)
                : Result.requeueAfter(steadyRequeue);
    }

    private SpecMemo spec(String key, StoredObject cluster) {
        JsonNode tree = cluster.object().get("spec");
        SpecMemo memo = specs.get(key);
        if (memo != null && memo.tree() == tree) {
            return memo;
        }
        RayClusterSpec spec = RayClusterViews.spec(cluster);
        memo = new SpecMemo(tree, spec, RayClusterStatusCalculator.DesiredResources.of(spec));
        specs.put(key, memo);
        return memo;
    }

    private static boolean isTrue(RayClusterStatus status, String type) {
        var c = status.condition(type);
        return c != null && c.isTrue();
    }

    private boolean writeStatus(StoredObject cluster, RayClusterStatus oldStatus, RayClusterWorkingStatus status) {
        try {
            WorkingStatus.write(client, ResourceTypes.RAYCLUSTERS, cluster, oldStatus, status, clock.now());
            return true;
        } catch (ApiException e) {
            log.info("Failed to update status of RayCluster {}/{}: {}", cluster.namespace(), cluster.name(),
                    LogValues.escape(e.getMessage()));
            return false;
        }
    }

    // ---- The autoscaler's ServiceAccount, Role and RoleBinding; the auth Secret ----

    private void reconcileAutoscalerServiceAccount(StoredObject cluster, RayClusterSpec spec) {
        if (!Boolean.TRUE.equals(spec.enableInTreeAutoscaling())) {
            return;
        }
        String name = AutoscalerRbac.serviceAccountName(cluster.name(), spec);
        if (client.get(ResourceTypes.SERVICEACCOUNTS, cluster.namespace(), name) != null) {
            return;
        }
        if (name.equals(Json.text(spec.headGroupSpec().template(), "spec", "serviceAccountName"))) {
            // a ServiceAccount the user named for the head Pod is the user's to create (kuberay#1123, #1128)
            String advice = "If users specify ServiceAccountName for the head Pod, they need to create a "
                    + "ServiceAccount themselves. However, ServiceAccount " + name + " is not found. Please create one. "
                    + "See the PR description of https://github.com/ray-project/kuberay/pull/1128 for more details.";
            events.event(cluster, EventRecorder.WARNING, "AutoscalerServiceAccountNotFound", "Validate",
                    "Failed to reconcile RayCluster " + cluster.namespace() + "/" + cluster.name() + ". " + advice);
            throw new ReconcileFailure(null, "serviceaccounts \"" + name + "\" not found");
        }
        createOwned(cluster, ResourceTypes.SERVICEACCOUNTS, AutoscalerRbac.serviceAccount(cluster, spec),
                "ServiceAccount", "service account");
    }

    private void reconcileAutoscalerRole(StoredObject cluster, RayClusterSpec spec) {
        if (Boolean.TRUE.equals(spec.enableInTreeAutoscaling())
                && client.get(ResourceTypes.ROLES, cluster.namespace(), cluster.name()) == null) {
            createOwned(cluster, ResourceTypes.ROLES, AutoscalerRbac.role(cluster), "Role", "role");
        }
    }

    private void reconcileAutoscalerRoleBinding(StoredObject cluster, RayClusterSpec spec) {
        if (Boolean.TRUE.equals(spec.enableInTreeAutoscaling())
                && client.get(ResourceTypes.ROLEBINDINGS, cluster.namespace(), cluster.name()) == null) {
            createOwned(cluster, ResourceTypes.ROLEBINDINGS, AutoscalerRbac.roleBinding(cluster, spec), "RoleBinding",
                    "role binding");
        }
    }

    /** {@code reconcileAuthSecret}: token auth without a Secret of the user's gets one with a random token. */
    private void reconcileAuthSecret(StoredObject cluster, RayClusterSpec spec) {
        if (!TokenAuth.createsSecret(spec.authOptions())
                || client.get(ResourceTypes.SECRETS, cluster.namespace(), RayLabels.checkName(cluster.name())) != null) {
            return;
        }
        Random random = new Random(seed * 1_000_003L + cluster.uid().hashCode());
        try {
            client.create(ResourceTypes.SECRETS, cluster.namespace(), TokenAuth.secret(cluster, random));
        } catch (ApiException e) {
            throw new ReconcileFailure(null, e.getMessage()); // KubeRay records no event for it
        }
    }

    /**
     * Creates an object the cluster owns, as the autoscaler RBAC reconcilers do: {@code Created<Kind>} on success,
     * AlreadyExists ignored, {@code FailedToCreate<Kind>} and a failed pass otherwise.
     */
    private void createOwned(StoredObject cluster, ResourceType type, ObjectNode object, String kind, String words) {
        String key = cluster.namespace() + "/" + object.path("metadata").path("name").asString();
        try {
            client.create(type, cluster.namespace(), object);
            events.event(cluster, EventRecorder.NORMAL, "Created" + kind, "Create", "Created " + words + " " + key);
        } catch (ApiException e) {
            if (e.code() == 409) {
                return;
            }
            events.event(cluster, EventRecorder.WARNING, "FailedToCreate" + kind, "Create",
                    "Failed creating " + words + " " + key + ", " + e.getMessage());
            throw new ReconcileFailure(null, e.getMessage());
        }
    }

    // ---- Services ----

    private void reconcileHeadService(StoredObject cluster, RayClusterSpec spec) {
        Map<String, String> match = new LinkedHashMap<>();
        match.put(RayLabels.CLUSTER, cluster.name());
        match.put(RayLabels.NODE_TYPE, RayLabels.NODE_TYPE_HEAD);
        match.put(RayLabels.IDENTIFIER, cluster.name() + "-" + RayLabels.NODE_TYPE_HEAD);
        List<StoredObject> existing = services.list(cluster.namespace(), match);
        if (existing.size() == 1) {
            return; // KubeRay never updates an existing head Service
        }
        if (existing.size() > 1) {
            throw new ReconcileFailure(null, "found " + existing.size() + " head services for the RayCluster "
                    + cluster.namespace() + "/" + cluster.name());
        }
        createService(cluster, ClusterServices.headService(cluster, spec));
    }

    private void reconcileServeService(StoredObject cluster, RayClusterSpec spec) {
        if (!"true".equals(cluster.annotations().get(RayLabels.ENABLE_SERVE_SERVICE))) {
            return;
        }
        if (services.get(cluster.namespace(), RayLabels.serveServiceName(cluster.name())) != null) {
            return;
        }
        ObjectNode svc = ClusterServices.serveService(cluster, spec);
        if (svc == null) {
            throw new ReconcileFailure(null, "Please specify a port named 'serve' (or with the prefix 'serve-', "
                    + "e.g. 'serve-grpc') in the Ray head container; otherwise, the Kubernetes service for Ray Serve "
                    + "will not be created.");
        }
        // reconcileServeService creates it directly: no event, unlike the head Service
        try {
            client.createBuilt(ResourceTypes.SERVICES, cluster.namespace(), svc);
        } catch (ApiException e) {
            if (e.code() != 409) {
                throw new ReconcileFailure(null, e.getMessage());
            }
        }
    }

    private void createService(StoredObject cluster, ObjectNode svc) {
        String name = svc.path("metadata").path("name").asString();
        String key = cluster.namespace() + "/" + name;
        try {
            client.createBuilt(ResourceTypes.SERVICES, cluster.namespace(), svc);
            events.event(cluster, EventRecorder.NORMAL, "CreatedService", "Create", "Created service " + key);
        } catch (ApiException e) {
            if (e.code() == 409) {
                return; // a stale cache; KubeRay ignores AlreadyExists for Services
            }
            events.event(cluster, EventRecorder.WARNING, "FailedToCreateService", "Create",
                    "Failed creating service " + key + ", " + e.getMessage());
            throw new ReconcileFailure(null, e.getMessage());
        }
    }

    /** {@code Reconcile}'s non-fatal check: worker restartPolicy other than Never with autoscaler v1. */
    private void warnAutoscalerV1RestartPolicy(StoredObject cluster, RayClusterSpec spec, String key) {
        if (!Boolean.TRUE.equals(spec.enableInTreeAutoscaling()) || spec.autoscalerOptions() == null
                || spec.autoscalerOptions().version() != AutoscalerOptions.Version.v1) {
            return;
        }
        List<String> groups = new java.util.ArrayList<>();
        for (var g : spec.workerGroups()) {
            String policy = Json.text(g.template(), "spec", "restartPolicy");
            if (policy != null && !policy.isEmpty() && !policy.equals("Never")) {
                groups.add(g.groupName());
            }
        }
        if (!groups.isEmpty()) {
            events.event(cluster, EventRecorder.WARNING, "InvalidRayClusterSpec", "Validate",
                    "RayCluster spec warning " + key + ": restartPolicy for worker groups [" + String.join(", ", groups)
                            + "] should be Never or unset when using autoscaler V1");
        }
    }

    // ---- Pods ----

    private void reconcilePods(StoredObject cluster, RayClusterSpec spec, RayClusterStatus status) {
        String ns = cluster.namespace();
        String name = cluster.name();
        String key = ns + "/" + name;
        RayClusterStatusCalculator.SuspendStatus suspend = RayClusterStatusCalculator.suspendStatus(status);
        if (suspend == RayClusterStatusCalculator.SuspendStatus.SUSPENDING) {
            List<StoredObject> all = pods.list(ns, Map.of(RayLabels.CLUSTER, name));
            try {
                for (StoredObject p : all) {
                    if (!p.isDeleting()) {
                        client.delete(ResourceTypes.PODS, ns, p.name());
                    }
                }
            } catch (ApiException e) {
                events.event(cluster, EventRecorder.WARNING, "FailedToDeletePodCollection", "Delete",
                        "Failed deleting Pods due to suspension for RayCluster " + key + ", " + e.getMessage());
                throw new ReconcileFailure(RayClusterConditions.FAILED_DELETE_ALL_PODS, e.getMessage());
            }
            if (all.stream().anyMatch(p -> !p.isDeleting())) {
                expectations.forget(ns, name);
            }
            // reconcilePods records DeletedPod on every Suspending pass (DeleteAllOf succeeds with nothing left)
            events.event(cluster, EventRecorder.NORMAL, "DeletedPod", "Delete",
                    "Deleted Pods for RayCluster " + key + " due to suspension");
            return;
        }
        if (suspend == RayClusterStatusCalculator.SuspendStatus.SUSPENDED || spec.suspended()) {
            return;
        }
        if (shouldRecreatePodsForUpgrade(cluster, spec)) {
            recreateAllPods(cluster);
            return;
        }

        // head
        if (expectations.isSatisfied(ns, name, ScaleExpectations.HEAD_GROUP)) {
            List<StoredObject> heads = pods.list(ns, Map.of(RayLabels.CLUSTER, name,
                    RayLabels.NODE_TYPE, RayLabels.NODE_TYPE_HEAD));
            if (heads.size() == 1) {
                StoredObject head = heads.get(0);
                Optional<String> why = shouldDeletePod(head, "head");
                if (why.isPresent()) {
                    deletePod(cluster, head, ScaleExpectations.HEAD_GROUP, "DeletedHeadPod", "FailedToDeleteHeadPod",
                            "Deleted head Pod " + ns + "/" + head.name() + "; " + podSummary(head),
                            RayClusterConditions.FAILED_DELETE_HEAD_POD);
                    throw new ReconcileFailure(null, why.get());
                }
            } else if (heads.isEmpty()) {
                boolean provisioned = status != null && isTrue(status, RayClusterConditions.RAY_CLUSTER_PROVISIONED);
                if (provisioned && "true".equals(cluster.annotations()
                        .get(RayLabels.DISABLE_PROVISIONED_HEAD_RESTART))) {
                    log.info("Head Pod of {} is gone and will not be recreated", key);
                } else {
                    createHeadPod(cluster, spec);
                }
            } else {
                List<String> names = heads.stream().map(StoredObject::name).toList();
                throw new ReconcileFailure(null, heads.size() + " head pods found " + names
                        + ". Please delete extra head pods");
            }
        }

        // workers, in spec order
        boolean autoscaling = Boolean.TRUE.equals(spec.enableInTreeAutoscaling());
        for (WorkerGroupSpec group : spec.workerGroups()) {
            if (!expectations.isSatisfied(ns, name, group.groupName())) {
                continue;
            }
            reconcileWorkerGroup(cluster, spec, group, autoscaling);
        }
    }

    private void reconcileWorkerGroup(StoredObject cluster, RayClusterSpec spec, WorkerGroupSpec group,
            boolean autoscaling) {
        String ns = cluster.namespace();
        String name = cluster.name();
        String g = group.groupName();
        int expected = RayClusterStatusCalculator.desiredReplicas(group);
        // terminating Pods are listed too, as in KubeRay
        List<StoredObject> groupPods = new ArrayList<>(pods.list(ns, Map.of(RayLabels.CLUSTER, name,
                RayLabels.GROUP, g, RayLabels.NODE_TYPE, RayLabels.NODE_TYPE_WORKER)));

        if (group.suspended()) {
            boolean any = false;
            for (StoredObject p : groupPods) {
                if (!p.isDeleting()) {
                    client.delete(ResourceTypes.PODS, ns, p.name());
                    expectations.expectDelete(ns, name, g, p.name());
                    any = true;
                }
            }
            if (any) {
                events.event(cluster, EventRecorder.NORMAL, "DeletedWorkerPod", "Delete",
                        "Deleted all pods for suspended worker group " + g + " in RayCluster " + ns + "/" + name);
            }
            return;
        }

        // unhealthy Pods first; if any were deleted, nothing is created in this pass
        int deletedUnhealthy = 0;
        for (StoredObject p : groupPods) {
            if (p.isDeleting()) {
                continue;
            }
            if (shouldDeletePod(p, "worker").isPresent()) {
                deletePod(cluster, p, g, "DeletedWorkerPod", "FailedToDeleteWorkerPod",
                        "Deleted worker Pod " + ns + "/" + p.name() + "; " + podSummary(p),
                        RayClusterConditions.FAILED_DELETE_WORKER_POD);
                deletedUnhealthy++;
            }
        }
        if (deletedUnhealthy > 0) {
            throw new ReconcileFailure(null, "delete " + deletedUnhealthy + " unhealthy worker Pods");
        }

        // workersToDelete, whatever replicas says (the autoscaler clears the field, never the operator)
        List<String> toDelete = group.scaleStrategy() == null || group.scaleStrategy().workersToDelete() == null
                ? List.of() : group.scaleStrategy().workersToDelete();
        Set<String> deleted = new HashSet<>();
        for (String podName : toDelete) {
            StoredObject p = groupPods.stream().filter(x -> x.name().equals(podName)).findFirst().orElse(null);
            if (p == null || p.isDeleting()) {
                continue;
            }
            deletePod(cluster, p, g, "DeletedWorkerPod", "FailedToDeleteWorkerPod",
                    "Deleted pod " + ns + "/" + p.name(), RayClusterConditions.FAILED_DELETE_WORKER_POD);
            deleted.add(podName);
        }

        int diff = expected - (groupPods.size() - deleted.size());
        if (diff > 0) {
            createWorkerPods(cluster, spec, group, groupPods, toDelete, diff);
        } else if (diff < 0 && !autoscaling) {
            deleteSurplusWorkerPods(cluster, group, groupPods, deleted, -diff);
        }
    }

    /** Scale-up: {@code count} new worker Pods at the lowest free indices. */
    private void createWorkerPods(StoredObject cluster, RayClusterSpec spec, WorkerGroupSpec group,
                                  List<StoredObject> groupPods, List<String> toDelete, int count) {
        String name = cluster.name();
        String g = group.groupName();
        Set<Integer> taken = new HashSet<>();
        for (StoredObject p : groupPods) {
            Integer i = RayLabels.workerIndex(name, g, p.name());
            if (i != null) {
                taken.add(i);
            }
        }
        // never recreate a name the autoscaler asked to remove: with deterministic names that would loop
        for (String n : toDelete) {
            Integer i = RayLabels.workerIndex(name, g, n);
            if (i != null) {
                taken.add(i);
            }
        }
        int next = 0;
        for (int k = 0; k < count; k++) {
            while (taken.contains(next)) {
                next++;
            }
            taken.add(next);
            createWorkerPod(cluster, spec, group, next);
        }
    }

    /**
     * Scale-down without autoscaling: KubeRay deletes the first Pods of its list; the simulation removes the highest
     * indices so names stay compact (0..n-1).
     */
    private void deleteSurplusWorkerPods(StoredObject cluster, WorkerGroupSpec group, List<StoredObject> groupPods,
                                         Set<String> deleted, int count) {
        String ns = cluster.namespace();
        String name = cluster.name();
        String g = group.groupName();
        List<StoredObject> candidates = groupPods.stream()
                .filter(p -> !p.isDeleting() && !deleted.contains(p.name()))
                .sorted(Comparator.comparing((StoredObject p) -> {
                    Integer i = RayLabels.workerIndex(name, g, p.name());
                    return i == null ? Integer.MAX_VALUE : i;
                }).reversed())
                .toList();
        int n = Math.min(count, candidates.size());
        for (int k = 0; k < n; k++) {
            StoredObject p = candidates.get(k);
            deletePod(cluster, p, g, "DeletedWorkerPod", "FailedToDeleteWorkerPod",
                    "Deleted Pod " + ns + "/" + p.name(), RayClusterConditions.FAILED_DELETE_WORKER_POD);
        }
    }

    /**
     * KubeRay's {@code ValidateRayClusterUpgradeOptions} beyond the type (the schema's enum checks that): a cluster a
     * RayJob or RayService made may not set an upgrade strategy. Null when valid.
     */
    private static String upgradeOptionsError(StoredObject cluster, RayClusterSpec spec) {
        if (spec.upgradeStrategy() == null || spec.upgradeStrategy().type() == null) {
            return null;
        }
        String creator = cluster.labels().get(RayLabels.ORIGINATED_FROM_CRD);
        if ("RayJob".equals(creator) || "RayService".equals(creator)) {
            return "upgradeStrategy cannot be set when RayCluster is created by " + creator;
        }
        return null;
    }

    /**
     * KubeRay's {@code shouldRecreatePodsForUpgrade}: with {@code upgradeStrategy.type: Recreate}, a head Pod made
     * from another spec (its hash annotation differs) means every Pod goes. A head made by another operator version
     * only has both annotations brought up to date.
     */
    private boolean shouldRecreatePodsForUpgrade(StoredObject cluster, RayClusterSpec spec) {
        if (spec.upgradeStrategy() == null
                || spec.upgradeStrategy().type() != RayClusterUpgradeStrategy.Type.Recreate) {
            return false;
        }
        String expected = ClusterSpecHash.forRecreate(cluster.object().get("spec"));
        List<StoredObject> heads = pods.list(cluster.namespace(), Map.of(RayLabels.CLUSTER, cluster.name(),
                RayLabels.NODE_TYPE, RayLabels.NODE_TYPE_HEAD));
        if (heads.isEmpty()) {
            return false;
        }
        StoredObject head = heads.get(0);
        String version = head.annotations().get(RayLabels.KUBERAY_VERSION);
        if (version != null && !version.isEmpty() && !version.equals(RayLabels.OPERATOR_VERSION)) {
            ObjectNode copy = head.copy();
            ObjectNode annotations = Json.child(Json.child(copy, "metadata"), "annotations");
            annotations.put(RayLabels.UPGRADE_STRATEGY_RECREATE_HASH, expected);
            annotations.put(RayLabels.KUBERAY_VERSION, RayLabels.OPERATOR_VERSION);
            try {
                client.update(ResourceTypes.PODS, copy);
            } catch (ApiException e) {
                log.info("Failed to update head pod annotations of {}: {}", head.name(), LogValues.escape(e.getMessage()));
            }
            return false;
        }
        String actual = head.annotations().get(RayLabels.UPGRADE_STRATEGY_RECREATE_HASH);
        return actual != null && !actual.isEmpty() && !actual.equals(expected);
    }

    /** The Recreate upgrade: every Pod of the cluster deleted; the next pass creates them from the new spec. */
    private void recreateAllPods(StoredObject cluster) {
        String key = cluster.namespace() + "/" + cluster.name();
        try {
            for (StoredObject p : pods.list(cluster.namespace(), Map.of(RayLabels.CLUSTER, cluster.name()))) {
                if (!p.isDeleting()) {
                    client.delete(ResourceTypes.PODS, cluster.namespace(), p.name());
                }
            }
        } catch (ApiException e) {
            events.event(cluster, EventRecorder.WARNING, "FailedToDeletePodCollection", "Delete",
                    "Failed deleting Pods due to spec change with Recreate upgradeStrategy for RayCluster " + key
                            + ", " + e.getMessage());
            throw new ReconcileFailure(RayClusterConditions.FAILED_DELETE_ALL_PODS, e.getMessage());
        }
        expectations.forget(cluster.namespace(), cluster.name());
        events.event(cluster, EventRecorder.NORMAL, "DeletedPod", "Delete",
                "Deleted all Pods for RayCluster " + key + " due to spec change with Recreate upgradeStrategy");
    }

    private void createHeadPod(StoredObject cluster, RayClusterSpec spec) {
        String key = cluster.namespace() + "/" + cluster.name();
        ObjectNode head = RayPodFactory.headPod(cluster, spec);
        // createHeadPod: the spec hash and operator version the Recreate upgrade strategy compares against
        ObjectNode annotations = Json.child(ObjectSkeleton.metadata(head), "annotations");
        annotations.put(RayLabels.UPGRADE_STRATEGY_RECREATE_HASH, ClusterSpecHash.forRecreate(cluster.object().get("spec")));
        annotations.put(RayLabels.KUBERAY_VERSION, RayLabels.OPERATOR_VERSION);
        createPod(cluster, head, ScaleExpectations.HEAD_GROUP, "CreatedHeadPod",
                "Created head Pod ", "FailedToCreateHeadPod", "Failed to create head Pod " + key + ", ",
                RayClusterConditions.FAILED_CREATE_HEAD_POD);
    }

    private void createWorkerPod(StoredObject cluster, RayClusterSpec spec, WorkerGroupSpec group, int index) {
        String key = cluster.namespace() + "/" + cluster.name();
        createPod(cluster, RayPodFactory.workerPod(cluster, spec, group, index), group.groupName(), "CreatedWorkerPod",
                "Created worker Pod ", "FailedToCreateWorkerPod", "Failed to create worker Pod for the cluster " + key
                        + ", ", RayClusterConditions.FAILED_CREATE_WORKER_POD);
    }

    /**
     * KubeRay's createHeadPod / createWorkerPod: create, expect, and record {@code created + ns/pod} (Normal) or
     * {@code failedPrefix + err} (Warning, then the ReplicaFailure {@code marker}).
     */
    private void createPod(StoredObject cluster, ObjectNode pod, String group, String createdReason, String created,
            String failedReason, String failedPrefix, String marker) {
        String podName = pod.path("metadata").path("name").asString();
        try {
            client.createBuilt(ResourceTypes.PODS, cluster.namespace(), pod);
        } catch (ApiException e) {
            events.event(cluster, EventRecorder.WARNING, failedReason, "Create", failedPrefix + e.getMessage());
            throw new ReconcileFailure(marker, e.getMessage());
        }
        expectations.expectCreate(cluster.namespace(), cluster.name(), group, podName);
        events.event(cluster, EventRecorder.NORMAL, createdReason, "Create",
                created + cluster.namespace() + "/" + podName);
    }

    private void deletePod(StoredObject cluster, StoredObject pod, String group, String reason, String failReason,
            String message, String marker) {
        try {
            client.delete(ResourceTypes.PODS, pod.namespace(), pod.name());
        } catch (ApiException e) {
            events.event(cluster, EventRecorder.WARNING, failReason, "Delete",
                    "Failed deleting Pod " + pod.namespace() + "/" + pod.name() + ", " + e.getMessage());
            throw new ReconcileFailure(marker, e.getMessage());
        }
        expectations.expectDelete(cluster.namespace(), cluster.name(), group, pod.name());
        events.event(cluster, EventRecorder.NORMAL, reason, "Delete", message);
    }

    /** {@code shouldDeletePod}: the reason to delete, or empty to keep the Pod. */
    static Optional<String> shouldDeletePod(StoredObject pod, String nodeType) {
        String phase = Json.text(pod.object(), "status", "phase");
        if ("Failed".equals(phase) || "Succeeded".equals(phase)) {
            return Optional.of("The " + nodeType + " Pod " + pod.name() + " status is " + phase
                    + " which is a terminal state. KubeRay will delete the Pod and create new Pods in the next "
                    + "reconciliation if necessary.");
        }
        JsonNode terminated = rayContainerTerminated(pod);
        if (terminated != null) {
            String policy = restartPolicy(pod);
            if ("Always".equals(policy) || "OnFailure".equals(policy)) {
                return Optional.empty(); // the kubelet restarts the container
            }
            return Optional.of("The " + nodeType + " Pod " + pod.name() + " status is " + phase
                    + ", and the Ray container terminated status is " + terminatedText(terminated)
                    + ". The Pod will be deleted and KubeRay will create new Pods in the next reconciliation.");
        }
        return Optional.empty();
    }

    private static String restartPolicy(StoredObject pod) {
        String p = Json.text(pod.object(), "spec", "restartPolicy");
        return p == null ? "Always" : p;
    }

    private static JsonNode rayContainerTerminated(StoredObject pod) {
        JsonNode containers = pod.object().path("spec").path("containers");
        String rayName = containers.isEmpty() ? null : Json.text(containers.get(0), "name");
        for (JsonNode cs : pod.object().path("status").path("containerStatuses")) {
            if (rayName != null && rayName.equals(Json.text(cs, "name"))) {
                return Json.at(cs, "state", "terminated");
            }
        }
        return null;
    }

    private static String terminatedText(JsonNode t) {
        if (t == null) {
            return "<nil>";
        }
        return "&{ExitCode:" + t.path("exitCode").asInt() + " Signal:" + t.path("signal").asInt()
                + " Reason:" + (Json.text(t, "reason") == null ? "" : Json.text(t, "reason"))
                + " Message:" + (Json.text(t, "message") == null ? "" : Json.text(t, "message")) + "}";
    }

    private static String podSummary(StoredObject pod) {
        return "Pod status: " + Json.text(pod.object(), "status", "phase") + "; Pod restart policy: "
                + restartPolicy(pod) + "; Ray container terminated status: "
                + terminatedText(rayContainerTerminated(pod));
    }
}
