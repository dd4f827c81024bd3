package io.kuberaysim.controller.runtime.clock;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Real time: {@link #now()} is the UTC system time and the control loop is a single-threaded
 * scheduled executor whose thread is named {@value VirtualClock#LOOP_THREAD_NAME}.
 */
public final class WallClock implements Clock, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(WallClock.class);

    private final java.time.Clock system = java.time.Clock.systemUTC();
    private final Instant startTime;
    private final ScheduledThreadPoolExecutor loop;
    private volatile Thread loopThread;

    /** A wall clock whose control loop starts immediately. */
    public WallClock() {
        this.startTime = system.instant();
        this.loop = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, VirtualClock.LOOP_THREAD_NAME);
            t.setDaemon(true);
            loopThread = t;
            return t;
        });
        // Cancelled timers would otherwise stay in the executor's queue until their due time.
        this.loop.setRemoveOnCancelPolicy(true);
        this.loop.prestartCoreThread();
    }

    @Override
    public Instant now() {
        return system.instant();
    }

    @Override
    public Instant startTime() {
        return startTime;
    }

    @Override
    public String mode() {
        return MODE_WALL;
    }

    @Override
    public void execute(Runnable task) {
        Objects.requireNonNull(task, "task");
        if (loop.isShutdown()) {
            log.debug("wall clock closed; dropping task {}", task);
            return;
        }
        loop.execute(guarded(task));
    }

    @Override
    public Cancellable schedule(Duration delay, Runnable task) {
        Objects.requireNonNull(delay, "delay");
        Objects.requireNonNull(task, "task");
        if (loop.isShutdown()) {
            log.debug("wall clock closed; dropping timer {}", task);
            return () -> { };
        }
        long nanos = delay.isNegative() ? 0 : saturatedNanos(delay);
        ScheduledFuture<?> future = loop.schedule(guarded(task), nanos, TimeUnit.NANOSECONDS);
        return () -> future.cancel(false);
    }

    @Override
    public boolean inLoop() {
        return Thread.currentThread() == loopThread;
    }

    /** Stops the control loop; tasks not yet started are dropped. */
    @Override
    public void close() {
        loop.shutdownNow();
    }

    /** Logs a failing task instead of letting the executor hide the exception in a future. */
    private static Runnable guarded(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (Throwable t) {
                log.error("task on the control loop failed: {}", task, t);
            }
        };
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }
}
