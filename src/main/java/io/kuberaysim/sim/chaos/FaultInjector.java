package io.kuberaysim.sim.chaos;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.PatchType;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.ray.GoDuration;
import io.kuberaysim.controller.ray.dashboard.ClusterKey;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.EventRecorder;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.sim.ray.SimulatedRayDashboard;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Carries out one fault on one target and records it: a Normal {@code FaultInjected} Event on the target (the
 * FaultSchedule for ApiErrors), from the {@value #COMPONENT} component, whose message is the timeline's line
 * ({@code deleted Pod x (schedule kill-workers)}).
 */
final class FaultInjector {
    /** The Events' source component; the timeline prints their messages as {@code fault: ...}. */
    static final String COMPONENT = ChaosSimulation.EVENT_SOURCE;

    private final KubeClient client;
    private final Clock clock;
    private final EventRecorder events;
    private final ContainerCrashes crashes;
    private final NodeLifecycle nodes;
    private final SimulatedRayDashboard dashboard;
    private final ApiWriteFaults apiFaults;

    FaultInjector(ControllerManager manager, ContainerCrashes crashes, NodeLifecycle nodes,
                  SimulatedRayDashboard dashboard, ApiWriteFaults apiFaults) {
        this.client = manager.client().as(COMPONENT);
        this.clock = manager.clock();
        this.events = manager.legacyEventRecorder(COMPONENT, COMPONENT);
        this.crashes = crashes;
        this.nodes = nodes;
        this.dashboard = dashboard;
        this.apiFaults = apiFaults;
    }

    /** Whether {@code target} can take the fault now (a crash needs running containers, and so on). */
    static boolean eligible(String type, StoredObject target) {
        if (target.isDeleting()) {
            return false;
        }
        JsonNode status = target.object().path("status");
        return switch (type) {
            case "CrashContainer" -> "Running".equals(Json.text(status, "phase"));
            case "CordonNode" -> !target.object().path("spec").path("unschedulable").asBoolean(false);
            // the Ray job must be on the dashboard already: in K8sJobMode the RayJob is Running before its
            // submitter has submitted, and jobStatus only moves once the operator has seen the job there
            case "FailRayJob", "SlowRayJob" -> Json.text(status, "jobId") != null
                    && Json.text(status, "rayClusterName") != null
                    && "Running".equals(Json.text(status, "jobDeploymentStatus"))
                    && ("PENDING".equals(Json.text(status, "jobStatus"))
                    || "RUNNING".equals(Json.text(status, "jobStatus")));
            case "FailServeApp" -> Json.text(status.path("activeServiceStatus"), "rayClusterName") != null;
            default -> true;
        };
    }

    /**
     * Injects {@code fault} into {@code target} for {@code schedule}; returns the line describing it, or null when
     * the target turned out not to take it (a Ray job that had just ended).
     */
    String inject(StoredObject schedule, JsonNode fault, StoredObject target, SplittableRandom random) {
        String type = Json.text(fault, "type");
        Duration duration = ChaosRandom.draw(fault.get("duration"), random);
        String what = switch (type) {
            case "DeletePod" -> {
                client.delete(ResourceTypes.PODS, target.namespace(), target.name());
                yield "deleted Pod " + target.name();
            }
            case "CrashContainer" -> {
                int code = fault.path("exitCode").asInt(1);
                crashes.crash(target, code);
                yield "crashed the containers of Pod " + target.name() + " with exit code " + code;
            }
            case "NodeNotReady" -> {
                nodes.outage(target, clock.now().plus(duration));
                yield "made Node " + target.name() + " NotReady for " + GoDuration.format(duration);
            }
            case "DeleteNode" -> {
                client.delete(ResourceTypes.NODES, null, target.name());
                yield "deleted Node " + target.name();
            }
            case "CordonNode" -> {
                client.patch(ResourceTypes.NODES, null, target.name(), PatchType.MERGE,
                        Json.MAPPER.readTree("{\"spec\":{\"unschedulable\":true}}"));
                yield "cordoned Node " + target.name();
            }
            case "FailRayJob" -> {
                ClusterKey cluster = rayJobCluster(target);
                String jobId = Json.text(target.object(), "status", "jobId");
                yield dashboard.jobs().fail(cluster, jobId, "Job entrypoint command failed with exit code 1 "
                        + "(simulated by FaultSchedule " + schedule.name() + ")")
                        ? "failed Ray job " + jobId + " of RayJob " + target.name() : null;
            }
            case "SlowRayJob" -> {
                ClusterKey cluster = rayJobCluster(target);
                String jobId = Json.text(target.object(), "status", "jobId");
                yield dashboard.jobs().delay(cluster, jobId, duration)
                        ? "slowed Ray job " + jobId + " of RayJob " + target.name() + " by "
                        + GoDuration.format(duration) : null;
            }
            case "FailServeApp" -> {
                String cluster = Json.text(target.object().path("status").path("activeServiceStatus"),
                        "rayClusterName");
                yield dashboard.serve().failAll(new ClusterKey(target.namespace(), cluster))
                        ? "made the Serve applications of RayService " + target.name() + " on RayCluster "
                        + cluster + " unhealthy" : null;
            }
            case "DashboardUnreachable" -> {
                dashboard.unreachableUntil(new ClusterKey(target.namespace(), target.name()),
                        clock.now().plus(duration));
                yield "made the Ray dashboard of RayCluster " + target.name() + " unreachable for "
                        + GoDuration.format(duration);
            }
            case "ApiErrors" -> {
                double p = fault.path("probability").asDouble(1.0);
                int code = fault.path("code").asInt(500);
                apiFaults.open(schedule.uid() + "/" + random.nextLong(), clock.now().plus(duration), p, code);
                yield "failing " + percent(p) + " of the operator's API writes with " + code + " for "
                        + GoDuration.format(duration);
            }
            default -> null;
        };
        if (what == null) {
            return null;
        }
        String line = what + " (schedule " + schedule.name() + ")";
        events.event(target, EventRecorder.NORMAL, "FaultInjected", "Inject", line);
        return line;
    }

    private static ClusterKey rayJobCluster(StoredObject rayJob) {
        return new ClusterKey(rayJob.namespace(), Json.text(rayJob.object(), "status", "rayClusterName"));
    }

    private static String percent(double p) {
        double v = p * 100;
        return (v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.1f", v)) + "%";
    }
}
