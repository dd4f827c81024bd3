package io.kuberaysim.observability.health;

import java.util.List;

/**
 * The checks behind each health endpoint, in the order they are listed.
 *
 * @param healthz checks of {@code /healthz} (kube-apiserver's legacy endpoint)
 * @param livez   checks of {@code /livez}: does the process need a restart
 * @param readyz  checks of {@code /readyz}: should it get traffic
 */
public record HealthChecks(List<HealthCheck> healthz, List<HealthCheck> livez, List<HealthCheck> readyz) {
    public HealthChecks {
        healthz = List.copyOf(healthz);
        livez = List.copyOf(livez);
        readyz = List.copyOf(readyz);
    }

    List<HealthCheck> of(String endpoint) {
        return switch (endpoint) {
            case "healthz" -> healthz;
            case "livez" -> livez;
            case "readyz" -> readyz;
            default -> throw new IllegalArgumentException("no health endpoint " + endpoint);
        };
    }
}
