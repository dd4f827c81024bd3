package io.kuberaysim.controller.runtime.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ItemExponentialFailureRateLimiterTest {

    private final ItemExponentialFailureRateLimiter<String> limiter = new ItemExponentialFailureRateLimiter<>();

    @Test
    void doublesFromFiveMillisecondsPerItem() {
        assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(5));
        assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(10));
        assertThat(limiter.when("b")).as("items back off independently").isEqualTo(Duration.ofMillis(5));
        assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(20));
        assertThat(limiter.numRequeues("a")).isEqualTo(3);
    }

    @Test
    void capsAtOneThousandSecondsWithoutOverflowing() {
        Duration d = Duration.ZERO;
        for (int i = 0; i < 18; i++) {
            d = limiter.when("a");
        }
        assertThat(d).as("18th failure: 5ms * 2^17").isEqualTo(Duration.ofMillis(655_360));
        assertThat(limiter.when("a")).as("19th failure: capped").isEqualTo(Duration.ofSeconds(1000));

        for (int i = 0; i < 2000; i++) {
            d = limiter.when("a");
        }
        assertThat(d).isEqualTo(Duration.ofSeconds(1000));
    }

    @Test
    void forgetStartsOver() {
        limiter.when("a");
        limiter.when("a");
        limiter.forget("a");

        assertThat(limiter.numRequeues("a")).isZero();
        assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(5));
    }
}
