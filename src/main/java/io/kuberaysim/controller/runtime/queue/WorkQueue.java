package io.kuberaysim.controller.runtime.queue;

import io.kuberaysim.controller.runtime.clock.Cancellable;
import io.kuberaysim.controller.runtime.clock.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A work queue with client-go semantics (plain, delaying and rate-limiting queue in one), timed by a
 * {@link Clock}.
 *
 * <ul>
 *   <li>An item is queued at most once: adding an item that is already waiting is a no-op.</li>
 *   <li>An item handed out by {@link #poll()} is "processing" until {@link #done(Object)}. Adding it
 *       meanwhile marks it dirty; it is queued again when {@code done} is called, so the same item is
 *       never processed by two workers at once and no change is lost.</li>
 *   <li>{@link #addAfter(Object, Duration)} adds the item when the delay has passed on the clock. If the
 *       item is already waiting with an earlier deadline, the earlier deadline is kept.</li>
 *   <li>{@link #addRateLimited(Object)} waits as long as the {@link RateLimiter} says;
 *       {@link #forget(Object)} clears the item's failure history.</li>
 * </ul>
 *
 * <p>The queue does not block: {@link #poll()} returns {@code null} when nothing is available, and
 * {@link #onReady(Runnable)} listeners are told whenever an item becomes available, so a controller
 * can schedule work on the clock's loop instead of parking a thread. All methods are thread-safe.
 *
 * @param <T> item type; must have value-based {@code equals}/{@code hashCode}
 */
public final class WorkQueue<T> {

    private static final Logger log = LoggerFactory.getLogger(WorkQueue.class);

    private final String name;
    private final Clock clock;
    private final RateLimiter<T> rateLimiter;
    private final QueueMetrics metrics;
    private final List<Runnable> readyListeners = new CopyOnWriteArrayList<>();

    // Guarded by `this`.
    private final Deque<T> queue = new ArrayDeque<>();
    private final Set<T> dirty = new HashSet<>();
    private final Set<T> processing = new HashSet<>();
    private final Map<T, Waiting> waiting = new HashMap<>();
    private boolean shuttingDown;

    /** A queue backing off with the controller-runtime default limiter (5 ms doubling up to 1000 s). */
    public WorkQueue(String name, Clock clock) {
        this(name, clock, new ItemExponentialFailureRateLimiter<>());
    }

    /** A queue backing off as {@code rateLimiter} says. */
    public WorkQueue(String name, Clock clock, RateLimiter<T> rateLimiter) {
        this(name, clock, rateLimiter, QueueMetrics.NONE);
    }

    /** A queue backing off as {@code rateLimiter} says and reporting to {@code metrics}. */
    public WorkQueue(String name, Clock clock, RateLimiter<T> rateLimiter, QueueMetrics metrics) {
        this.name = Objects.requireNonNull(name, "name");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.rateLimiter = Objects.requireNonNull(rateLimiter, "rateLimiter");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    /** Name used in logs. */
    public String name() {
        return name;
    }

    /** Queues {@code item} unless it is already queued; marks it dirty if it is being processed. */
    public void add(T item) {
        Objects.requireNonNull(item, "item");
        boolean becameReady;
        synchronized (this) {
            becameReady = addLocked(item);
        }
        if (becameReady) {
            fireReady();
        }
    }

    private boolean addLocked(T item) {
        if (shuttingDown || dirty.contains(item)) {
            return false;
        }
        dirty.add(item);
        if (processing.contains(item)) {
            // Re-queued by done(): processing the same item twice in parallel would race.
            return false;
        }
        queue.addLast(item);
        metrics.added(item);
        return true;
    }

    /**
     * Hands out the next item and marks it processing, or returns {@code null} when none is queued.
     * The caller must call {@link #done(Object)} when finished with it.
     */
    public synchronized T poll() {
        T item = queue.pollFirst();
        if (item == null) {
            return null;
        }
        processing.add(item);
        dirty.remove(item);
        metrics.taken(item);
        return item;
    }

    /** Marks {@code item} as no longer processing; re-queues it if it was added meanwhile. */
    public void done(T item) {
        Objects.requireNonNull(item, "item");
        boolean becameReady = false;
        synchronized (this) {
            metrics.done(item);
            processing.remove(item);
            if (dirty.contains(item)) {
                queue.addLast(item);
                metrics.added(item);
                becameReady = true;
            }
        }
        if (becameReady) {
            fireReady();
        }
    }

    /**
     * Adds {@code item} once {@code delay} has passed on the clock; a zero or negative delay adds it now.
     * If the item is already waiting for an earlier time, that earlier time wins.
     */
    public void addAfter(T item, Duration delay) {
        Objects.requireNonNull(item, "item");
        Objects.requireNonNull(delay, "delay");
        if (isShuttingDown()) {
            return;
        }
        metrics.retried(item); // client-go counts every delayed add as a retry, requeueAfter included
        if (delay.isNegative() || delay.isZero()) {
            add(item);
            return;
        }
        synchronized (this) {
            if (shuttingDown) {
                return;
            }
            Instant readyAt = clock.now().plus(delay);
            Waiting existing = waiting.get(item);
            if (existing != null) {
                if (!readyAt.isBefore(existing.readyAt())) {
                    return;
                }
                existing.timer().cancel();
            }
            Waiting entry = new Waiting(readyAt, new TimerSlot());
            waiting.put(item, entry);
            // The clock may run the task on another thread at any time after schedule returns; the slot
            // lets the task recognise whether it is still the current deadline for the item.
            entry.timer().set(clock.schedule(delay, () -> fireWaiting(item, entry)));
        }
    }

    private void fireWaiting(T item, Waiting entry) {
        synchronized (this) {
            if (waiting.get(item) != entry) {
                return; // superseded by an earlier deadline
            }
            waiting.remove(item);
        }
        add(item);
    }

    /** Adds {@code item} after the backoff its rate limiter assigns to one more failure. */
    public void addRateLimited(T item) {
        Objects.requireNonNull(item, "item");
        addAfter(item, rateLimiter.when(item));
    }

    /** Clears {@code item}'s failure history so its next rate-limited add starts from the base delay. */
    public void forget(T item) {
        rateLimiter.forget(item);
    }

    /** Failures recorded for {@code item} since it was last forgotten. */
    public int numRequeues(T item) {
        return rateLimiter.numRequeues(item);
    }

    /** Number of items ready to be polled (not counting items processing or waiting for a delay). */
    public synchronized int len() {
        return queue.size();
    }

    /** Number of items waiting for an {@link #addAfter} deadline. */
    public synchronized int waitingCount() {
        return waiting.size();
    }

    /** Whether {@code item} is currently handed out and not yet {@link #done(Object) done}. */
    public synchronized boolean isProcessing(T item) {
        return processing.contains(item);
    }

    /**
     * Stops accepting items and drops delayed ones. Items already queued can still be polled, as with
     * client-go, so a worker can finish what it was given.
     */
    public void shutDown() {
        List<Waiting> dropped;
        synchronized (this) {
            shuttingDown = true;
            dropped = new ArrayList<>(waiting.values());
            waiting.clear();
        }
        dropped.forEach(w -> w.timer().cancel());
    }

    /** Whether {@link #shutDown()} was called. */
    public synchronized boolean isShuttingDown() {
        return shuttingDown;
    }

    /** Registers {@code listener} to be called (on the adding thread) whenever an item becomes ready. */
    public void onReady(Runnable listener) {
        readyListeners.add(Objects.requireNonNull(listener, "listener"));
    }

    private void fireReady() {
        for (Runnable listener : readyListeners) {
            try {
                listener.run();
            } catch (RuntimeException e) {
                log.error("ready listener of queue {} failed", name, e);
            }
        }
    }

    private record Waiting(Instant readyAt, TimerSlot timer) {
    }

    /** Holds a timer handle that only exists once {@code schedule} returns; cancel before that is kept. */
    private static final class TimerSlot implements Cancellable {
        private Cancellable handle;
        private boolean cancelled;

        synchronized void set(Cancellable h) {
            handle = h;
            if (cancelled) {
                h.cancel();
            }
        }

        @Override
        public synchronized void cancel() {
            cancelled = true;
            if (handle != null) {
                handle.cancel();
            }
        }
    }
}
