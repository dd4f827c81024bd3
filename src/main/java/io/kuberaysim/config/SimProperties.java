package io.kuberaysim.config;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;
import java.time.Instant;

/**
 * Settings under {@code kuberay-sim.*}.
 *
 * @param clock        {@code wall} (real time) or {@code virtual} (discrete-event, moved by /sim/v1/clock/advance)
 * @param virtualStart the instant a virtual clock starts at
 * @param virtualSpeed when above 0, virtual time follows the wall clock at this speed (e.g. 10 = ten times faster)
 * @param seed         seed of generated names and uids, so virtual-clock runs are reproducible
 * @param watchHistory how many past changes are kept for watches resuming from a resourceVersion
 * @param controllers  whether the KubeRay operator and the simulated cluster run (off: a bare API server)
 * @param eventTtl     how long an Event lives after its last write, on the clock (kube-apiserver's
 *                     {@code --event-ttl}); 0 keeps Events for ever
 */
@ConfigurationProperties("kuberay-sim")
public record SimProperties(String clock, Instant virtualStart, Double virtualSpeed, Long seed, Integer watchHistory,
                            Boolean controllers, Duration eventTtl) {
    public SimProperties {
        clock = clock == null ? "wall" : clock;
        virtualStart = virtualStart == null ? Instant.parse("2025-01-01T00:00:00Z") : virtualStart;
        virtualSpeed = virtualSpeed == null ? 0.0 : virtualSpeed;
        seed = seed == null ? 42L : seed;
        watchHistory = watchHistory == null ? 10_000 : watchHistory;
        controllers = controllers == null || controllers;
        eventTtl = eventTtl == null ? Duration.ofHours(1) : eventTtl;
        if (eventTtl.isNegative()) {
            throw new IllegalArgumentException("kuberay-sim.event-ttl must not be negative: " + eventTtl);
        }
    }

    public boolean virtual() {
        return "virtual".equals(clock);
    }
}
