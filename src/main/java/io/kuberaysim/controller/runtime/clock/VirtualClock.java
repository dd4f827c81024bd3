package io.kuberaysim.controller.runtime.clock;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Deque;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A deterministic discrete-event clock.
 *
 * <p>One daemon thread named {@value #LOOP_THREAD_NAME} runs every task. Tasks handed to
 * {@link #execute(Runnable)} run at once, in FIFO order, without the clock moving. Timers from
 * {@link #schedule(Duration, Runnable)} fire only when time is moved with {@link #advance(Duration)},
 * in order of due time and then of scheduling order, and each timer and all the work it causes
 * runs to quiescence before the next one fires. Given the same inputs a run therefore produces the
 * same sequence of events on every execution, independent of thread timing. (Inputs from other
 * threads race with the loop like any concurrent input; a driver that wants a reproducible run submits
 * from one thread and calls {@link #awaitIdle()} or {@link #advance(Duration)} between inputs.)
 *
 * <p>For interactive use, {@link #startFollowingWallClock(double)} moves virtual time continuously
 * from a background thread.
 */
public final class VirtualClock implements Clock, AutoCloseable {

    /** Name of the control-loop thread. */
    public static final String LOOP_THREAD_NAME = "kuberay-sim-loop";

    /** Start instant used by {@link #VirtualClock()}: fixed so that runs are reproducible. */
    public static final Instant DEFAULT_START = Instant.parse("2025-01-01T00:00:00Z");

    /** How often the wall-clock follower moves virtual time. */
    private static final Duration FOLLOW_TICK = Duration.ofMillis(10);

    private static final Logger log = LoggerFactory.getLogger(VirtualClock.class);

    private final Instant startTime;
    private final Thread loopThread;

    // All fields below are guarded by `lock`.
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition workAvailable = lock.newCondition();
    private final Condition idle = lock.newCondition();
    private final Deque<Runnable> ready = new ArrayDeque<>();
    private final TreeSet<Timer> timers =
            new TreeSet<>(Comparator.comparing(Timer::due).thenComparingLong(Timer::seq));
    private Instant now;
    private long nextSeq;
    private boolean busy;
    private boolean closed;

    // Serializes advances: a test thread and the wall-clock follower may both move time.
    private final ReentrantLock advanceLock = new ReentrantLock();

    private final Object followerGuard = new Object();
    private ScheduledExecutorService follower; // guarded by followerGuard

    /** A virtual clock starting at {@link #DEFAULT_START}. */
    public VirtualClock() {
        this(DEFAULT_START);
    }

    /** A virtual clock starting at {@code start}. */
    public VirtualClock(Instant start) {
        this.startTime = Objects.requireNonNull(start, "start");
        this.now = start;
        this.loopThread = new Thread(this::runLoop, LOOP_THREAD_NAME);
        this.loopThread.setDaemon(true);
        this.loopThread.start();
    }

    @Override
    public Instant now() {
        lock.lock();
        try {
            return now;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Instant startTime() {
        return startTime;
    }

    @Override
    public String mode() {
        return MODE_VIRTUAL;
    }

    @Override
    public void execute(Runnable task) {
        Objects.requireNonNull(task, "task");
        lock.lock();
        try {
            if (closed) {
                log.debug("virtual clock closed; dropping task {}", task);
                return;
            }
            ready.addLast(task);
            workAvailable.signal();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Cancellable schedule(Duration delay, Runnable task) {
        Objects.requireNonNull(delay, "delay");
        Objects.requireNonNull(task, "task");
        if (delay.isNegative() || delay.isZero()) {
            // Work due now runs at once; only future work waits for the clock to move.
            CancellableTask wrapper = new CancellableTask(task);
            execute(wrapper);
            return wrapper;
        }
        lock.lock();
        try {
            Timer timer = new Timer(now.plus(delay), nextSeq++, task);
            if (!closed) {
                timers.add(timer);
            }
            return () -> {
                lock.lock();
                try {
                    timers.remove(timer);
                } finally {
                    lock.unlock();
                }
            };
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean inLoop() {
        return Thread.currentThread() == loopThread;
    }

    /**
     * Moves virtual time forward by {@code d}: runs everything due now to quiescence, then, instant by
     * instant up to the target, sets {@link #now()} to the instant, fires the timers due then in scheduling
     * order and runs everything they cause to quiescence; finally sets the time to the target. Blocks
     * until done.
     *
     * @return the new current time
     * @throws IllegalStateException when called from the control-loop thread (it would wait for itself)
     */
    public Instant advance(Duration d) {
        Objects.requireNonNull(d, "d");
        if (d.isNegative()) {
            throw new IllegalArgumentException("cannot move virtual time backwards: " + d);
        }
        requireNotInLoop("advance");
        advanceLock.lock();
        try {
            awaitIdle();
            Instant target;
            lock.lock();
            try {
                target = now.plus(d);
            } finally {
                lock.unlock();
            }
            while (fireNextTimerUpTo(target)) {
                awaitIdle();
            }
            lock.lock();
            try {
                if (now.isBefore(target)) {
                    now = target;
                }
                return now;
            } finally {
                lock.unlock();
            }
        } finally {
            advanceLock.unlock();
        }
    }

    /**
     * Pops every timer due at the earliest instant at or before {@code target}, moves time to it and queues
     * them in scheduling order. Timers of one instant all fire before the work they cause, as simultaneous
     * changes reach informers together on a real cluster (a reconcile then sees both pods ready at once).
     */
    private boolean fireNextTimerUpTo(Instant target) {
        lock.lock();
        try {
            if (closed || timers.isEmpty() || timers.first().due().isAfter(target)) {
                return false;
            }
            Instant due = timers.first().due();
            if (due.isAfter(now)) {
                now = due;
            }
            while (!timers.isEmpty() && timers.first().due().equals(due)) {
                ready.addLast(timers.pollFirst().task());
            }
            workAvailable.signal();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Blocks until no task is runnable: the ready queue is empty and the loop is not running a task.
     * Timers in the future may remain.
     *
     * @throws IllegalStateException when called from the control-loop thread
     */
    public void awaitIdle() {
        requireNotInLoop("awaitIdle");
        lock.lock();
        try {
            while ((busy || !ready.isEmpty()) && !closed) {
                idle.await();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the control loop", e);
        } finally {
            lock.unlock();
        }
    }

    /** Due time of the earliest pending timer, if any. */
    public Optional<Instant> nextTimer() {
        lock.lock();
        try {
            return timers.isEmpty() ? Optional.empty() : Optional.of(timers.first().due());
        } finally {
            lock.unlock();
        }
    }

    /** Number of timers waiting for time to move. */
    public int pendingTimers() {
        lock.lock();
        try {
            return timers.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Starts moving virtual time continuously at {@code speed} times wall time from a background
     * thread, for interactive use. Replaces a follower already running.
     */
    public void startFollowingWallClock(double speed) {
        if (!(speed > 0) || Double.isInfinite(speed)) {
            throw new IllegalArgumentException("speed must be a positive finite number: " + speed);
        }
        synchronized (followerGuard) {
            stopFollowingWallClock();
            ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "kuberay-sim-clock-follower");
                t.setDaemon(true);
                return t;
            });
            WallFollower tick = new WallFollower(speed);
            executor.scheduleWithFixedDelay(tick, 0, FOLLOW_TICK.toNanos(), TimeUnit.NANOSECONDS);
            follower = executor;
        }
    }

    /** Stops moving virtual time with the wall clock; virtual time then moves only via {@link #advance}. */
    public void stopFollowingWallClock() {
        synchronized (followerGuard) {
            if (follower != null) {
                follower.shutdownNow();
                follower = null;
            }
        }
    }

    /** Whether a wall-clock follower is running. */
    public boolean isFollowingWallClock() {
        synchronized (followerGuard) {
            return follower != null;
        }
    }

    /** Stops the follower and the control loop; pending tasks and timers are dropped. */
    @Override
    public void close() {
        stopFollowingWallClock();
        lock.lock();
        try {
            closed = true;
            ready.clear();
            timers.clear();
            workAvailable.signalAll();
            idle.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void runLoop() {
        while (true) {
            Runnable task;
            lock.lock();
            try {
                while (ready.isEmpty() && !closed) {
                    workAvailable.awaitUninterruptibly();
                }
                if (closed) {
                    return;
                }
                task = ready.pollFirst();
                busy = true;
            } finally {
                lock.unlock();
            }
            try {
                task.run();
            } catch (Throwable t) {
                // One faulty task must not stop the simulated cluster.
                log.error("task on the control loop failed: {}", task, t);
            } finally {
                lock.lock();
                try {
                    busy = false;
                    if (ready.isEmpty()) {
                        idle.signalAll();
                    }
                } finally {
                    lock.unlock();
                }
            }
        }
    }

    private void requireNotInLoop(String operation) {
        if (inLoop()) {
            throw new IllegalStateException(operation + " must not be called from the control-loop thread");
        }
    }

    private record Timer(Instant due, long seq, Runnable task) {
    }

    /** A due-now task that can still be withdrawn while it waits in the ready queue. */
    private static final class CancellableTask implements Runnable, Cancellable {
        private final Runnable task;
        private volatile boolean cancelled;

        CancellableTask(Runnable task) {
            this.task = task;
        }

        @Override
        public void run() {
            if (!cancelled) {
                task.run();
            }
        }

        @Override
        public void cancel() {
            cancelled = true;
        }

        @Override
        public String toString() {
            return task.toString();
        }
    }

    /** Moves virtual time by the scaled wall time elapsed since the previous tick. */
    private final class WallFollower implements Runnable {
        private final double speed;
        private long lastNanos = System.nanoTime();
        private double carryNanos;

        WallFollower(double speed) {
            this.speed = speed;
        }

        @Override
        public void run() {
            long nowNanos = System.nanoTime();
            double scaled = (nowNanos - lastNanos) * speed + carryNanos;
            lastNanos = nowNanos;
            long whole = (long) scaled;
            carryNanos = scaled - whole;
            try {
                advance(Duration.ofNanos(whole));
            } catch (RuntimeException e) {
                log.warn("wall-clock follower could not advance virtual time", e);
            }
        }
    }
}
