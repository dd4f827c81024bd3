package io.kuberaysim.embedded;

import io.kuberaysim.apiserver.gc.GarbageCollector;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.storage.InMemoryObjectStore;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.config.ApiServerWiring;
import io.kuberaysim.config.SimProperties;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import io.kuberaysim.controller.runtime.clock.WallClock;
import io.kuberaysim.sim.SimulatedCluster;

import java.time.Duration;

/**
 * The whole simulator in process without Spring or a port, on a {@link VirtualClock} (or, when asked, the wall
 * clock): the registry, garbage
 * collector, namespace lifecycle and Event expiry the application wires, and a started {@link ControllerManager}
 * with the KubeRay operator and the simulated cluster ({@link SimulatedCluster#withOperator}), as the application
 * composes them. Starting one costs milliseconds, so scenarios and tests take a fresh one per run.
 */
public final class EmbeddedSimulator implements AutoCloseable {
    private final Clock clock;
    private final GenericRegistry registry;
    private final ApiServerCore core;
    private final ControllerManager manager;
    private final SimulatedCluster cluster;

    private EmbeddedSimulator(SimProperties props) {
        clock = props.virtual() ? new VirtualClock(props.virtualStart()) : new WallClock();
        ObjectStore store = new InMemoryObjectStore(props.watchHistory());
        registry = ApiServerWiring.registry(store, clock, props);
        manager = new ControllerManager(registry, clock, props.reconcileConcurrency());
        // as the application: the collector's Warning Events go through the controllers' recorders, when on
        core = new ApiServerCore(registry, clock,
                props.controllers() ? manager.legacyEventRecorder(GarbageCollector.COMPONENT, GarbageCollector.FIELD_MANAGER) : null);
        cluster = props.controllers() ? SimulatedCluster.withOperator(manager, props.simulation(), props.operator())
                : null;
        manager.start();
        settle();
    }

    /** A started simulator with these settings. */
    public static EmbeddedSimulator start(SimProperties props) {
        return new EmbeddedSimulator(props);
    }

    /** A started simulator with the application's defaults on the virtual clock. */
    public static EmbeddedSimulator start() {
        return start(SimProperties.defaults("virtual", null));
    }

    /** A client of the API in process (no field manager). */
    public KubeClient client() {
        return manager.client();
    }

    public Clock clock() {
        return clock;
    }

    /**
     * The virtual clock that drives everything.
     *
     * @throws IllegalStateException on the wall clock, which nobody moves
     */
    public VirtualClock virtualClock() {
        if (clock instanceof VirtualClock v) {
            return v;
        }
        throw new IllegalStateException("the simulator runs on the wall clock; only a virtual clock can be moved");
    }

    public GenericRegistry registry() {
        return registry;
    }

    public ObjectStore store() {
        return registry.store();
    }

    public ControllerManager manager() {
        return manager;
    }

    /** The simulated cluster with the operator; null when controllers are off. */
    public SimulatedCluster cluster() {
        return cluster;
    }

    /** Runs everything due now to quiescence on the virtual clock (time does not move); nothing on the wall clock. */
    public void settle() {
        if (clock instanceof VirtualClock v) {
            v.awaitIdle();
        }
    }

    /** Moves virtual time, firing every timer due meanwhile, each to quiescence. */
    public void advance(Duration d) {
        virtualClock().advance(d);
    }

    @Override
    public void close() {
        manager.close();
        core.close();
        if (clock instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing the clock: " + e, e);
            }
        }
    }
}
