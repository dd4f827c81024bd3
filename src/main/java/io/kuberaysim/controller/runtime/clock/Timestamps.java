package io.kuberaysim.controller.runtime.clock;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;

/**
 * Kubernetes' {@code metav1.Time} text: RFC 3339 in UTC to the second ({@code 2025-01-01T00:00:00Z}). Formatting an
 * Instant and parsing one are costly calls (the parse allocates a map of fields per call), and on the virtual clock
 * thousands of writes in a row handle the same few seconds (a Pod's scheduled, started and ready times, say), so the
 * last texts of each are kept, in a small table by second (formatting) or by text (parsing).
 */
public final class Timestamps {
    private record Formatted(long epochSecond, String text) {
    }

    private record Parsed(String text, Instant instant) {
    }

    /** Slots of each table (a power of two); entries are records, so a slot read by another thread is whole. */
    private static final int SLOTS = 64;
    private static final Formatted[] FORMATTED = new Formatted[SLOTS];
    private static final Parsed[] PARSED = new Parsed[SLOTS];

    private Timestamps() {
    }

    /** {@code t} truncated to the second, as text: the same as {@code t.truncatedTo(SECONDS).toString()}. */
    public static String seconds(Instant t) {
        long second = t.getEpochSecond();
        int slot = (int) (second & (SLOTS - 1));
        Formatted f = FORMATTED[slot];
        if (f == null || f.epochSecond() != second) {
            f = new Formatted(second, Instant.ofEpochSecond(second).toString());
            FORMATTED[slot] = f;
        }
        return f.text();
    }

    /**
     * {@code text} as an Instant, the same as {@link Instant#parse} (and failing as it does); the form this
     * class writes ({@code 2025-01-01T00:00:00Z}) is read without the general parser.
     */
    public static Instant parse(String text) {
        int slot = text.hashCode() & (SLOTS - 1);
        Parsed p = PARSED[slot];
        if (p == null || !p.text().equals(text)) {
            Instant seconds = toTheSecond(text);
            p = new Parsed(text, seconds != null ? seconds : Instant.parse(text));
            PARSED[slot] = p;
        }
        return p.instant();
    }

    /** {@code yyyy-MM-ddTHH:mm:ssZ} read directly, or null for anything else (left to the general parser). */
    private static Instant toTheSecond(String s) {
        if (s.length() != 20 || s.charAt(4) != '-' || s.charAt(7) != '-' || s.charAt(10) != 'T'
                || s.charAt(13) != ':' || s.charAt(16) != ':' || s.charAt(19) != 'Z') {
            return null;
        }
        int year = digits(s, 0, 4);
        int month = digits(s, 5, 2);
        int day = digits(s, 8, 2);
        int hour = digits(s, 11, 2);
        int minute = digits(s, 14, 2);
        int second = digits(s, 17, 2);
        if (year < 0 || month < 0 || day < 0 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0
                || second > 59) {
            return null; // leap seconds, 24:00 and malformed digits: the general parser decides
        }
        try {
            long days = LocalDate.of(year, month, day).toEpochDay();
            return Instant.ofEpochSecond(days * 86_400 + hour * 3_600L + minute * 60L + second);
        } catch (DateTimeException e) {
            return null;
        }
    }

    /** The decimal number of {@code n} ASCII digits at {@code from}, or -1 if one is not a digit. */
    private static int digits(String s, int from, int n) {
        int v = 0;
        for (int i = from; i < from + n; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }
}
