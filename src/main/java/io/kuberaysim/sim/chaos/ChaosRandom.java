package io.kuberaysim.sim.chaos;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.sim.Distribution;
import io.kuberaysim.controller.ray.GoDuration;
import tools.jackson.databind.JsonNode;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.SplittableRandom;

/**
 * The chaos stream: random draws of lifecycle rules and fault schedules, separate from the registry's seeded source
 * so names and uids do not move when chaos is switched on. Each draw comes from a generator keyed by the seed and
 * what it is for (a Pod's uid and knob, a schedule's uid and firing number): the same seed gives the same draws
 * whatever order the controllers happen to ask in, and a reconcile that asks twice gets the same answer.
 */
public final class ChaosRandom {
    private final long seed;

    public ChaosRandom(long seed) {
        this.seed = seed;
    }

    /** A generator for one purpose, named by {@code keys}. */
    public SplittableRandom stream(Object... keys) {
        long h = seed * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L;
        for (Object key : keys) {
            for (byte b : String.valueOf(key).getBytes(StandardCharsets.UTF_8)) {
                h = mix(h ^ (b & 0xff));
            }
            h = mix(h ^ 0xff51afd7ed558ccdL);
        }
        return new SplittableRandom(h);
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return z ^ (z >>> 33);
    }

    /** A duration drawn from a validated distribution (see {@link Distribution}); null when {@code d} is null. */
    public static Duration draw(Distribution d, SplittableRandom random) {
        if (d == null) {
            return null;
        }
        if (d.fixed() != null) {
            return parse(d.fixed());
        }
        if (d.min() != null) {
            return between(parse(d.min()), parse(d.max()), random);
        }
        Duration mean = parse(d.mean());
        Duration jitter = d.jitter() == null ? Duration.ZERO : parse(d.jitter());
        Duration low = mean.minus(jitter).isNegative() ? Duration.ZERO : mean.minus(jitter);
        return between(low, mean.plus(jitter), random);
    }

    /** {@link #draw(Distribution, SplittableRandom)} of a distribution given as stored JSON. */
    public static Duration draw(JsonNode d, SplittableRandom random) {
        return d == null || !d.isObject() ? null : draw(Json.MAPPER.treeToValue(d, Distribution.class), random);
    }

    /** Go duration text; validation on write makes it parse. */
    static Duration parse(String text) {
        return GoDuration.parse(text);
    }

    // Whole milliseconds, so timeline seconds stay short and comparable.
    private static Duration between(Duration low, Duration high, SplittableRandom random) {
        long lo = low.toMillis();
        long hi = high.toMillis();
        return Duration.ofMillis(hi <= lo ? lo : random.nextLong(lo, hi + 1));
    }
}
