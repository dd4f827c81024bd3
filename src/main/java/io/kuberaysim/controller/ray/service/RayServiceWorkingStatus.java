package io.kuberaysim.controller.ray.service;

import io.kuberaysim.controller.ray.GoDuration;
import io.kuberaysim.controller.ray.WorkingStatus;
import io.kuberaysim.api.ray.Condition;
import io.kuberaysim.api.ray.RayServiceConditions;
import io.kuberaysim.api.ray.RayServiceStatus;
import io.kuberaysim.api.ray.RayServiceStatuses;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The RayService status a reconcile pass works on: a mutable copy of {@link RayServiceStatuses} with
 * {@code meta.SetStatusCondition} semantics and KubeRay's {@code calculateConditions}, written as
 * {@link WorkingStatus} says ({@code lastUpdateTime} is the time of the write).
 */
public final class RayServiceWorkingStatus implements WorkingStatus<RayServiceStatuses> {
    /** Ready and UpgradeInProgress message of the first pass. */
    public static final String INITIALIZING_MESSAGE = "RayService is initializing";

    List<Condition> conditions;
    Instant lastUpdateTime;
    String serviceStatus;
    Integer numServeEndpoints;
    Long observedGeneration;
    RayServiceStatus active;
    RayServiceStatus pending;

    /** A working copy of {@code s} (null = a new RayService). */
    public static RayServiceWorkingStatus from(RayServiceStatuses s) {
        RayServiceWorkingStatus w = new RayServiceWorkingStatus();
        w.conditions = s == null || s.conditions() == null ? new ArrayList<>() : new ArrayList<>(s.conditions());
        if (s != null) {
            w.lastUpdateTime = s.lastUpdateTime();
            w.serviceStatus = s.serviceStatus();
            w.numServeEndpoints = s.numServeEndpoints();
            w.observedGeneration = s.observedGeneration();
            w.active = s.activeServiceStatus();
            w.pending = s.pendingServiceStatus();
        }
        return w;
    }

    @Override
    public RayServiceStatuses toStatus(Instant writeTime) {
        lastUpdateTime = writeTime;
        return toRecord();
    }

    /** The status record; empty service statuses are written as absent, as Go's omitempty does. */
    RayServiceStatuses toRecord() {
        return new RayServiceStatuses(conditions.isEmpty() ? null : List.copyOf(conditions), lastUpdateTime,
                serviceStatus, numServeEndpoints, observedGeneration, emptyToNull(active), emptyToNull(pending));
    }

    private static RayServiceStatus emptyToNull(RayServiceStatus s) {
        if (s == null) {
            return null;
        }
        boolean empty = (s.rayClusterName() == null || s.rayClusterName().isEmpty())
                && s.rayClusterStatus() == null && (s.applicationStatuses() == null || s.applicationStatuses().isEmpty())
                && s.targetCapacity() == null && s.trafficRoutedPercent() == null && s.lastTrafficMigratedTime() == null;
        return empty ? null : s;
    }

    /** Name of the active cluster, or null. */
    public String activeName() {
        return name(active);
    }

    /** Name of the pending cluster, or null. */
    public String pendingName() {
        return name(pending);
    }

    private static String name(RayServiceStatus s) {
        return s == null || s.rayClusterName() == null || s.rayClusterName().isEmpty() ? null : s.rayClusterName();
    }

    /** UpgradeInProgress and RollbackInProgress False with {@code reason}, as KubeRay writes them while suspending. */
    void setNoUpgradeOrRollback(String reason, Instant now) {
        setCondition(RayServiceConditions.UPGRADE_IN_PROGRESS, Condition.Status.False, reason,
                "No upgrade in progress.", now);
        setCondition(RayServiceConditions.ROLLBACK_IN_PROGRESS, Condition.Status.False, reason,
                "No rollback in progress.", now);
    }

    /** The condition of a type, or null. */
    public Condition condition(String type) {
        return conditions.stream().filter(c -> type.equals(c.type())).findFirst().orElse(null);
    }

    /** Whether the condition of a type is True. */
    public boolean isTrue(String type) {
        Condition c = condition(type);
        return c != null && c.isTrue();
    }

    /** {@code meta.RemoveStatusCondition}. */
    public void removeCondition(String type) {
        conditions.removeIf(c -> type.equals(c.type()));
    }

    /**
     * Sets a condition as {@code meta.SetStatusCondition} does: lastTransitionTime moves only when the status
     * changes; reason, message and observedGeneration are always refreshed.
     */
    public void setCondition(String type, Condition.Status status, String reason, String message, Instant now) {
        for (int i = 0; i < conditions.size(); i++) {
            Condition c = conditions.get(i);
            if (type.equals(c.type())) {
                Instant t = c.status() == status && c.lastTransitionTime() != null ? c.lastTransitionTime() : now;
                conditions.set(i, new Condition(type, status, observedGeneration, t, reason, message));
                return;
            }
        }
        conditions.add(new Condition(type, status, observedGeneration, now, reason, message));
    }

    /**
     * KubeRay's {@code calculateConditions}: Initializing on the first pass; Ready from the number of serve
     * endpoints; UpgradeInProgress from which clusters exist.
     */
    public void calculateConditions(Instant now) {
        if (conditions.isEmpty()) {
            setCondition(RayServiceConditions.READY, Condition.Status.False, RayServiceConditions.INITIALIZING,
                    INITIALIZING_MESSAGE, now);
            setCondition(RayServiceConditions.UPGRADE_IN_PROGRESS, Condition.Status.False,
                    RayServiceConditions.INITIALIZING, INITIALIZING_MESSAGE, now);
        }
        int endpoints = numServeEndpoints == null ? 0 : numServeEndpoints;
        if (endpoints > 0) {
            setCondition(RayServiceConditions.READY, Condition.Status.True, RayServiceConditions.NON_ZERO_SERVE_ENDPOINTS,
                    "Number of serve endpoints is greater than 0", now);
        } else if (isTrue(RayServiceConditions.READY)) {
            setCondition(RayServiceConditions.READY, Condition.Status.False, RayServiceConditions.ZERO_SERVE_ENDPOINTS,
                    "Number of serve endpoints dropped to 0", now);
        }
        if (activeName() != null && pendingName() != null) {
            setCondition(RayServiceConditions.UPGRADE_IN_PROGRESS, Condition.Status.True,
                    RayServiceConditions.BOTH_ACTIVE_PENDING_CLUSTERS_EXIST, "Both active and pending Ray clusters exist",
                    now);
        } else if (activeName() != null) {
            setCondition(RayServiceConditions.UPGRADE_IN_PROGRESS, Condition.Status.False,
                    RayServiceConditions.NO_PENDING_CLUSTER, "Active Ray cluster exists and no pending Ray cluster", now);
        } else {
            Condition c = condition(RayServiceConditions.UPGRADE_IN_PROGRESS);
            if (c == null || !(RayServiceConditions.INITIALIZING.equals(c.reason())
                    || RayServiceConditions.INITIALIZING_TIMEOUT.equals(c.reason()))) {
                setCondition(RayServiceConditions.UPGRADE_IN_PROGRESS, Condition.Status.Unknown,
                        RayServiceConditions.NO_ACTIVE_CLUSTER,
                        "No active Ray cluster exists, and the RayService is not initializing. Please open a GitHub "
                                + "issue in the KubeRay repository.", now);
            }
        }
        serviceStatus = isTrue(RayServiceConditions.READY) ? RayServiceStatuses.RUNNING : null;
    }

    /**
     * KubeRay's {@code markFailedOnInitializingTimeout}: Ready False/Initializing for at least {@code timeout} →
     * cluster names cleared, Ready False/InitializingTimeout. Returns the time spent initializing when it fired.
     */
    public Duration markFailedOnInitializingTimeout(Duration timeout, Instant now) {
        Condition ready = condition(RayServiceConditions.READY);
        if (timeout == null || ready == null || ready.status() != Condition.Status.False
                || !RayServiceConditions.INITIALIZING.equals(ready.reason()) || ready.lastTransitionTime() == null) {
            return null;
        }
        Duration spent = Duration.between(ready.lastTransitionTime(), now);
        if (spent.compareTo(timeout) < 0) {
            return null;
        }
        active = active == null ? null : new RayServiceStatus(active.applicationStatuses(), null,
                active.rayClusterStatus(), active.targetCapacity(), active.trafficRoutedPercent(),
                active.lastTrafficMigratedTime());
        pending = pending == null ? null : new RayServiceStatus(pending.applicationStatuses(), null,
                pending.rayClusterStatus(), pending.targetCapacity(), pending.trafficRoutedPercent(),
                pending.lastTrafficMigratedTime());
        setCondition(RayServiceConditions.READY, Condition.Status.False, RayServiceConditions.INITIALIZING_TIMEOUT,
                "RayService failed to become ready within the configured timeout of " + GoDuration.format(timeout)
                        + ". Time spent initializing: " + GoDuration.format(spent), now);
        return spent;
    }

    /** {@code isInitializingTimeout}: the terminal Ready False/InitializingTimeout. */
    public boolean initializingTimedOut() {
        Condition ready = condition(RayServiceConditions.READY);
        return ready != null && ready.status() == Condition.Status.False
                && RayServiceConditions.INITIALIZING_TIMEOUT.equals(ready.reason());
    }

    /** Whether {@code other} differs from this status in anything but lastUpdateTime. */
    @Override
    public boolean inconsistentWith(RayServiceStatuses other) {
        RayServiceStatuses mine = toRecord();
        if (other == null) {
            return true;
        }
        RayServiceStatuses a = new RayServiceStatuses(mine.conditions(), null, mine.serviceStatus(),
                mine.numServeEndpoints(), mine.observedGeneration(), mine.activeServiceStatus(),
                mine.pendingServiceStatus());
        RayServiceStatuses b = new RayServiceStatuses(other.conditions(), null, other.serviceStatus(),
                other.numServeEndpoints(), other.observedGeneration(), emptyToNull(other.activeServiceStatus()),
                emptyToNull(other.pendingServiceStatus()));
        return !Objects.equals(a, b);
    }
}
