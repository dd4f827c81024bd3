package io.kuberaysim.controller.ray;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Pins Go's time.ParseDuration and Duration.String, which KubeRay's initializing-timeout handling uses. */
class GoDurationTest {
    @Test
    void parsesAndFormatsLikeGo() {
        assertThat(GoDuration.parse("5m")).isEqualTo(Duration.ofMinutes(5));
        assertThat(GoDuration.parse("1h30m")).isEqualTo(Duration.ofMinutes(90));
        assertThat(GoDuration.parse("1.5s")).isEqualTo(Duration.ofMillis(1500));
        assertThat(GoDuration.format(Duration.ofMinutes(5))).isEqualTo("5m0s");
        assertThat(GoDuration.format(Duration.ofMinutes(90))).isEqualTo("1h30m0s");
        assertThat(GoDuration.format(Duration.ofMillis(1500))).isEqualTo("1.5s");
        assertThat(GoDuration.format(Duration.ofMillis(300))).isEqualTo("300ms");
        assertThatThrownBy(() -> GoDuration.parse("300")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> GoDuration.parse("soon")).isInstanceOf(IllegalArgumentException.class);
    }
}
