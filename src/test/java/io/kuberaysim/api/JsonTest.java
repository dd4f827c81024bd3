package io.kuberaysim.api;

import io.kuberaysim.api.ray.Condition;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class JsonTest {
    @Test
    void timesAreWrittenWithSecondPrecisionAsMetav1TimeIs() {
        var c = new Condition("Ready", Condition.Status.True, null, Instant.parse("2026-11-30T00:58:49.049519606Z"),
                "r", "m");
        assertThat(Json.MAPPER.valueToTree(c).get("lastTransitionTime").asString()).isEqualTo("2026-11-30T00:58:49Z");
    }
}
