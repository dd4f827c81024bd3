package io.kuberaysim.controller.ray.job;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;

import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.ray.RayLabels;
import io.kuberaysim.controller.runtime.Controller;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.cache.InformerHandler;
import io.kuberaysim.controller.runtime.reconcile.Request;
import io.kuberaysim.sim.ray.RayDashboard;
import io.kuberaysim.sim.ray.SubmitterSimulation;
import tools.jackson.databind.JsonNode;

import java.util.Map;

/** Wires the RayJob controller, the simulated Ray dashboards and the submitter simulation into a manager. */
public final class RayJobController {

    private RayJobController() {
    }

    /**
     * A dashboard whose clusters answer while their RayCluster exists and is not being deleted and their head Pod
     * runs. A cluster's job table is dropped when the RayCluster is deleted and when its head Pod stops running or
     * goes away: without the head's GCS Ray keeps no job history, so a job whose head was lost is unknown to the new
     * head (kuberay-behaviour.md, common problems) and its submitter submits it again there.
     */
    public static RayDashboard dashboard(ControllerManager manager) {
        var pods = manager.informer(ResourceTypes.PODS);
        RayDashboard dashboard = new RayDashboard(manager.clock(), key -> {
            StoredObject rc = manager.client().get(ResourceTypes.RAYCLUSTERS, key.namespace(), key.name());
            return rc != null && !rc.isDeleting()
                    && headRunning(pods.get(key.namespace(), RayLabels.headPodName(key.name())));
        });
        manager.informer(ResourceTypes.RAYCLUSTERS).addHandler(new InformerHandler() {
            @Override
            public void onDelete(StoredObject o) {
                dashboard.forgetCluster(new RayDashboard.ClusterKey(o.namespace(), o.name()));
            }
        });
        pods.addHandler(new InformerHandler() {
            @Override
            public void onUpdate(StoredObject oldObj, StoredObject newObj) {
                if (headRunning(oldObj) && !headRunning(newObj)) {
                    headLost(newObj);
                }
            }

            @Override
            public void onDelete(StoredObject o) {
                if (headRunning(o)) {
                    headLost(o);
                }
            }

            private void headLost(StoredObject head) {
                dashboard.forgetCluster(new RayDashboard.ClusterKey(head.namespace(),
                        head.labels().get(RayLabels.CLUSTER)));
            }
        });
        return dashboard;
    }

    /** Whether {@code pod} is a Ray head Pod that runs and is not being deleted. */
    private static boolean headRunning(StoredObject pod) {
        return pod != null && !pod.isDeleting() && RayLabels.NODE_TYPE_HEAD.equals(pod.labels().get(RayLabels.NODE_TYPE))
                && pod.labels().get(RayLabels.CLUSTER) != null
                && "Running".equals(Json.text(pod.object(), "status", "phase"));
    }

    /**
     * Registers the RayJob reconciler (For RayJob; Owns RayCluster, batch Job, Service) and the submitter simulation.
     * A Ray job ending wakes the RayJobs of that cluster at once, so HTTPMode and InteractiveMode do not wait for the
     * 3 s poll.
     */
    public static Controller register(ControllerManager manager, RayDashboard dashboard, long seed) {
        RayJobReconciler reconciler = new RayJobReconciler(manager.client(), manager.clock(),
                manager.eventRecorder(RayJobReconciler.COMPONENT), dashboard, seed);
        Controller controller = manager.controller(RayJobReconciler.COMPONENT)
                .forType(ResourceTypes.RAYJOBS)
                .owns(ResourceTypes.RAYCLUSTERS)
                .owns(ResourceTypes.JOBS)
                .owns(ResourceTypes.SERVICES)
                .complete(reconciler);
        var rayJobs = manager.informer(ResourceTypes.RAYJOBS);
        dashboard.addListener((cluster, job) -> {
            if (!job.status().terminal()) {
                return;
            }
            for (StoredObject rj : rayJobs.list(cluster.namespace(), Map.of())) {
                JsonNode st = rj.object().get("status");
                if (cluster.name().equals(Json.text(st, "rayClusterName"))) {
                    controller.enqueue(new Request(rj.namespace(), rj.name()));
                }
            }
        });
        SubmitterSimulation.register(manager, dashboard);
        return controller;
    }

}
