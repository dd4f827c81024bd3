package io.kuberaysim.controller.runtime.queue;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Per-item exponential backoff: the n-th consecutive failure (counting from 0) waits
 * {@code base × 2^n}, capped at {@code max}, as client-go's {@code ItemExponentialFailureRateLimiter}.
 * The defaults (5 ms, 1000 s) are those controller-runtime uses for reconcile errors.
 *
 * @param <T> item type
 */
public final class ItemExponentialFailureRateLimiter<T> implements RateLimiter<T> {

    /** Backoff of the first failure in the default limiter. */
    public static final Duration DEFAULT_BASE = Duration.ofMillis(5);

    /** Longest backoff of the default limiter. */
    public static final Duration DEFAULT_MAX = Duration.ofSeconds(1000);

    private final Duration base;
    private final Duration max;
    private final Map<T, Integer> failures = new HashMap<>(); // guarded by this

    /** Limiter with the controller-runtime defaults: 5 ms doubling up to 1000 s. */
    public ItemExponentialFailureRateLimiter() {
        this(DEFAULT_BASE, DEFAULT_MAX);
    }

    /** Limiter whose first backoff is {@code base}, doubling up to {@code max}. */
    public ItemExponentialFailureRateLimiter(Duration base, Duration max) {
        this.base = Objects.requireNonNull(base, "base");
        this.max = Objects.requireNonNull(max, "max");
        if (base.isNegative() || max.isNegative()) {
            throw new IllegalArgumentException("backoff durations must not be negative");
        }
    }

    @Override
    public synchronized Duration when(T item) {
        int exp = failures.getOrDefault(item, 0);
        failures.put(item, exp + 1);
        // Computed in floating point so that a long failure streak saturates instead of overflowing.
        double nanos = base.toNanos() * Math.pow(2, exp);
        if (nanos >= saturatedNanos(max)) {
            return max;
        }
        return Duration.ofNanos((long) nanos);
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    @Override
    public synchronized void forget(T item) {
        failures.remove(item);
    }

    @Override
    public synchronized int numRequeues(T item) {
        return failures.getOrDefault(item, 0);
    }
}
