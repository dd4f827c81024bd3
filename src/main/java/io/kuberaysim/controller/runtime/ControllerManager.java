package io.kuberaysim.controller.runtime;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.client.WriteGate;
import io.kuberaysim.controller.runtime.cache.SharedInformer;
import io.kuberaysim.controller.runtime.clock.Clock;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Owns the shared informers, event recorders and controllers of one simulated control plane, like
 * controller-runtime's manager.
 *
 * <p>{@link #start()} starts every informer (list, then watch) and then every controller, all on the
 * control loop: the informers' initial lists are applied (and their handlers have enqueued the existing
 * objects) before any controller reconciles. Controllers and informers added after {@code start()}
 * start at once. On a virtual clock every reconcile runs on the loop thread, so runs are deterministic;
 * on a wall clock each controller runs up to {@code concurrency} reconciles in parallel.
 */
public final class ControllerManager implements AutoCloseable {

    /** The field manager of the KubeRay operator's writes (and of its Events). */
    public static final String OPERATOR = "ray-operator";

    private final GenericRegistry registry;
    private final Clock clock;
    private final int concurrency;
    private final KubeClient client;
    private final KubeClient operatorClient;
    private volatile WriteGate operatorWrites = WriteGate.OPEN;
    private final ControllerMetrics metrics;
    private final Map<ResourceType, SharedInformer> informers = new LinkedHashMap<>(); // guarded by this
    private final List<Controller> controllers = new ArrayList<>(); // guarded by this
    private final Map<RecorderKey, EventRecorder> recorders = new ConcurrentHashMap<>();
    private final Map<RecorderKey, EventRecorder> legacyRecorders = new ConcurrentHashMap<>();
    private final AtomicLong eventSuffix = new AtomicLong();
    private boolean started; // guarded by this
    private boolean closed; // guarded by this

    /**
     * @param concurrency parallel reconciles per controller on a wall clock (a virtual clock runs one at a time)
     */
    public ControllerManager(GenericRegistry registry, Clock clock, int concurrency) {
        this(registry, clock, concurrency, ControllerMetrics.NONE);
    }

    /**
     * @param concurrency parallel reconciles per controller on a wall clock (a virtual clock runs one at a time)
     * @param metrics     where controllers and their queues report (controller-runtime's and client-go's metrics)
     */
    public ControllerManager(GenericRegistry registry, Clock clock, int concurrency, ControllerMetrics metrics) {
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency must be at least 1: " + concurrency);
        }
        this.concurrency = concurrency;
        // the operator's controllers write as KubeRay's manager; the simulated cluster's parts name their own
        this.client = new KubeClient(registry, OPERATOR);
        // the gate lets the simulation fail some of the operator's writes (fault injection); Events are not gated
        this.operatorClient = client.gated((verb, type, ns, name) -> operatorWrites.admit(verb, type, ns, name));
    }

    /** The informer of {@code type}, created on first use and shared by every caller. */
    public synchronized SharedInformer informer(ResourceType type) {
        SharedInformer informer = informers.get(type);
        if (informer == null) {
            informer = new SharedInformer(type, registry.reader(), clock);
            informers.put(type, informer);
            if (started) {
                informer.start();
            }
        }
        return informer;
    }

    /**
     * An events.k8s.io/v1 recorder (client-go's {@code tools/events}, what controller-runtime's
     * {@code GetEventRecorder} returns and KubeRay and kube-scheduler use): {@code reportingController} =
     * {@code component}, {@code eventTime} and {@code series}.
     */
    public EventRecorder eventRecorder(String component) {
        return eventRecorder(component, OPERATOR);
    }

    /**
     * {@link #eventRecorder(String)} whose Events are written as {@code fieldManager}: on a cluster an Event is
     * created by the component's own client, so its managedFields name that component (the scheduler's
     * {@code kube-scheduler}), not the operator.
     */
    public EventRecorder eventRecorder(String component, String fieldManager) {
        return recorders.computeIfAbsent(new RecorderKey(component, fieldManager),
                k -> new EventsV1Recorder(writer(fieldManager), clock, component, eventSuffix));
    }

    /**
     * A core/v1 recorder (client-go's {@code tools/record}, used by the kubelet and kube-controller-manager):
     * {@code source.component}, {@code firstTimestamp}/{@code lastTimestamp} and {@code count}.
     */
    public EventRecorder legacyEventRecorder(String component) {
        return legacyEventRecorder(component, OPERATOR);
    }

    /**
     * {@link #legacyEventRecorder(String)} whose Events are written as {@code fieldManager} (the kubelet's as
     * {@code kubelet}, kube-controller-manager's controllers' as {@code kube-controller-manager}).
     */
    public EventRecorder legacyEventRecorder(String component, String fieldManager) {
        return legacyRecorders.computeIfAbsent(new RecorderKey(component, fieldManager),
                k -> new KubeEventRecorder(writer(fieldManager), clock, component, eventSuffix));
    }

    /** One recorder per component and the field manager its Events are written as. */
    private record RecorderKey(String component, String fieldManager) {
    }

    private KubeClient writer(String fieldManager) {
        return fieldManager.equals(OPERATOR) ? client : client.as(fieldManager);
    }

    /** The in-process client controllers write through. */
    public KubeClient client() {
        return client;
    }

    /**
     * The client the KubeRay operator's reconcilers write through: {@link #client()} behind the gate of
     * {@link #gateOperatorWrites}, so fault injection can fail the operator's writes and no one else's.
     */
    public KubeClient operatorClient() {
        return operatorClient;
    }

    /**
     * Puts a gate before every write of {@link #operatorClient()}: the simulation's ApiErrors fault.
     * {@link WriteGate#OPEN} removes it.
     */
    public void gateOperatorWrites(WriteGate gate) {
        this.operatorWrites = Objects.requireNonNull(gate, "gate");
    }

    /** The clock everything runs on. */
    public Clock clock() {
        return clock;
    }

    /** Parallel reconciles per controller on a wall clock. */
    public int concurrency() {
        return concurrency;
    }

    /** Where the controllers built by this manager report. */
    public ControllerMetrics metrics() {
        return metrics;
    }

    /** The informers created so far (each shared by every controller reading its type). */
    public synchronized List<SharedInformer> informers() {
        return List.copyOf(informers.values());
    }

    /** Whether {@link #start()} was called and {@link #close()} was not. */
    public synchronized boolean isRunning() {
        return started && !closed;
    }

    /** Starts describing a controller named {@code name} (used in logs and worker thread names). */
    public ControllerBuilder controller(String name) {
        return new ControllerBuilder(this, name);
    }

    /** Controllers registered so far. */
    public synchronized List<Controller> controllers() {
        return List.copyOf(controllers);
    }

    /**
     * Starts informers, then controllers, on the control loop. When called off the loop it waits until
     * the informers have synced (their first list is in the cache). Calling it again has no effect.
     */
    public void start() {
        List<SharedInformer> toStart;
        synchronized (this) {
            if (started || closed) {
                return;
            }
            started = true;
            toStart = new ArrayList<>(informers.values());
        }
        toStart.forEach(SharedInformer::start);
        CountDownLatch synced = new CountDownLatch(1);
        clock.execute(() -> {
            // Runs after every informer's initial list (FIFO), so the queues already hold the existing objects.
            List<Controller> toRun;
            synchronized (this) {
                toRun = new ArrayList<>(controllers);
            }
            toRun.forEach(Controller::start);
            synced.countDown();
        });
        if (!clock.inLoop()) {
            try {
                if (!synced.await(60, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("informers did not sync within 60 s");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for informers to sync", e);
            }
        }
    }

    /** Registers a controller built by {@link ControllerBuilder}; starts it when the manager runs. */
    void register(Controller controller) {
        boolean startNow;
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("controller manager is closed");
            }
            controllers.add(controller);
            startNow = started;
        }
        if (startNow) {
            // Behind the handlers' replay of cached objects, which is queued on the loop first.
            clock.execute(controller::start);
        }
    }

    /** Stops controllers and informers. */
    @Override
    public void close() {
        List<Controller> cs;
        List<SharedInformer> is;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            cs = new ArrayList<>(controllers);
            is = new ArrayList<>(informers.values());
        }
        cs.forEach(Controller::stop);
        is.forEach(SharedInformer::stop);
    }
}
