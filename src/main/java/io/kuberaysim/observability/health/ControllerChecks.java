package io.kuberaysim.observability.health;

import io.kuberaysim.controller.runtime.Controller;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.LeaderElector;
import io.kuberaysim.controller.runtime.cache.SharedInformer;

import java.util.List;
import java.util.Optional;

/** Checks of the controller manager: {@code informer-sync} and {@code controllers}. */
public final class ControllerChecks {
    private ControllerChecks() {
    }

    /**
     * {@code informer-sync}: every informer has applied its first list, as kube-apiserver's check of its own
     * informers; fails until the manager has started and synced.
     */
    public static HealthCheck informerSync(ControllerManager manager) {
        return HealthCheck.of("informer-sync", () -> {
            List<String> waiting = manager.informers().stream().filter(i -> !i.hasSynced())
                    .map(SharedInformer::type).map(t -> t.groupResource()).sorted().toList();
            return waiting.isEmpty() ? Optional.empty()
                    : Optional.of(waiting.size() + " informers not synced yet: " + waiting);
        });
    }

    /** {@code controllers}: the manager runs and every controller it built is running. */
    public static HealthCheck controllers(ControllerManager manager) {
        return HealthCheck.of("controllers", () -> {
            if (!manager.isRunning()) {
                return Optional.of("the controller manager is not running");
            }
            List<String> stopped = manager.controllers().stream().filter(c -> !c.isRunning())
                    .map(Controller::name).sorted().toList();
            return stopped.isEmpty() ? Optional.empty() : Optional.of("controllers not running: " + stopped);
        });
    }

    /** {@code check} while this replica leads; a standby, which runs no controllers, passes it. */
    public static HealthCheck whileLeading(HealthCheck check, LeaderElector elector) {
        return HealthCheck.of(check.name(), () -> elector.isLeading() ? check.failure() : Optional.empty());
    }

    /**
     * {@code leader-election}: fails once this replica lost the Lease it led with (it stopped its controllers and
     * does not stand again), so a supervisor restarts it, as kube-controller-manager exits then.
     */
    public static HealthCheck leaderElection(LeaderElector elector) {
        return HealthCheck.of("leader-election", () -> elector.hasLost()
                ? Optional.of("lost the Lease and stopped the controllers; restart this replica to stand again")
                : Optional.empty());
    }
}
