package io.kuberaysim.sim.ray;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.ray.RayLabels;
import io.kuberaysim.controller.runtime.Controller;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.cache.InformerHandler;
import io.kuberaysim.controller.runtime.cache.SharedInformer;
import io.kuberaysim.controller.runtime.clock.Timestamps;
import io.kuberaysim.controller.runtime.reconcile.Reconciler;
import io.kuberaysim.controller.runtime.reconcile.Request;
import io.kuberaysim.controller.runtime.reconcile.Result;
import io.kuberaysim.sim.chaos.ContainerCrashes;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the workers' raylets do when their head's GCS goes away, as Ray documents it for KubeRay: a raylet that cannot
 * reach the GCS for {@code RAY_gcs_rpc_server_reconnect_timeout_s} (60 s unless the worker's Ray container sets it;
 * KubeRay sets 600 s with GCS fault tolerance) exits, and so does its {@code ray start --block}: the worker's
 * container ends with exit code 1 and the kubelet restarts it as the Pod's restartPolicy says (with
 * {@code restartPolicy: Never} the Pod fails and KubeRay replaces it). When a new GCS comes up first, a head without
 * fault tolerance ({@code ray.io/ft-enabled} not "true" on the head Pod) has lost the cluster's state and terminates
 * the workers that joined the old one, as unknown workers; with fault tolerance they reconnect and keep running.
 * A worker container started while the GCS was down joins the new GCS when it comes up.
 * <p>
 * Only clusters whose GCS is down are tracked, so a healthy cluster costs one look at each head Pod change.
 */
public final class RayletSimulation implements Reconciler {
    private static final String RECONNECT_TIMEOUT_ENV = "RAY_gcs_rpc_server_reconnect_timeout_s";
    private static final Duration DEFAULT_RECONNECT_TIMEOUT = Duration.ofSeconds(60);
    private static final long MAX_RECONNECT_TIMEOUT_SECONDS = Integer.MAX_VALUE;
    private static final int RAYLET_EXIT_CODE = 1;

    private final ControllerManager manager;
    private final SharedInformer pods;
    private final ContainerCrashes crashes;
    /** Clusters (namespace/name) whose GCS is down, with the moment it went down. */
    private final Map<Request, Instant> gcsDownSince = new ConcurrentHashMap<>();

    private RayletSimulation(ControllerManager manager, ContainerCrashes crashes) {
        this.manager = manager;
        this.pods = manager.informer(ResourceTypes.PODS);
        this.crashes = crashes;
    }

    /** Registers the simulation: it ends worker containers through the kubelet's {@code crashes}. */
    public static Controller register(ControllerManager manager, ContainerCrashes crashes) {
        RayletSimulation raylets = new RayletSimulation(manager, crashes);
        // The queue is fed by the handler below, which sees a head Pod's old and new state together: a mapper
        // sees them one at a time and could not tell a GCS that went down from one that never ran.
        Controller controller = manager.controller("ray-raylet-sim")
                .watches(ResourceTypes.PODS, pod -> List.of())
                .complete(raylets);
        raylets.pods.addHandler(new InformerHandler() {
            @Override
            public void onAdd(StoredObject pod) {
                onUpdate(null, pod);
            }

            @Override
            public void onUpdate(StoredObject oldPod, StoredObject newPod) {
                String before = gcs(oldPod);
                String after = gcs(newPod);
                if (!Objects.equals(before, after) && (before != null || raylets.isTracked(newPod))) {
                    raylets.gcsChanged(newPod, before != null, controller); // a new GCS in place of a running one too
                }
            }

            @Override
            public void onDelete(StoredObject pod) {
                if (gcs(pod) != null) {
                    raylets.gcsChanged(pod, true, controller);
                }
            }
        });
        return controller;
    }

    private boolean isTracked(StoredObject head) {
        return gcsDownSince.containsKey(clusterOf(head));
    }

    private void gcsChanged(StoredObject head, boolean oldGcsGone, Controller controller) {
        Request cluster = clusterOf(head);
        if (oldGcsGone) {
            gcsDownSince.putIfAbsent(cluster, manager.clock().now());
        }
        controller.enqueue(cluster);
    }

    @Override
    public Result reconcile(Request cluster) {
        Instant downSince = gcsDownSince.get(cluster);
        if (downSince == null) {
            return Result.done();
        }
        List<StoredObject> clusterPods = pods.list(cluster.namespace(), Map.of(RayLabels.CLUSTER, cluster.name()));
        StoredObject gcsHead = null;
        for (StoredObject pod : clusterPods) {
            if (gcs(pod) != null) {
                gcsHead = pod;
            }
        }
        Instant now = manager.clock().now();
        Instant next = null;
        boolean workers = false;
        for (StoredObject pod : clusterPods) {
            Instant started = rayContainerRunningSince(pod);
            if (started == null || !RayLabels.NODE_TYPE_WORKER.equals(pod.labels().get(RayLabels.NODE_TYPE))) {
                continue;
            }
            workers = true;
            if (gcsHead != null) {
                boolean joinedOldGcs = started.isBefore(downSince);
                if (joinedOldGcs && !"true".equals(gcsHead.annotations().get(RayLabels.FT_ENABLED))) {
                    crashes.crash(pod, RAYLET_EXIT_CODE);
                }
                continue;
            }
            Instant deadline = (started.isAfter(downSince) ? started : downSince).plus(reconnectTimeout(pod));
            if (!now.isBefore(deadline)) {
                crashes.crash(pod, RAYLET_EXIT_CODE);
                deadline = now.plus(reconnectTimeout(pod)); // its restarted container waits for the GCS again
            }
            next = next == null || deadline.isBefore(next) ? deadline : next;
        }
        if (gcsHead != null || !workers) {
            gcsDownSince.remove(cluster);
            return Result.done();
        }
        return Result.requeueAfter(Duration.between(now, next));
    }

    /** The identity of the GCS a head Pod runs (its uid and Ray container start), or null when none runs. */
    private static String gcs(StoredObject pod) {
        if (pod == null || pod.isDeleting()
                || !RayLabels.NODE_TYPE_HEAD.equals(pod.labels().get(RayLabels.NODE_TYPE))
                || pod.labels().get(RayLabels.CLUSTER) == null) {
            return null;
        }
        Instant started = rayContainerRunningSince(pod);
        return started == null ? null : pod.uid() + "@" + started;
    }

    /** When the Pod's Ray container (the first one, as KubeRay places it) started running, or null. */
    private static Instant rayContainerRunningSince(StoredObject pod) {
        if (pod.isDeleting() || !"Running".equals(Json.text(pod.object(), "status", "phase"))) {
            return null;
        }
        String name = Json.text(pod.object().path("spec").path("containers").path(0), "name");
        for (JsonNode status : pod.object().path("status").path("containerStatuses")) {
            if (Objects.equals(name, Json.text(status, "name"))) {
                String startedAt = Json.text(status, "state", "running", "startedAt");
                return startedAt == null ? null : Timestamps.parse(startedAt);
            }
        }
        return null;
    }

    private static Duration reconnectTimeout(StoredObject pod) {
        for (JsonNode env : pod.object().path("spec").path("containers").path(0).path("env")) {
            if (RECONNECT_TIMEOUT_ENV.equals(Json.text(env, "name"))) {
                try {
                    long seconds = Long.parseLong(Json.text(env, "value").trim());
                    // kept within what the clock can add: a huge value means "never" for any simulated run
                    return Duration.ofSeconds(Math.min(Math.max(seconds, 0), MAX_RECONNECT_TIMEOUT_SECONDS));
                } catch (RuntimeException notANumber) {
                    return DEFAULT_RECONNECT_TIMEOUT; // Ray would not start with it; the default is the kindest reading
                }
            }
        }
        return DEFAULT_RECONNECT_TIMEOUT;
    }

    private static Request clusterOf(StoredObject pod) {
        return new Request(pod.namespace(), pod.labels().get(RayLabels.CLUSTER));
    }
}
