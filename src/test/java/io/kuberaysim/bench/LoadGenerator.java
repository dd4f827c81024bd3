package io.kuberaysim.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Closed-loop load: {@code connections} keep-alive connections, one thread each, sending requests back to
 * back for a fixed time. The same generator drives every server, so throughput figures compare like with like.
 */
final class LoadGenerator {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private LoadGenerator() {
    }

    /** Produces the request a worker sends next; {@code seq} counts that worker's requests. */
    @FunctionalInterface
    interface RequestSource {
        HttpConnection.Request next(int worker, long seq);
    }

    /**
     * Completed requests per second over {@code seconds}, failures (non-2xx or I/O), the first failure seen, and the
     * CPU time the generator's own threads used (it shares the machine with the server it measures).
     */
    record Result(double perSecond, long completed, double seconds, long failures, String firstFailure,
                  long generatorCpuNanos) {
    }

    static Result run(int port, int connections, Duration duration, RequestSource source) {
        return run(port, "", connections, duration, source);
    }

    /** As {@link #run(int, int, Duration, RequestSource)}, with header lines added to every request. */
    static Result run(int port, String extraHeaders, int connections, Duration duration, RequestSource source) {
        CountDownLatch start = new CountDownLatch(1);
        AtomicLong completed = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        AtomicReference<String> firstFailure = new AtomicReference<>();
        AtomicLong cpu = new AtomicLong();
        long[] bounds = new long[2];
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < connections; w++) {
            int worker = w;
            Thread t = new Thread(() -> {
                long cpu0 = THREADS.getCurrentThreadCpuTime();
                long ok = 0;
                long bad = 0;
                try (HttpConnection c = new HttpConnection(port, extraHeaders)) {
                    start.await();
                    long deadline = bounds[1];
                    long seq = 0;
                    while (System.nanoTime() < deadline) {
                        HttpConnection.Request r = source.next(worker, seq++);
                        try {
                            HttpConnection.Response resp = c.exchange(r, false);
                            if (resp.status() / 100 == 2) {
                                ok++;
                            } else {
                                bad++;
                                firstFailure.compareAndSet(null, r.method() + " " + r.path() + " -> " + resp.status());
                            }
                        } catch (Exception e) {
                            bad++;
                            firstFailure.compareAndSet(null, r.method() + " " + r.path() + " -> " + e);
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                completed.addAndGet(ok);
                failures.addAndGet(bad);
                cpu.addAndGet(THREADS.getCurrentThreadCpuTime() - cpu0);
            }, "load-" + w);
            threads.add(t);
            t.start();
        }
        bounds[0] = System.nanoTime();
        bounds[1] = bounds[0] + duration.toNanos();
        start.countDown();
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        double seconds = (System.nanoTime() - bounds[0]) / 1e9;
        return new Result(completed.get() / seconds, completed.get(), seconds, failures.get(), firstFailure.get(),
                cpu.get());
    }

    /** Sends {@code count} requests over {@code connections} connections (for preloading), failing on any error. */
    static void send(int port, int connections, int count, RequestSource source) {
        AtomicLong next = new AtomicLong();
        AtomicReference<Throwable> error = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < connections; w++) {
            int worker = w;
            Thread t = new Thread(() -> {
                try (HttpConnection c = new HttpConnection(port)) {
                    long i;
                    while ((i = next.getAndIncrement()) < count && error.get() == null) {
                        HttpConnection.Request r = source.next(worker, i);
                        HttpConnection.Response resp = c.exchange(r, true);
                        if (resp.status() / 100 != 2) {
                            throw new IllegalStateException(r.method() + " " + r.path() + " -> " + resp.status()
                                    + " " + new String(resp.body(), java.nio.charset.StandardCharsets.UTF_8));
                        }
                    }
                } catch (Throwable e) {
                    error.compareAndSet(null, e);
                }
            }, "preload-" + w);
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        if (error.get() != null) {
            throw new IllegalStateException("preload failed", error.get());
        }
    }
}
