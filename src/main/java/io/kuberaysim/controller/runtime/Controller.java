package io.kuberaysim.controller.runtime;

import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.queue.ItemExponentialFailureRateLimiter;
import io.kuberaysim.controller.runtime.queue.RateLimiter;
import io.kuberaysim.controller.runtime.queue.WorkQueue;
import io.kuberaysim.controller.runtime.reconcile.Reconciler;
import io.kuberaysim.controller.runtime.reconcile.Request;
import io.kuberaysim.controller.runtime.reconcile.Result;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Feeds {@link Request}s from a {@link WorkQueue} to a {@link Reconciler} and maps each
 * {@link Result} back onto the queue the way controller-runtime does:
 * <ul>
 *   <li>exception → {@code addRateLimited} (backoff grows per consecutive failure) and a report to
 *   {@link ReconcileFailures} (one Warning Event and one escaped log line per distinct cause);</li>
 *   <li>{@code requeueAfter > 0} → {@code forget} and {@code addAfter};</li>
 *   <li>{@code requeue} → {@code addRateLimited};</li>
 *   <li>otherwise → {@code forget}.</li>
 * </ul>
 * The request is always marked {@code done}, so a request enqueued while it was being reconciled is
 * reconciled exactly once more afterwards.
 *
 * <p>On a {@value Clock#MODE_VIRTUAL} clock every reconcile runs on the control-loop thread, one at a
 * time, so a simulation is deterministic. On a {@value Clock#MODE_WALL} clock up to
 * {@code maxConcurrentReconciles} reconciles run in parallel on a worker pool; the queue still never
 * hands the same request to two workers at once. Requests enqueued before {@link #start()} wait.
 */
public final class Controller {

    private final String name;
    private final Clock clock;
    private final Reconciler reconciler;
    private final WorkQueue<Request> queue;
    private final ReconcileMetrics metrics;
    private final int maxConcurrentReconciles;
    private final boolean onLoop;
    private final ReconcileFailures failures;

    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final AtomicBoolean started = new AtomicBoolean();
    private volatile boolean running;
    private volatile ExecutorService workers;
    private int active; // reconciles in flight on the worker pool; touched only on the control loop

    /** A controller running one reconcile at a time, backing off with the controller-runtime defaults. */
    public Controller(String name, Clock clock, Reconciler reconciler) {
        this(name, clock, reconciler, 1);
    }

    /** A controller backing off with the controller-runtime defaults (5 ms doubling up to 1000 s). */
    public Controller(String name, Clock clock, Reconciler reconciler, int maxConcurrentReconciles) {
        this(name, clock, reconciler, maxConcurrentReconciles, new ItemExponentialFailureRateLimiter<>());
    }

    /** A controller whose requeues back off as {@code rateLimiter} says. */
    public Controller(String name, Clock clock, Reconciler reconciler, int maxConcurrentReconciles,
            RateLimiter<Request> rateLimiter) {
        this(name, clock, reconciler, maxConcurrentReconciles, rateLimiter, ControllerMetrics.NONE);
    }

    /** A controller whose requeues back off as {@code rateLimiter} says, reporting to {@code metrics}. */
    public Controller(String name, Clock clock, Reconciler reconciler, int maxConcurrentReconciles,
            RateLimiter<Request> rateLimiter, ControllerMetrics metrics) {
        this(name, clock, reconciler, maxConcurrentReconciles, rateLimiter, metrics, ReconcileFailures.logOnly(name));
    }

    /** A controller that also reports failed reconciles to {@code failures} (Warning Events on the objects). */
    Controller(String name, Clock clock, Reconciler reconciler, int maxConcurrentReconciles,
            RateLimiter<Request> rateLimiter, ControllerMetrics metrics, ReconcileFailures failures) {
        this.failures = Objects.requireNonNull(failures, "failures");
        this.name = Objects.requireNonNull(name, "name");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.reconciler = Objects.requireNonNull(reconciler, "reconciler");
        if (maxConcurrentReconciles < 1) {
            throw new IllegalArgumentException("maxConcurrentReconciles must be at least 1: " + maxConcurrentReconciles);
        }
        this.maxConcurrentReconciles = maxConcurrentReconciles;
        this.onLoop = Clock.MODE_VIRTUAL.equals(clock.mode());
        this.queue = new WorkQueue<>(name, clock, rateLimiter, metrics.queue(name));
        this.metrics = metrics.reconciles(name, onLoop ? 1 : maxConcurrentReconciles);
        this.queue.onReady(this::scheduleDrain);
    }

    /** Name used in logs. */
    public String name() {
        return name;
    }

    /** The controller's queue, for event handlers that need {@code addAfter} or inspection. */
    public WorkQueue<Request> queue() {
        return queue;
    }

    /** Upper bound of parallel reconciles on a wall clock (always 1 on a virtual clock). */
    public int maxConcurrentReconciles() {
        return maxConcurrentReconciles;
    }

    /** Asks for {@code request} to be reconciled; duplicates of a queued request collapse into one. */
    public void enqueue(Request request) {
        queue.add(request);
    }

    /** Starts handing queued requests to the reconciler. Calling it again has no effect. */
    public void start() {
        if (!started.compareAndSet(false, true)) {
            return;
        }
        if (!onLoop) {
            AtomicInteger n = new AtomicInteger();
            workers = Executors.newFixedThreadPool(maxConcurrentReconciles, r -> {
                Thread t = new Thread(r, name + "-worker-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
        }
        running = true;
        scheduleDrain();
    }

    /**
     * Stops the controller for good: the queue stops accepting requests and nothing new is started.
     * Reconciles already running finish.
     */
    public void stop() {
        running = false;
        queue.shutDown();
        ExecutorService pool = workers;
        if (pool != null) {
            pool.shutdown();
        }
    }

    /** Whether the controller was started and not stopped. */
    public boolean isRunning() {
        return running;
    }

    private void scheduleDrain() {
        if (running && drainScheduled.compareAndSet(false, true)) {
            clock.execute(this::drain);
        }
    }

    /** Runs on the control loop. */
    private void drain() {
        drainScheduled.set(false);
        if (!running) {
            return;
        }
        if (onLoop) {
            // Every request queued when the drain starts is handled in this task: changes that happened at
            // one instant (e.g. several pods becoming ready) are all written before other controllers react,
            // as they would be on a cluster where the informers deliver them together. Requests added
            // meanwhile wait for the next drain, so the loop stays fair.
            int batch = queue.len();
            for (int i = 0; i < batch; i++) {
                Request request = queue.poll();
                if (request == null) {
                    break;
                }
                process(request);
            }
            if (queue.len() > 0) {
                scheduleDrain();
            }
            return;
        }
        while (active < maxConcurrentReconciles) {
            Request request = queue.poll();
            if (request == null) {
                return;
            }
            active++;
            try {
                workers.execute(() -> {
                    try {
                        process(request);
                    } finally {
                        clock.execute(this::workerFinished);
                    }
                });
            } catch (RuntimeException e) {
                // The pool was shut down by stop(); give the request back so the queue stays consistent.
                active--;
                queue.done(request);
                return;
            }
        }
    }

    /** Runs on the control loop when a pool worker is free again. */
    private void workerFinished() {
        active--;
        scheduleDrain();
    }

    private void process(Request request) {
        long mark = metrics.started();
        ReconcileMetrics.Outcome outcome = ReconcileMetrics.Outcome.ERROR;
        try {
            Result result;
            try {
                result = reconciler.reconcile(request);
            } catch (Throwable t) {
                // Like controller-runtime's panic recovery: a failing reconcile is retried with backoff, for this
                // key alone, and never stops the controller; the object gets a Warning Event per distinct cause.
                failures.failed(request, t, queue.numRequeues(request));
                queue.addRateLimited(request);
                return;
            }
            failures.succeeded(request);
            if (result == null) {
                result = Result.done();
            }
            if (result.requeueAfter().compareTo(Duration.ZERO) > 0) {
                outcome = ReconcileMetrics.Outcome.REQUEUE_AFTER;
                queue.forget(request);
                queue.addAfter(request, result.requeueAfter());
            } else if (result.requeue()) {
                outcome = ReconcileMetrics.Outcome.REQUEUE;
                queue.addRateLimited(request);
            } else {
                outcome = ReconcileMetrics.Outcome.SUCCESS;
                queue.forget(request);
            }
        } finally {
            queue.done(request);
            metrics.finished(mark, outcome);
        }
    }

    @Override
    public String toString() {
        return "Controller[" + name + "]";
    }
}
