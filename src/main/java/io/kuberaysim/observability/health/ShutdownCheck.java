package io.kuberaysim.observability.health;

import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.Ordered;

import java.util.Optional;

/**
 * {@code shutdown}: fails as soon as a graceful shutdown starts, as kube-apiserver's readyz does, so load balancers
 * and scripts stop sending work while watches and in-flight requests still end cleanly. It hears the context's
 * {@link ContextClosedEvent}, which comes before any lifecycle bean stops (the watch streams end in the first stop
 * phase), and listens first among the listeners of that event.
 */
public final class ShutdownCheck implements HealthCheck, ApplicationListener<ContextClosedEvent>, Ordered {
    private volatile boolean shuttingDown;

    @Override
    public String name() {
        return "shutdown";
    }

    @Override
    public Optional<String> failure() {
        return shuttingDown ? Optional.of("process is shutting down") : Optional.empty();
    }

    @Override
    public void onApplicationEvent(ContextClosedEvent event) {
        shuttingDown = true;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
