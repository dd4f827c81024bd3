package io.kuberaysim.scenario.seeds;

import java.util.stream.LongStream;

/**
 * The seeds of {@code --seeds}: {@code 1..100} (inclusive) or a count {@code 100} (= {@code 1..100}).
 *
 * @param first the first seed
 * @param last  the last seed, inclusive
 */
public record SeedRange(long first, long last) {
    public SeedRange {
        if (last < first) {
            throw new IllegalArgumentException("--seeds " + first + ".." + last + ": the range is empty");
        }
    }

    /** @throws IllegalArgumentException for anything but {@code N} or {@code A..B} with A ≤ B */
    public static SeedRange parse(String text) {
        try {
            int dots = text.indexOf("..");
            if (dots < 0) {
                long count = Long.parseLong(text.trim());
                if (count < 1) {
                    throw new IllegalArgumentException("--seeds " + text + ": the count must be at least 1");
                }
                return new SeedRange(1, count);
            }
            return new SeedRange(Long.parseLong(text.substring(0, dots).trim()),
                    Long.parseLong(text.substring(dots + 2).trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--seeds must be a count (100) or a range (1..100), got \"" + text
                    + "\"");
        }
    }

    public LongStream seeds() {
        return LongStream.rangeClosed(first, last);
    }

    public long size() {
        return last - first + 1;
    }
}
