package io.kuberaysim.controller.runtime.clock;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TimestampsTest {
    @Test
    void textIsTheInstantTruncatedToTheSecond() {
        for (Instant t : List.of(Instant.parse("2025-01-01T00:00:00Z"), Instant.parse("2025-01-01T00:00:00.999Z"),
                Instant.parse("2025-01-01T00:00:01.5Z"), Instant.parse("2025-01-01T00:00:01.7Z"),
                Instant.parse("1969-12-31T23:59:59.5Z"), Instant.EPOCH, Instant.parse("2025-06-30T12:34:56.000000001Z"))) {
            assertThat(Timestamps.seconds(t)).isEqualTo(t.truncatedTo(ChronoUnit.SECONDS).toString());
        }
    }
}
