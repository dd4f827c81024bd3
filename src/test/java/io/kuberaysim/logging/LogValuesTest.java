package io.kuberaysim.logging;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Values from objects cannot forge log lines: every control character is escaped and long values are cut. */
class LogValuesTest {

    @Test
    void escapesLineBreaksAndControlCharacters() {
        assertThat(LogValues.escape("ray.io/kuberay-operator\n2026-01-01 INFO forged line"))
                .isEqualTo("ray.io/kuberay-operator\\n2026-01-01 INFO forged line");
        assertThat(LogValues.escape("a\rb\tc\u0000d\u001be\u2028f\\g"))
                .isEqualTo("a\\rb\\tc\\u0000d\\u001be\\u2028f\\\\g");
        assertThat(LogValues.escape("plain value")).isEqualTo("plain value");
        assertThat(LogValues.escape(null)).isEqualTo("null");
    }

    @Test
    void cutsLongValues() {
        String escaped = LogValues.escape("x".repeat(5000));
        assertThat(escaped).startsWith("x".repeat(LogValues.MAX_LENGTH)).endsWith("...(3976 more characters)");
    }
}
