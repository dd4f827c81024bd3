package io.kuberaysim.controller.ray.cluster;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.InstantSource;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ScaleExpectationsTest {
    private final Set<String> cache = new HashSet<>();
    private final ScaleExpectations expectations = new ScaleExpectations(
            InstantSource.fixed(Instant.parse("2025-01-01T00:00:00Z")), (ns, pod) -> cache.contains(ns + "/" + pod));

    @Test
    void forgettingADeletedClusterLeavesTheOthersExpectations() {
        expectations.expectCreate("default", "a", ScaleExpectations.HEAD_GROUP, "a-head");
        expectations.expectCreate("default", "a", "workers", "a-worker-1");
        expectations.expectCreate("default", "ab", "workers", "ab-worker-1");
        expectations.expectCreate("other", "a", "workers", "a-worker-1");

        expectations.forget("default", "a");

        assertThat(expectations.isSatisfied("default", "a", ScaleExpectations.HEAD_GROUP)).isTrue();
        assertThat(expectations.isSatisfied("default", "a", "workers")).isTrue();
        assertThat(expectations.isSatisfied("default", "ab", "workers")).isFalse();
        assertThat(expectations.isSatisfied("other", "a", "workers")).isFalse();
    }

    @Test
    void aGroupIsSatisfiedOnceItsPodsAreInTheCacheOrGone() {
        expectations.expectCreate("default", "c", "workers", "c-worker-1");
        expectations.expectDelete("default", "c", ScaleExpectations.HEAD_GROUP, "c-head");
        cache.add("default/c-head");

        assertThat(expectations.isSatisfied("default", "c", "workers")).isFalse();
        assertThat(expectations.isSatisfied("default", "c", ScaleExpectations.HEAD_GROUP)).isFalse();
        cache.add("default/c-worker-1");
        cache.remove("default/c-head");
        assertThat(expectations.isSatisfied("default", "c", "workers")).isTrue();
        assertThat(expectations.isSatisfied("default", "c", ScaleExpectations.HEAD_GROUP)).isTrue();
    }
}
