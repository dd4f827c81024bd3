package io.kuberaysim.controller.ray.job;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;

import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.runtime.Controller;
import io.kuberaysim.controller.runtime.ControllerManager;
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
     * A dashboard whose clusters answer while their RayCluster exists and is not being deleted, and whose job tables
     * are dropped when the RayCluster is deleted.
     */
    public static RayDashboard dashboard(ControllerManager manager) {
        RayDashboard dashboard = new RayDashboard(manager.clock(), key -> {
            StoredObject rc = manager.client().get(ResourceTypes.RAYCLUSTERS, key.namespace(), key.name());
            return rc != null && !rc.isDeleting();
        });
        manager.informer(ResourceTypes.RAYCLUSTERS).addHandler(new io.kuberaysim.controller.runtime.cache.InformerHandler() {
            @Override
            public void onDelete(StoredObject o) {
                dashboard.forgetCluster(new RayDashboard.ClusterKey(o.namespace(), o.name()));
            }
        });
        return dashboard;
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
