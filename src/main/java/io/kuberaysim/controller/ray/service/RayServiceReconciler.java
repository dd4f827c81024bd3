package io.kuberaysim.controller.ray.service;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.api.ray.AppStatus;
import io.kuberaysim.api.ray.Condition;
import io.kuberaysim.api.ray.RayClusterConditions;
import io.kuberaysim.api.ray.RayClusterStatus;
import io.kuberaysim.api.ray.RayService;
import io.kuberaysim.api.ray.RayServiceConditions;
import io.kuberaysim.api.ray.RayServiceStatus;
import io.kuberaysim.api.ray.ServeDeploymentStatus;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.apiserver.validation.NameValidation;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.ray.ClusterSpecHash;
import io.kuberaysim.controller.ray.GoDuration;
import io.kuberaysim.controller.ray.cluster.RayClusterValidation;
import io.kuberaysim.controller.ray.RayLabels;
import io.kuberaysim.controller.ray.Step;
import io.kuberaysim.controller.ray.ValidationFailure;
import io.kuberaysim.controller.ray.WorkingStatus;
import io.kuberaysim.controller.ray.dashboard.ClusterKey;
import io.kuberaysim.controller.ray.dashboard.DashboardException;
import io.kuberaysim.controller.ray.dashboard.RayDashboardClient;
import io.kuberaysim.controller.ray.dashboard.ServeApplication;
import io.kuberaysim.controller.runtime.Controller;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.EventRecorder;
import io.kuberaysim.controller.runtime.Finalizers;
import io.kuberaysim.controller.runtime.ObjectSkeleton;
import io.kuberaysim.controller.runtime.OwnerReferences;
import io.kuberaysim.controller.runtime.PodConditions;
import io.kuberaysim.controller.runtime.UpdatePredicate;
import io.kuberaysim.controller.runtime.cache.SharedInformer;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.reconcile.ConflictRetry;
import io.kuberaysim.controller.runtime.reconcile.ReconcileError;
import io.kuberaysim.controller.runtime.reconcile.Reconciler;
import io.kuberaysim.controller.runtime.reconcile.Request;
import io.kuberaysim.controller.runtime.reconcile.Result;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The KubeRay RayService controller ({@code rayservice_controller.go}): brings up a RayCluster for the service,
 * deploys the Serve applications to it through the simulated dashboard, points {@code <svc>-head-svc} and
 * {@code <svc>-serve-svc} at it once every application is RUNNING, and rolls a changed {@code rayClusterConfig}
 * out blue/green: a pending cluster is prepared beside the active one, the Services switch to it in one pass once its
 * applications run, and the old cluster is deleted after {@code rayClusterDeletionDelaySeconds}.
 *
 * <p>Every pass ends with a requeue after 2 s, as KubeRay's; the status is written only when it changed.
 */
public final class RayServiceReconciler implements Reconciler {

    /** KubeRay's {@code ServiceDefaultRequeueDuration}. */
    public static final Duration REQUEUE = Duration.ofSeconds(2);
    /** KubeRay's {@code BuildServeService} error when the head container has no serve port. */
    static final String NO_SERVE_PORT = "Please specify a port named 'serve' (or with the prefix 'serve-', "
            + "e.g. 'serve-grpc') in the Ray head container; otherwise, the Kubernetes service for Ray Serve will "
            + "not be created.";
    /** KubeRay's default {@code rayClusterDeletionDelaySeconds}. */
    public static final int DEFAULT_DELETION_DELAY_SECONDS = 60;
    /** KubeRay's limit on RayService names (53 minus len("-" + 5 random chars)). */
    public static final int MAX_NAME_LENGTH = 47;
    /** KubeRay's {@code RayServiceInitializingTimeoutAnnotation}. */
    static final String INITIALIZING_TIMEOUT_ANNOTATION = "ray.io/initializing-timeout";

    private final KubeClient client;
    private final Clock clock;
    private final EventRecorder events;
    private final SharedInformer rayServices;
    private final SharedInformer clusters;
    private final SharedInformer services;
    private final SharedInformer pods;
    private final RayDashboardClient dashboard;
    private final long seed;
    /** When each dangling cluster ({@code ns/name}) may be deleted: in memory, as KubeRay's. */
    private final Map<String, Instant> deletionTimes = new ConcurrentHashMap<>();

    /** A cluster as this pass sees it: the stored object and its parsed status. */
    private record Cluster(StoredObject object, RayClusterStatus status) {
        String name() {
            return object.name();
        }
    }

    /** The active and pending clusters of a pass (null where there is none). */
    private record Clusters(Cluster active, Cluster pending) {
    }

    /** The head and serve Services as this pass left them (null where not written or failed). */
    private record Services(StoredObject head, StoredObject serve) {
        static final Services NONE = new Services(null, null);
    }

    /** What reconcileServe learnt about a cluster. */
    private record ServeResult(boolean ready, Map<String, AppStatus> apps) {
    }

    public RayServiceReconciler(ControllerManager manager, RayDashboardClient dashboard, long seed) {
        this.client = manager.operatorClient();
        this.clock = manager.clock();
        this.events = manager.eventRecorder(ServiceKeys.COMPONENT);
        this.rayServices = manager.informer(ResourceTypes.RAYSERVICES);
        this.clusters = manager.informer(ResourceTypes.RAYCLUSTERS);
        this.services = manager.informer(ResourceTypes.SERVICES);
        this.pods = manager.informer(ResourceTypes.PODS);
        this.dashboard = Objects.requireNonNull(dashboard, "dashboard");
        this.seed = seed;
    }

    /**
     * Registers the controller: For RayService (generation, labels or annotations changed), Owns RayCluster and
     * Service.
     */
    public static Controller register(ControllerManager manager, RayDashboardClient dashboard, long seed) {
        return manager.controller(ServiceKeys.COMPONENT)
                .forType(ResourceTypes.RAYSERVICES, UpdatePredicate.GENERATION_LABELS_OR_ANNOTATIONS_CHANGED)
                .owns(ResourceTypes.RAYCLUSTERS)
                .owns(ResourceTypes.SERVICES)
                .complete(new RayServiceReconciler(manager, dashboard, seed));
    }

    @Override
    public Result reconcile(Request request) {
        StoredObject obj = rayServices.get(request.namespace(), request.name());
        if (obj == null) {
            return Result.done();
        }
        return ConflictRetry.run(REQUEUE, () -> reconcile(obj));
    }

    private Result reconcile(StoredObject obj) {
        RayService rs = KubeClient.read(obj.object(), RayService.class);
        if (obj.isDeleting()) {
            return finalizeDeletion(obj);
        }
        if (!obj.hasFinalizer(ServiceKeys.FINALIZER)) {
            ObjectNode copy = obj.copy();
            Finalizers.add(copy, ServiceKeys.FINALIZER);
            client.update(ResourceTypes.RAYSERVICES, copy);
            return Result.requeueAfter(REQUEUE);
        }
        return reconcileLive(obj, rs);
    }

    private Result reconcileLive(StoredObject obj, RayService rs) {
        Instant now = clock.now();
        RayServiceWorkingStatus st = RayServiceWorkingStatus.from(rs.status());
        if (validateSpec(obj, rs, st, now) instanceof Step.Return r) {
            return r.result();
        }
        if (handleSuspend(obj, rs, st, now) instanceof Step.Return r) {
            return r.result();
        }
        cleanUpDanglingClusters(obj, rs, st, now);
        if (st.initializingTimedOut()) {
            // terminal: only the clean-up above runs until the RayService is deleted and created again
            return ownedClusters(obj).isEmpty() ? Result.done() : Result.requeueAfter(REQUEUE);
        }
        Clusters clusters = reconcileRayClusters(obj, st);
        boolean exclude = Boolean.TRUE.equals(rs.spec().excludeHeadPodFromServeSvc());
        updateHeadPodServeLabel(obj, clusters.active(), exclude);
        updateHeadPodServeLabel(obj, clusters.pending(), exclude);

        ServeResult pendingServe = null;
        ServeResult activeServe = null;
        if (clusters.pending() != null) {
            pendingServe = reconcileServe(obj, rs, clusters.pending(), true);
        }
        if (clusters.active() != null && clusters.pending() == null
                && !shouldPrepareNewCluster(obj, clusters.active(), null, false)) {
            // KubeRay reconciles (and reads) the active cluster's applications only when no new cluster is
            // pending: during a blue/green upgrade activeServiceStatus.applicationStatuses stays empty
            activeServe = reconcileServe(obj, rs, clusters.active(), true);
        }
        Services services = reconcileServices(obj, clusters, activeServe, pendingServe);
        calculateStatus(obj, st, clusters, activeServe, pendingServe, services, now);
        writeStatus(obj, rs, st);
        return Result.requeueAfter(REQUEUE);
    }

    /** KubeRay's validation step: an invalid RayService gets a Warning Event and Ready=False, nothing else. */
    private Step validateSpec(StoredObject obj, RayService rs, RayServiceWorkingStatus st, Instant now) {
        ValidationFailure invalid = validate(obj, rs);
        if (invalid == null) {
            return Step.CONTINUE;
        }
        events.event(obj, EventRecorder.WARNING, invalid.eventReason(RayService.KIND), "Validate",
                obj.namespace() + "/" + obj.name() + ": " + invalid.message());
        st.observedGeneration = obj.generation();
        st.setCondition(RayServiceConditions.READY, Condition.Status.False, RayServiceConditions.VALIDATION_FAILED,
                invalid.message(), now);
        st.serviceStatus = null;
        writeStatus(obj, rs, st);
        return Step.returnNow(Result.done());
    }

    /** KubeRay's reconcileRayCluster: create the pending cluster once named; update in place when only groups were appended. */
    private Clusters reconcileRayClusters(StoredObject obj, RayServiceWorkingStatus st) {
        Cluster active = cluster(obj.namespace(), st.activeName());
        Cluster pending = cluster(obj.namespace(), st.pendingName());
        if (st.pendingName() != null && pending == null) {
            pending = createCluster(obj, st.pendingName());
        } else if (shouldUpdateCluster(obj, st, active, true)) {
            active = updateCluster(obj, active, "active");
        } else if (shouldUpdateCluster(obj, st, pending, false)) {
            pending = updateCluster(obj, pending, "pending");
        }
        return new Clusters(active, pending);
    }

    /** KubeRay's reconcileServices: head and serve Services point at the pending cluster once ready, else the active. */
    private Services reconcileServices(StoredObject obj, Clusters clusters, ServeResult activeServe,
            ServeResult pendingServe) {
        boolean pendingReady = pendingServe != null && pendingServe.ready();
        boolean activeReady = activeServe != null && activeServe.ready();
        if (!pendingReady && !activeReady) {
            return Services.NONE;
        }
        Cluster target = pendingReady ? clusters.pending() : clusters.active();
        StoredObject headSvc = reconcileService(obj, RayServiceServices.headService(obj, target.name()));
        ObjectNode desiredServe = RayServiceServices.serveService(obj, target.name());
        if (desiredServe == null) {
            // BuildServeService's error: Reconcile returns it, so the pass ends here (retried with backoff)
            throw new ReconcileError(NO_SERVE_PORT);
        }
        return new Services(headSvc, reconcileService(obj, desiredServe));
    }

    /** KubeRay's calculateStatus, with the promotion of the pending cluster once the Services point at it. */
    private void calculateStatus(StoredObject obj, RayServiceWorkingStatus st, Clusters clusters, ServeResult activeServe,
            ServeResult pendingServe, Services services, Instant now) {
        long generation = obj.generation();
        st.observedGeneration = generation;
        st.active = withCluster(st.active, clusters.active(), activeServe);
        st.pending = withCluster(st.pending, clusters.pending(), pendingServe);
        String pointsTo = services.head() != null && services.serve() != null
                ? RayServiceServices.selectedCluster(services.head()) : null;
        boolean pendingServing = pointsTo != null && pointsTo.equals(st.pendingName());
        Clusters current = clusters;
        if (pointsTo != null && !pointsTo.equals(st.activeName())) {
            // The Services switched: promote the pending cluster in the same pass.
            st.active = st.pending;
            st.pending = null;
            current = new Clusters(clusters.pending(), null);
        }
        if (shouldPrepareNewCluster(obj, current.active(), current.pending(), pendingServing)) {
            String name = newClusterName(obj, generation, st);
            st.pending = new RayServiceStatus(null, name, null, null, null, null);
        }
        st.numServeEndpoints = countServeEndpoints(obj, services.serve());
        st.calculateConditions(now);
        checkInitializingTimeout(obj, st, now);
    }

    /** KubeRay's markFailedOnInitializingTimeout, checked while nothing serves and Ready is not True. */
    private void checkInitializingTimeout(StoredObject obj, RayServiceWorkingStatus st, Instant now) {
        if (st.numServeEndpoints != 0 || st.isTrue(RayServiceConditions.READY)) {
            return;
        }
        String annotation = obj.annotations().get(INITIALIZING_TIMEOUT_ANNOTATION);
        Duration timeout = annotation == null || annotation.isEmpty() ? null : initializingTimeout(annotation);
        Duration spent = st.markFailedOnInitializingTimeout(timeout, now);
        if (spent != null) {
            events.event(obj, EventRecorder.WARNING, "RayServiceInitializingTimeout", "Reconcile",
                    "RayService initializing timeout exceeded after " + GoDuration.format(spent)
                            + " (configured timeout: " + GoDuration.format(timeout) + ")");
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // deletion, suspend, dangling clusters

    private Result finalizeDeletion(StoredObject obj) {
        List<StoredObject> clusters = ownedClusters(obj);
        for (StoredObject c : clusters) {
            if (!c.isDeleting()) {
                deleteCluster(obj, c);
            }
        }
        if (!clusters.isEmpty()) {
            return Result.requeueAfter(REQUEUE);
        }
        if (obj.hasFinalizer(ServiceKeys.FINALIZER)) {
            ObjectNode copy = obj.copy();
            Finalizers.remove(copy, ServiceKeys.FINALIZER);
            client.update(ResourceTypes.RAYSERVICES, copy);
        }
        return Result.done();
    }

    /**
     * KubeRay's {@code handleSuspend}. Suspended + {@code suspend: false}
     * resumes; {@code suspend: true} commits Suspending first (status only); once Suspending is recorded the
     * deletion runs to completion whatever {@code suspend} says now, then Suspended.
     */
    private Step handleSuspend(StoredObject obj, RayService rs, RayServiceWorkingStatus st, Instant now) {
        boolean suspend = Boolean.TRUE.equals(rs.spec().suspend());
        if (st.isTrue(RayServiceConditions.SUSPENDED)) {
            if (suspend) {
                return Step.returnNow(Result.done());
            }
            st.observedGeneration = obj.generation();
            st.setCondition(RayServiceConditions.SUSPENDED, Condition.Status.False,
                    RayServiceConditions.RAY_SERVICE_RESUMED, "Spec.Suspend is false; RayService has resumed.", now);
            // removed and set again, so the initializing timeout counts from the resume
            st.removeCondition(RayServiceConditions.READY);
            st.setCondition(RayServiceConditions.READY, Condition.Status.False, RayServiceConditions.INITIALIZING,
                    "RayService is initializing after resuming from suspend.", now);
            st.removeCondition(RayServiceConditions.UPGRADE_IN_PROGRESS);
            st.setCondition(RayServiceConditions.UPGRADE_IN_PROGRESS, Condition.Status.False,
                    RayServiceConditions.INITIALIZING, "RayService is initializing after resuming from suspend.", now);
            return Step.CONTINUE; // suspend is no longer operative: the same pass goes on reconciling
        }
        if (!st.isTrue(RayServiceConditions.SUSPENDING)) {
            if (!suspend) {
                return Step.CONTINUE;
            }
            st.observedGeneration = obj.generation();
            st.setCondition(RayServiceConditions.SUSPENDING, Condition.Status.True,
                    RayServiceConditions.SUSPEND_REQUESTED,
                    "Spec.Suspend is true; will delete all Kubernetes resources owned by this RayService.", now);
            st.setCondition(RayServiceConditions.READY, Condition.Status.False, RayServiceConditions.SUSPEND_IN_PROGRESS,
                    "RayService is suspending.", now);
            st.setNoUpgradeOrRollback(RayServiceConditions.SUSPEND_IN_PROGRESS, now);
            st.active = null;
            st.pending = null;
            st.numServeEndpoints = 0;
            st.serviceStatus = null;
            writeStatus(obj, rs, st);
            return Step.returnNow(Result.requeueAfter(REQUEUE));
        }
        // Suspending: delete everything the service made, then report Suspended.
        List<StoredObject> clusters = ownedClusters(obj);
        for (StoredObject c : clusters) {
            if (!c.isDeleting()) {
                deleteCluster(obj, c);
            }
        }
        boolean servicesLeft = false;
        for (String svcName : List.of(RayLabels.headServiceName(obj.name()), RayServiceServices.serveServiceName(obj))) {
            StoredObject svc = services.get(obj.namespace(), svcName);
            if (svc != null && ownedBy(svc, obj)) {
                servicesLeft = true;
                if (!svc.isDeleting() && client.delete(ResourceTypes.SERVICES, obj.namespace(), svcName)) {
                    events.event(obj, EventRecorder.NORMAL, "DeletedService", "Delete",
                            "Deleted the service " + obj.namespace() + "/" + svcName);
                }
            }
        }
        if (clusters.isEmpty() && !servicesLeft) {
            st.setCondition(RayServiceConditions.SUSPENDING, Condition.Status.False,
                    RayServiceConditions.SUSPEND_COMPLETE, "All owned resources have been deleted.", now);
            st.setCondition(RayServiceConditions.SUSPENDED, Condition.Status.True,
                    RayServiceConditions.SUSPEND_COMPLETE, "All owned resources have been deleted.", now);
            st.setCondition(RayServiceConditions.READY, Condition.Status.False, RayServiceConditions.SUSPEND_COMPLETE,
                    "RayService is suspended.", now);
            st.setNoUpgradeOrRollback(RayServiceConditions.SUSPEND_COMPLETE, now);
            writeStatus(obj, rs, st);
            // requeue: if suspend went back to false meanwhile, the next pass resumes
            return Step.returnNow(Result.requeueAfter(REQUEUE));
        }
        st.setCondition(RayServiceConditions.SUSPENDING, Condition.Status.True, RayServiceConditions.SUSPEND_IN_PROGRESS,
                "Waiting for all Kubernetes resources owned by this RayService to be deleted.", now);
        writeStatus(obj, rs, st);
        return Step.returnNow(Result.requeueAfter(REQUEUE));
    }

    /**
     * KubeRay's {@code cleanUpRayClusterInstance}: an owned cluster that is neither active nor pending is deleted
     * once the deletion delay has passed since it was first seen dangling.
     */
    private void cleanUpDanglingClusters(StoredObject obj, RayService rs, RayServiceWorkingStatus st, Instant now) {
        Integer d = rs.spec().rayClusterDeletionDelaySeconds();
        Duration delay = Duration.ofSeconds(d == null || d < 0 ? DEFAULT_DELETION_DELAY_SECONDS : d);
        for (StoredObject c : ownedClusters(obj)) {
            if (c.name().equals(st.activeName()) || c.name().equals(st.pendingName()) || c.isDeleting()) {
                continue;
            }
            String key = c.namespace() + "/" + c.name();
            Instant at = deletionTimes.get(key);
            if (at == null) {
                deletionTimes.put(key, now.plus(delay));
            } else if (!now.isBefore(at)) {
                deleteCluster(obj, c);
            }
        }
    }

    private void deleteCluster(StoredObject obj, StoredObject cluster) {
        deletionTimes.remove(cluster.namespace() + "/" + cluster.name());
        if (client.delete(ResourceTypes.RAYCLUSTERS, cluster.namespace(), cluster.name())) {
            events.event(obj, EventRecorder.NORMAL, "DeletedRayCluster", "Delete",
                    "Deleted the RayCluster " + cluster.namespace() + "/" + cluster.name());
        }
    }

    private List<StoredObject> ownedClusters(StoredObject obj) {
        Map<String, String> selector = Map.of(RayLabels.ORIGINATED_FROM_CR_NAME, obj.name(),
                RayLabels.ORIGINATED_FROM_CRD, ServiceKeys.CRD);
        List<StoredObject> out = new ArrayList<>();
        for (StoredObject c : clusters.list(obj.namespace(), selector)) {
            if (ownedBy(c, obj)) {
                out.add(c);
            }
        }
        return out;
    }

    private static boolean ownedBy(StoredObject child, StoredObject owner) {
        JsonNode refs = Json.at(child.object(), "metadata", "ownerReferences");
        if (refs != null && refs.isArray()) {
            for (JsonNode r : refs) {
                if (Objects.equals(Json.text(r, "uid"), owner.uid())) {
                    return true;
                }
            }
        }
        return false;
    }

    // ---------------------------------------------------------------------------------------------------------
    // clusters

    private Cluster cluster(String namespace, String name) {
        if (name == null) {
            return null;
        }
        StoredObject c = clusters.get(namespace, name);
        if (c == null) {
            return null;
        }
        JsonNode status = Json.at(c.object(), "status");
        return new Cluster(c, status == null ? null : KubeClient.read(status, RayClusterStatus.class));
    }

    private Cluster createCluster(StoredObject obj, String name) {
        ObjectNode desired = constructCluster(obj, name);
        try {
            StoredObject created = client.create(ResourceTypes.RAYCLUSTERS, obj.namespace(), desired);
            events.event(obj, EventRecorder.NORMAL, "CreatedRayCluster", "Create",
                    "Created the RayCluster " + obj.namespace() + "/" + name);
            return new Cluster(created, null);
        } catch (ApiException e) {
            events.event(obj, EventRecorder.WARNING, "FailedToCreateRayCluster", "Create",
                    "Failed to create the RayCluster " + obj.namespace() + "/" + name + ": " + e.getMessage());
            if (e.code() == 409) {
                return cluster(obj.namespace(), name);
            }
            return null;
        }
    }

    private Cluster updateCluster(StoredObject obj, Cluster current, String role) {
        ObjectNode goal = constructCluster(obj, current.name());
        ObjectNode copy = current.object().copy();
        ObjectNode meta = (ObjectNode) copy.get("metadata");
        meta.set("labels", goal.get("metadata").get("labels"));
        meta.set("annotations", goal.get("metadata").get("annotations"));
        copy.set("spec", goal.get("spec"));
        try {
            StoredObject updated = client.update(ResourceTypes.RAYCLUSTERS, copy);
            events.event(obj, EventRecorder.NORMAL, "UpdatedRayCluster", "Update",
                    "Updated the " + role + " RayCluster " + obj.namespace() + "/" + current.name());
            return new Cluster(updated, current.status());
        } catch (ApiException e) {
            events.event(obj, EventRecorder.WARNING, "FailedToUpdateRayCluster", "Update",
                    "Failed to update the " + role + " RayCluster " + obj.namespace() + "/" + current.name() + ": "
                            + e.getMessage());
            return current;
        }
    }

    /**
     * KubeRay's {@code constructRayClusterForRayService}: the RayService's labels and annotations plus the
     * originated-from labels and the hash annotations, a controller reference to the RayService, and
     * {@code rayClusterConfig} as the spec (the serve labels are added to the Pods by the RayCluster controller).
     */
    static ObjectNode constructCluster(StoredObject obj, String name) {
        ObjectNode c = ObjectSkeleton.of("ray.io/v1", "RayCluster", obj.namespace(), name);
        ObjectNode meta = ObjectSkeleton.metadata(c);
        ObjectNode labels = meta.putObject("labels");
        obj.labels().forEach(labels::put);
        labels.put(RayLabels.ORIGINATED_FROM_CR_NAME, obj.name());
        labels.put(RayLabels.ORIGINATED_FROM_CRD, ServiceKeys.CRD);
        ObjectNode ann = meta.putObject("annotations");
        JsonNode own = Json.at(obj.object(), "metadata", "annotations");
        if (own != null && own.isObject()) {
            own.properties().forEach(e -> {
                if (!e.getKey().equals("kubectl.kubernetes.io/last-applied-configuration")) {
                    ann.set(e.getKey(), e.getValue());
                }
            });
        }
        JsonNode config = Json.at(obj.object(), "spec", "rayClusterConfig");
        ann.put(ServiceKeys.HASH, ClusterSpecHash.of(config));
        ann.put(ServiceKeys.NUM_WORKER_GROUPS, Integer.toString(ClusterSpecHash.workerGroupCount(config)));
        ann.put(RayLabels.KUBERAY_VERSION, RayLabels.OPERATOR_VERSION);
        meta.putArray("ownerReferences").add(OwnerReferences.controllerReference(obj));
        // the spec as given: KubeRay's BuildPod puts ray.io/serve on the Pods, not into the templates
        c.set("spec", config == null ? Json.object() : ((ObjectNode) config).deepCopy());
        return c;
    }

    private static boolean shouldUpdateCluster(StoredObject obj, RayServiceWorkingStatus st, Cluster cluster, boolean active) {
        if (cluster == null || cluster.object().isDeleting()) {
            return false;
        }
        Map<String, String> ann = cluster.object().annotations();
        if (active) {
            if (st.isTrue(RayServiceConditions.UPGRADE_IN_PROGRESS)) {
                return false;
            }
            if (!RayLabels.OPERATOR_VERSION.equals(ann.get(RayLabels.KUBERAY_VERSION))) {
                return true;
            }
        }
        if (hashEqual(obj, cluster.object(), false)) {
            return false;
        }
        return hashEqual(obj, cluster.object(), true);
    }

    /**
     * KubeRay's {@code shouldPrepareNewCluster}: a new pending cluster is needed when there is no cluster at all,
     * or when the spec changed by more than appended worker groups and the upgrade strategy allows a new cluster.
     */
    private static boolean shouldPrepareNewCluster(StoredObject obj, Cluster active, Cluster pending,
                                                   boolean pendingServing) {
        if (pendingServing) {
            return false;
        }
        if (active == null && pending == null) {
            return true;
        }
        Cluster c = pending != null ? pending : active;
        if (hashEqual(obj, c.object(), false) || hashEqual(obj, c.object(), true)) {
            return false;
        }
        return zeroDowntimeEnabled(obj);
    }

    /** NewCluster (or unset) allows a new cluster; None turns spec changes into no-ops. */
    static boolean zeroDowntimeEnabled(StoredObject obj) {
        String type = Json.text(obj.object(), "spec", "upgradeStrategy", "type");
        return type == null || type.equals("NewCluster") || type.equals("NewClusterWithIncrementalUpgrade");
    }

    private static boolean hashEqual(StoredObject obj, StoredObject cluster, boolean partial) {
        Map<String, String> ann = cluster.annotations();
        String clusterHash = ann.get(ServiceKeys.HASH);
        JsonNode config = Json.at(obj.object(), "spec", "rayClusterConfig");
        if (!partial) {
            return Objects.equals(clusterHash, ClusterSpecHash.of(config));
        }
        int groups;
        try {
            groups = Integer.parseInt(ann.getOrDefault(ServiceKeys.NUM_WORKER_GROUPS, ""));
        } catch (NumberFormatException e) {
            return true;
        }
        return Objects.equals(clusterHash, ClusterSpecHash.ofFirstGroups(config, groups));
    }

    private String newClusterName(StoredObject obj, long generation, RayServiceWorkingStatus st) {
        for (int attempt = 0; ; attempt++) {
            String name = ClusterNames.generate(seed, obj.namespace(), obj.name(), obj.uid(), generation, attempt);
            if (!name.equals(st.activeName()) && !name.equals(st.pendingName())
                    && clusters.get(obj.namespace(), name) == null) {
                return name;
            }
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // serve

    private StoredObject headPod(Cluster cluster) {
        Map<String, String> sel = Map.of(RayLabels.CLUSTER, cluster.name(), RayLabels.NODE_TYPE, "head");
        for (StoredObject p : pods.list(cluster.object().namespace(), sel)) {
            if (!p.isDeleting()) {
                return p;
            }
        }
        return null;
    }

    /** KubeRay's head readiness gate: the cluster's HeadPodReady condition (or the head Pod itself when absent). */
    private boolean headReady(Cluster cluster, StoredObject head) {
        Condition c = cluster.status() == null ? null : cluster.status().condition(RayClusterConditions.HEAD_POD_READY);
        if (c != null) {
            return c.isTrue() && head != null;
        }
        return head != null && PodConditions.isRunningAndReady(head);
    }

    private ServeResult reconcileServe(StoredObject obj, RayService rs, Cluster cluster, boolean apply) {
        StoredObject head = headPod(cluster);
        if (!headReady(cluster, head)) {
            return new ServeResult(false, null);
        }
        ClusterKey key = new ClusterKey(cluster.object().namespace(), cluster.name());
        String wanted = rs.spec().serveConfigV2() == null ? "" : rs.spec().serveConfigV2();
        Map<String, ServeApplication> apps = dashboard.getMultiApplicationStatus(key, head.uid());
        String applied = dashboard.getAppliedServeConfig(key, head.uid());
        if (apply && (applied == null || apps.isEmpty() || !applied.equals(wanted))) {
            try {
                dashboard.updateDeployments(key, head.uid(), wanted, obj.annotations());
                events.event(obj, EventRecorder.NORMAL, "UpdatedServeApplications", "Update",
                        "Updated serve applications to the RayCluster " + key);
            } catch (DashboardException e) {
                events.event(obj, EventRecorder.WARNING, "FailedToUpdateServeApplications", "Update",
                        "Failed to update serve applications to the RayCluster " + key + ": " + e.getMessage());
            }
            apps = dashboard.getMultiApplicationStatus(key, head.uid());
        }
        Map<String, AppStatus> out = new LinkedHashMap<>();
        boolean ready = !apps.isEmpty();
        for (Map.Entry<String, ServeApplication> e : apps.entrySet()) {
            ServeApplication a = e.getValue();
            if (!a.running()) {
                ready = false;
            }
            Map<String, ServeDeploymentStatus> deps = new LinkedHashMap<>();
            a.deployments().forEach((n, d) -> deps.put(n, new ServeDeploymentStatus(d.status(),
                    emptyToNull(d.message()), null)));
            out.put(e.getKey(), new AppStatus(a.status(), emptyToNull(a.message()), null, deps));
        }
        return new ServeResult(ready, out.isEmpty() ? null : out);
    }

    /**
     * KubeRay's {@code updateHeadPodServeLabel}: the head Pod is labelled {@code ray.io/serve=true} while its Serve
     * proxy is healthy (here: every application RUNNING), "false" otherwise or when the head is excluded.
     */
    private void updateHeadPodServeLabel(StoredObject obj, Cluster cluster, boolean exclude) {
        if (cluster == null) {
            return;
        }
        StoredObject head = headPod(cluster);
        if (head == null) {
            return;
        }
        String want = "false";
        if (!exclude && PodConditions.isRunningAndReady(head)) {
            Map<String, ServeApplication> apps = dashboard.getMultiApplicationStatus(
                    new ClusterKey(head.namespace(), cluster.name()), head.uid());
            boolean healthy = !apps.isEmpty() && apps.values().stream().allMatch(ServeApplication::running);
            want = Boolean.toString(healthy);
        }
        if (want.equals(head.labels().get(RayLabels.SERVE))) {
            return;
        }
        ObjectNode patch = Json.object();
        patch.putObject("metadata").putObject("labels").put(RayLabels.SERVE, want);
        try {
            client.patch(ResourceTypes.PODS, head.namespace(), head.name(),
                    io.kuberaysim.apiserver.registry.PatchType.MERGE, patch);
            events.event(obj, EventRecorder.NORMAL, "UpdatedHeadPodServeLabel", "Update",
                    "Updated the serve label to \"" + want + "\" for the Head Pod " + head.namespace() + "/"
                            + head.name());
        } catch (ApiException e) {
            events.event(obj, EventRecorder.WARNING, "FailedToUpdateHeadPodServeLabel", "Update",
                    "Failed to update the serve label to \"" + want + "\" for the Head Pod " + head.namespace() + "/"
                            + head.name() + ": " + e.getMessage());
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // services and status

    /**
     * KubeRay's {@code reconcileServices}: create the Service when missing; when it exists, replace its spec (keeping
     * the cluster IP) only if it selects another cluster.
     */
    private StoredObject reconcileService(StoredObject obj, ObjectNode desired) {
        String name = Json.text(desired, "metadata", "name");
        String ns = obj.namespace();
        StoredObject existing = services.get(ns, name);
        String target = Json.text(desired, "spec", "selector", RayServiceServices.SELECTOR_CLUSTER);
        try {
            if (existing == null) {
                StoredObject created = client.create(ResourceTypes.SERVICES, ns, desired);
                events.event(obj, EventRecorder.NORMAL, "CreatedService", "Create",
                        "Created the service " + ns + "/" + name);
                return created;
            }
            if (Objects.equals(target, RayServiceServices.selectedCluster(existing))) {
                return existing;
            }
            ObjectNode copy = existing.copy();
            ObjectNode spec = ((ObjectNode) desired.get("spec")).deepCopy();
            JsonNode oldSpec = copy.get("spec");
            for (String f : List.of("clusterIP", "clusterIPs")) {
                JsonNode v = Json.at(oldSpec, f);
                if (v != null) {
                    spec.set(f, v);
                }
            }
            copy.set("spec", spec);
            StoredObject updated = client.update(ResourceTypes.SERVICES, copy);
            events.event(obj, EventRecorder.NORMAL, "UpdatedService", "Update",
                    "Updated the service " + ns + "/" + name);
            return updated;
        } catch (ApiException e) {
            boolean create = existing == null;
            events.event(obj, EventRecorder.WARNING, create ? "FailedToCreateService" : "FailedToUpdateService",
                    create ? "Create" : "Update", "Failed to " + (create ? "create" : "update") + " the service "
                            + ns + "/" + name + ", " + e.getMessage());
            return null;
        }
    }

    private static RayServiceStatus withCluster(RayServiceStatus prev, Cluster cluster, ServeResult serve) {
        if (prev == null || prev.rayClusterName() == null) {
            return prev;
        }
        return new RayServiceStatus(serve == null ? null : serve.apps(), prev.rayClusterName(),
                cluster == null ? null : cluster.status(), prev.targetCapacity(), prev.trafficRoutedPercent(),
                prev.lastTrafficMigratedTime());
    }

    /**
     * KubeRay's {@code calculateNumServeEndpointsFromSlices}: the ready endpoints of the serve Service, as the
     * EndpointSlice controller lists its Pods (a Pod IP, not Succeeded or Failed) and marks them ready (Ready
     * condition True and not terminating, or every listed Pod with {@code publishNotReadyAddresses}).
     * {@code reconciled} is the serve Service this pass wrote or found, which the cache may not show yet.
     */
    private int countServeEndpoints(StoredObject obj, StoredObject reconciled) {
        StoredObject svc = reconciled != null ? reconciled
                : services.get(obj.namespace(), RayServiceServices.serveServiceName(obj));
        JsonNode selector = svc == null ? null : Json.at(svc.object(), "spec", "selector");
        if (selector == null || !selector.isObject() || selector.isEmpty()) {
            return 0;
        }
        boolean publishNotReady = svc.object().path("spec").path("publishNotReadyAddresses").asBoolean(false);
        Map<String, String> sel = new LinkedHashMap<>();
        selector.properties().forEach(e -> sel.put(e.getKey(), e.getValue().asString("")));
        int n = 0;
        for (StoredObject p : pods.list(obj.namespace(), sel)) {
            String phase = Json.text(p.object(), "status", "phase");
            String ip = Json.text(p.object(), "status", "podIP");
            if (ip == null || ip.isEmpty() || "Succeeded".equals(phase) || "Failed".equals(phase)
                    || (p.isDeleting() && !publishNotReady)) {
                continue;
            }
            if (publishNotReady || PodConditions.isReady(p)) {
                n++;
            }
        }
        return n;
    }

    private void writeStatus(StoredObject obj, RayService rs, RayServiceWorkingStatus st) {
        WorkingStatus.write(client, ResourceTypes.RAYSERVICES, obj, rs.status(), st, clock.now());
    }

    // ---------------------------------------------------------------------------------------------------------
    // helpers

    /** Validation as KubeRay's {@code ValidateRayServiceMetadata} / {@code ValidateRayServiceSpec}, in short. */
    /**
     * KubeRay's {@code ValidateRayServiceMetadata} and {@code ValidateRayServiceSpec}, messages prefixed as there:
     * the name, the {@code ray.io/initializing-timeout} annotation, {@code ValidateRayClusterSpec} on
     * {@code rayClusterConfig}, no custom head Service name, the upgrade type, a non-negative deletion delay.
     */
    private static ValidationFailure validate(StoredObject obj, RayService rs) {
        String meta = "The RayService metadata is invalid: ";
        String name = obj.name();
        if (name.length() > MAX_NAME_LENGTH) {
            return ValidationFailure.metadata(meta + "RayService name should be no more than " + MAX_NAME_LENGTH
                    + " characters");
        }
        if (!NameValidation.isDns1035Label(name).isEmpty()) {
            return ValidationFailure.metadata(meta + "RayService name should be a valid DNS1035 label: ["
                    + String.join(" ", NameValidation.isDns1035Label(name)) + "]");
        }
        String timeout = obj.annotations().get(INITIALIZING_TIMEOUT_ANNOTATION);
        if (timeout != null && !timeout.isEmpty() && initializingTimeout(timeout) == null) {
            return ValidationFailure.metadata(meta + "RayService annotations is invalid: "
                    + initializingTimeoutError(timeout));
        }
        String spec = "The RayService spec is invalid: ";
        if (rs.spec() == null || rs.spec().rayClusterConfig() == null
                || rs.spec().rayClusterConfig().headGroupSpec() == null) {
            return ValidationFailure.spec(spec + "headGroupSpec should have at least one container");
        }
        ValidationFailure cluster = RayClusterValidation.validate("placeholder", rs.spec().rayClusterConfig(),
                obj.annotations(), null);
        if (cluster != null) {
            return ValidationFailure.spec(spec + cluster.message());
        }
        String headSvcName = Json.text(obj.object(), "spec", "rayClusterConfig", "headGroupSpec", "headService",
                "metadata", "name");
        if (headSvcName != null && !headSvcName.isEmpty()) {
            return ValidationFailure.spec(spec
                    + "spec.rayClusterConfig.headGroupSpec.headService.metadata.name should not be set");
        }
        String type = Json.text(obj.object(), "spec", "upgradeStrategy", "type");
        if ("NewClusterWithIncrementalUpgrade".equals(type)) {
            return ValidationFailure.spec("upgradeStrategy NewClusterWithIncrementalUpgrade needs the Gateway API, "
                    + "which the simulator does not provide; use NewCluster or None");
        }
        Integer delay = rs.spec().rayClusterDeletionDelaySeconds();
        if (delay != null && delay < 0) {
            return ValidationFailure.spec(spec + "Spec.RayClusterDeletionDelaySeconds should be a non-negative "
                    + "integer, got " + delay);
        }
        return null;
    }

    /** {@code ray.io/initializing-timeout}: a Go duration or whole seconds, positive; null when invalid. */
    static Duration initializingTimeout(String value) {
        try {
            Duration d = GoDuration.parse(value);
            return d.isNegative() || d.isZero() ? null : d;
        } catch (IllegalArgumentException notADuration) {
            try {
                long seconds = Long.parseLong(value);
                return seconds <= 0 ? null : Duration.ofSeconds(seconds);
            } catch (NumberFormatException notSeconds) {
                return null;
            }
        }
    }

    /** {@code validateInitializingTimeout}'s three messages. */
    private static String initializingTimeoutError(String value) {
        String a = "annotation " + INITIALIZING_TIMEOUT_ANNOTATION;
        try {
            GoDuration.parse(value);
            return a + " must be a positive duration, got: " + value;
        } catch (IllegalArgumentException notADuration) {
            try {
                Long.parseLong(value);
                return a + " must be a positive integer (seconds), got: " + value;
            } catch (NumberFormatException notSeconds) {
                return a + " has invalid format: " + value + ". Expected Go duration format (e.g., '5m', '1h') or "
                        + "positive integer seconds";
            }
        }
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
