package io.kuberaysim.observability.health;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/** One named check of {@code /healthz}, {@code /livez} or {@code /readyz}, as kube-apiserver's HealthChecker. */
public interface HealthCheck {

    /** The name in {@code [+]name ok}, the path {@code /readyz/<name>} and {@code ?exclude=<name>}. */
    String name();

    /** Empty when healthy, otherwise why not. Must be quick: it runs on every probe. */
    Optional<String> failure();

    /** A check named {@code name} that asks {@code check}. */
    static HealthCheck of(String name, Supplier<Optional<String>> check) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(check, "check");
        return new HealthCheck() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Optional<String> failure() {
                return check.get();
            }
        };
    }

    /** kube-apiserver's {@code ping}: healthy whenever the server answers. */
    static HealthCheck ping() {
        return of("ping", Optional::empty);
    }
}
