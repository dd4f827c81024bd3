package io.kuberaysim.controller.runtime.clock;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TimestampsTest {
    @Test
    void textIsTheInstantTruncatedToTheSecond() {
        for (Instant t : List.of(Instant.parse("2025-01-01T00:00:00Z"), Instant.parse("2025-01-01T00:00:00.999Z"),
                Instant.parse("2025-01-01T00:00:01.5Z"), Instant.parse("2025-01-01T00:00:01.7Z"),
                Instant.parse("1969-12-31T23:59:59.5Z"), Instant.EPOCH, Instant.parse("2025-06-30T12:34:56.000000001Z"))) {
            assertThat(Timestamps.seconds(t)).isEqualTo(t.truncatedTo(ChronoUnit.SECONDS).toString());
        }
    }

    @Test
    void manySecondsInTurnAreEachFormattedAsTheirOwn() {
        Instant base = Instant.parse("2025-01-01T00:00:00Z");
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 200; i += 7) { // more seconds than the table holds, some sharing a slot
                Instant t = base.plusSeconds(i * 64L + round).plusMillis(250);
                assertThat(Timestamps.seconds(t)).isEqualTo(t.truncatedTo(ChronoUnit.SECONDS).toString());
            }
        }
    }

    @Test
    void parseReadsWhatInstantParseReads() {
        for (String s : List.of("2025-01-01T00:00:00Z", "2024-02-29T23:59:59Z", "1969-12-31T23:59:59Z",
                "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2025-01-01T00:00:00.5Z", "2025-01-01T00:00:01.123456Z",
                "2025-06-30T23:59:60Z", "2025-01-01T24:00:00Z", "2026-11-29T22:44:47Z")) {
            assertThat(Timestamps.parse(s)).as(s).isEqualTo(Instant.parse(s));
        }
        Instant base = Instant.parse("2025-01-01T00:00:00Z");
        for (int i = 0; i < 500; i += 3) {
            String s = base.plusSeconds(i * 3_601L).toString();
            assertThat(Timestamps.parse(s)).as(s).isEqualTo(Instant.parse(s));
        }
    }

    @Test
    void parseFailsAsInstantParseDoes() {
        for (String s : List.of("2025-02-30T00:00:00Z", "2025-13-01T00:00:00Z", "2025-01-01T25:00:00Z",
                "2025-01-01T00:00:00", "2025-01-0aT00:00:00Z", "yesterday", "")) {
            Class<? extends Throwable> expected = catchClass(s);
            assertThatThrownBy(() -> Timestamps.parse(s)).as(s).isInstanceOf(expected);
        }
    }

    private static Class<? extends Throwable> catchClass(String s) {
        try {
            Instant.parse(s);
            throw new AssertionError("Instant.parse accepted " + s);
        } catch (RuntimeException e) {
            return e.getClass();
        }
    }
}
