package io.kuberaysim.controller.runtime.clock;

import java.time.Instant;

/**
 * Kubernetes' {@code metav1.Time} text: RFC 3339 in UTC to the second ({@code 2025-01-01T00:00:00Z}). Formatting an
 * Instant is a costly call, and on the virtual clock thousands of writes in a row happen within the same second, so
 * the text of the last second formatted is kept.
 */
public final class Timestamps {
    private record Formatted(long epochSecond, String text) {
    }

    private static volatile Formatted last = new Formatted(Long.MIN_VALUE, null);

    private Timestamps() {
    }

    /** {@code t} truncated to the second, as text: the same as {@code t.truncatedTo(SECONDS).toString()}. */
    public static String seconds(Instant t) {
        long second = t.getEpochSecond();
        Formatted f = last;
        if (f.epochSecond() != second) {
            f = new Formatted(second, Instant.ofEpochSecond(second).toString());
            last = f;
        }
        return f.text();
    }
}
