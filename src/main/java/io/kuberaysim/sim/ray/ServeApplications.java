package io.kuberaysim.sim.ray;

import io.kuberaysim.api.Json;
import io.kuberaysim.controller.ray.dashboard.ClusterKey;
import io.kuberaysim.controller.ray.dashboard.DashboardException;
import io.kuberaysim.controller.ray.dashboard.ServeApplication;
import io.kuberaysim.controller.ray.dashboard.ServeApplication.Deployment;
import io.kuberaysim.controller.runtime.clock.Clock;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import static io.kuberaysim.controller.ray.dashboard.ServeApplication.DEPLOYING;
import static io.kuberaysim.controller.ray.dashboard.ServeApplication.DEPLOY_FAILED;
import static io.kuberaysim.controller.ray.dashboard.ServeApplication.HEALTHY;
import static io.kuberaysim.controller.ray.dashboard.ServeApplication.NOT_STARTED;
import static io.kuberaysim.controller.ray.dashboard.ServeApplication.RUNNING;
import static io.kuberaysim.controller.ray.dashboard.ServeApplication.UNHEALTHY;
import static io.kuberaysim.controller.ray.dashboard.ServeApplication.UPDATING;

/**
 * The simulated Ray dashboard's Serve API ({@code PUT /api/serve/applications/} and the application status it
 * reports), one table of applications per RayCluster.
 *
 * <p>A PUT replaces the cluster's applications with those of the config. A new application starts
 * {@code NOT_STARTED}, turns {@code DEPLOYING} (its deployments {@code UPDATING}) after half the deploy time and
 * reaches its final status after the whole deploy time: {@code RUNNING} with {@code HEALTHY} deployments, unless the
 * {@value #APP_STATUS_ANNOTATION} override names another one. An application whose config changed restarts at
 * {@code DEPLOYING}; an unchanged one keeps its state. Status is computed from the clock when asked, so it needs no
 * timers and is deterministic on a virtual clock.
 *
 * <p>Applications live as long as the head Pod that received them: a table is tagged with the head Pod's uid, and
 * a new head (a restarted cluster without GCS fault tolerance) reports no applications, as Ray does.
 *
 * <p>Thread-safe.
 */
public final class ServeApplications {

    /** RayService annotation: seconds from PUT to the final status; default 2. */
    public static final String DEPLOY_SECONDS_ANNOTATION = "sim.kuberay.io/serve-deploy-seconds";
    /**
     * RayService annotation: JSON map from application name (or {@code "*"} for every application) to the final
     * status to simulate: {@code RUNNING}, {@code DEPLOY_FAILED} or {@code UNHEALTHY}. Read when a config is PUT.
     */
    public static final String APP_STATUS_ANNOTATION = "sim.kuberay.io/serve-app-status";
    /** Default seconds from PUT to the final status. */
    public static final long DEFAULT_DEPLOY_SECONDS = 2;

    /** One application's deployment in progress: what was asked and when. */
    private record SimApp(JsonNode config, Instant deployStart, boolean restarted, Duration deployTime,
                          String finalStatus, List<String> deploymentNames) {
    }

    private record Table(String headUid, String config, Map<String, SimApp> apps) {
    }

    private final Clock clock;
    private final Map<ClusterKey, Table> tables = new HashMap<>();

    public ServeApplications(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * {@code PUT /api/serve/applications/}: deploys {@code serveConfigV2} (Serve config V2 YAML) on the cluster
     * whose head Pod has uid {@code headUid}.
     *
     * @param simAnnotations the RayService's annotations; the {@code sim.kuberay.io/serve-*} keys are read
     * @throws DashboardException INVALID_CONFIG when the config is not valid YAML or has a malformed application list
     */
    public void put(ClusterKey cluster, String headUid, String serveConfigV2, Map<String, String> simAnnotations) {
        Map<String, JsonNode> wanted = parse(serveConfigV2);
        Duration deployTime = deployTime(simAnnotations);
        Map<String, String> overrides = overrides(simAnnotations);
        Instant now = clock.now();
        synchronized (tables) {
            Table old = tables.get(cluster);
            Map<String, SimApp> previous = old == null || !Objects.equals(old.headUid(), headUid)
                    ? Map.of() : old.apps();
            Map<String, SimApp> apps = new LinkedHashMap<>();
            wanted.forEach((name, cfg) -> {
                SimApp prev = previous.get(name);
                if (prev != null && prev.config().equals(cfg)) {
                    apps.put(name, prev);
                } else {
                    String fin = overrides.getOrDefault(name, overrides.getOrDefault("*", RUNNING));
                    apps.put(name, new SimApp(cfg, now, prev != null, deployTime, fin, deploymentNames(cfg)));
                }
            });
            tables.put(cluster, new Table(headUid, serveConfigV2 == null ? "" : serveConfigV2,
                    Collections.unmodifiableMap(apps)));
        }
    }

    /** The config last PUT to the cluster's current head, or null when none was (or the head changed). */
    public String appliedConfig(ClusterKey cluster, String headUid) {
        synchronized (tables) {
            Table t = tables.get(cluster);
            return t == null || !Objects.equals(t.headUid(), headUid) ? null : t.config();
        }
    }

    /** The applications of the cluster's current head, by name in config order; empty when none. */
    public Map<String, ServeApplication> applications(ClusterKey cluster, String headUid) {
        Map<String, SimApp> apps;
        synchronized (tables) {
            Table t = tables.get(cluster);
            if (t == null || !Objects.equals(t.headUid(), headUid)) {
                return Map.of();
            }
            apps = t.apps();
        }
        Instant now = clock.now();
        Map<String, ServeApplication> out = new LinkedHashMap<>();
        apps.forEach((name, app) -> out.put(name, status(name, app, now)));
        return Collections.unmodifiableMap(out);
    }

    /**
     * Fault injection: every application of the cluster's current deployment turns UNHEALTHY now (its deployments
     * fail their health checks), until a new config is PUT.
     *
     * @return false when the cluster serves no application
     */
    public boolean failAll(ClusterKey cluster) {
        Instant now = clock.now();
        synchronized (tables) {
            Table t = tables.get(cluster);
            if (t == null || t.apps().isEmpty()) {
                return false;
            }
            Map<String, SimApp> apps = new LinkedHashMap<>();
            t.apps().forEach((name, app) -> apps.put(name, new SimApp(app.config(), now.minus(app.deployTime()),
                    app.restarted(), app.deployTime(), UNHEALTHY, app.deploymentNames())));
            tables.put(cluster, new Table(t.headUid(), t.config(), Collections.unmodifiableMap(apps)));
            return true;
        }
    }

    /** Drops the cluster's table (its RayCluster was deleted). */
    public void forget(ClusterKey cluster) {
        synchronized (tables) {
            tables.remove(cluster);
        }
    }

    private static ServeApplication status(String name, SimApp app, Instant now) {
        Duration elapsed = Duration.between(app.deployStart(), now);
        String appStatus;
        String depStatus;
        String appMessage = "";
        String depMessage = "";
        if (elapsed.compareTo(app.deployTime()) >= 0) {
            switch (app.finalStatus()) {
                case DEPLOY_FAILED -> {
                    appStatus = DEPLOY_FAILED;
                    depStatus = UNHEALTHY;
                    appMessage = "Deploying application '" + name + "' failed with exception:\nRuntimeError: "
                            + "simulated failure (" + APP_STATUS_ANNOTATION + ")";
                    depMessage = "The deployment failed to start (simulated).";
                }
                case UNHEALTHY -> {
                    appStatus = UNHEALTHY;
                    depStatus = UNHEALTHY;
                    appMessage = "The application is unhealthy: one or more deployments failed their health "
                            + "check (simulated by " + APP_STATUS_ANNOTATION + ").";
                    depMessage = "Replicas failed the health check (simulated).";
                }
                default -> {
                    appStatus = RUNNING;
                    depStatus = HEALTHY;
                }
            }
        } else if (app.restarted() || elapsed.compareTo(app.deployTime().dividedBy(2)) >= 0) {
            appStatus = DEPLOYING;
            depStatus = UPDATING;
            depMessage = "Deployment is updating (simulated).";
        } else {
            appStatus = NOT_STARTED;
            depStatus = UPDATING;
        }
        Map<String, Deployment> deps = new LinkedHashMap<>();
        for (String d : app.deploymentNames()) {
            deps.put(d, new Deployment(depStatus, depMessage));
        }
        return new ServeApplication(appStatus, appMessage, Collections.unmodifiableMap(deps));
    }

    /** Applications by name: Ray's default name is "default". */
    static Map<String, JsonNode> parse(String serveConfigV2) {
        Map<String, JsonNode> apps = new LinkedHashMap<>();
        if (serveConfigV2 == null || serveConfigV2.isBlank()) {
            return apps;
        }
        JsonNode root;
        try {
            root = Json.YAML.readTree(serveConfigV2);
        } catch (JacksonException e) {
            throw invalid("serveConfigV2 is not valid YAML: " + e.getOriginalMessage());
        }
        if (root == null || root.isNull() || root.isMissingNode()) {
            return apps;
        }
        if (!root.isObject()) {
            throw invalid("serveConfigV2 must be a YAML mapping");
        }
        JsonNode list = root.get("applications");
        if (list == null || list.isNull()) {
            return apps;
        }
        if (!list.isArray()) {
            throw invalid("serveConfigV2: applications must be a list");
        }
        for (JsonNode app : list) {
            if (!app.isObject()) {
                throw invalid("serveConfigV2: each application must be a mapping");
            }
            String name = Json.text(app, "name");
            name = name == null || name.isEmpty() ? "default" : name;
            if (apps.containsKey(name)) {
                throw invalid("serveConfigV2: application names must be unique: " + name);
            }
            apps.put(name, app);
        }
        return apps;
    }

    /** The listed deployments, or one named after the import path's last segment when none are listed. */
    private static List<String> deploymentNames(JsonNode app) {
        List<String> names = new ArrayList<>();
        JsonNode deps = app.get("deployments");
        if (deps != null && deps.isArray()) {
            for (JsonNode d : deps) {
                String n = Json.text(d, "name");
                if (n != null && !n.isEmpty()) {
                    names.add(n);
                }
            }
        }
        if (names.isEmpty()) {
            String importPath = Json.text(app, "import_path");
            String n = importPath == null || importPath.isEmpty() ? "app" : importPath;
            n = n.substring(Math.max(n.lastIndexOf(':'), n.lastIndexOf('.')) + 1);
            names.add(n.isEmpty() ? "app" : n);
        }
        return names;
    }

    private static Duration deployTime(Map<String, String> annotations) {
        String v = annotations == null ? null : annotations.get(DEPLOY_SECONDS_ANNOTATION);
        if (v != null) {
            try {
                double s = Double.parseDouble(v.trim());
                if (s >= 0 && Double.isFinite(s)) {
                    return Duration.ofMillis(Math.round(s * 1000));
                }
            } catch (NumberFormatException ignored) {
                // fall back to the default: a typo in a simulation knob should not break the service
            }
        }
        return Duration.ofSeconds(DEFAULT_DEPLOY_SECONDS);
    }

    private static Map<String, String> overrides(Map<String, String> annotations) {
        String v = annotations == null ? null : annotations.get(APP_STATUS_ANNOTATION);
        Map<String, String> out = new HashMap<>();
        if (v == null || v.isBlank()) {
            return out;
        }
        try {
            JsonNode n = Json.MAPPER.readTree(v);
            if (n != null && n.isObject()) {
                n.properties().forEach(e -> {
                    String s = e.getValue().asString("").toUpperCase(Locale.ROOT);
                    if (s.equals(RUNNING) || s.equals(DEPLOY_FAILED) || s.equals(UNHEALTHY)) {
                        out.put(e.getKey(), s);
                    }
                });
            }
        } catch (JacksonException ignored) {
            // an unreadable override simulates nothing
        }
        return out;
    }

    private static DashboardException invalid(String message) {
        return new DashboardException(DashboardException.Kind.INVALID_CONFIG, message);
    }
}
