package io.kuberaysim.security;

import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServerSslBundle;
import org.springframework.context.ApplicationListener;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Checks the token and TLS settings as soon as the configuration is known, before the web server or any bean
 * exists, so that unusable settings stop the start with one {@link InvalidSecuritySettingsException} (reported by
 * {@link SecuritySettingsFailureAnalyzer}) instead of a half-started server and a stack trace.
 */
final class SecuritySettingsCheck implements ApplicationListener<ApplicationEnvironmentPreparedEvent> {
    @Override
    public void onApplicationEvent(ApplicationEnvironmentPreparedEvent event) {
        Binder binder = Binder.get(event.getEnvironment());
        SecurityProperties props = binder.bind("kuberay-sim", SecurityProperties.class)
                .orElseGet(() -> new SecurityProperties(null, null, null));
        TokenAuthenticator.from(props.auth());
        Ssl ssl = binder.bind("server.ssl", Ssl.class).orElse(null);
        // a named bundle (server.ssl.bundle) is checked by Spring Boot when the bundle is registered
        if (Ssl.isEnabled(ssl) && ssl.getBundle() == null) {
            try {
                WebServerSslBundle.get(ssl).createSslContext();
            } catch (RuntimeException e) {
                throw new InvalidSecuritySettingsException("The TLS settings (server.ssl.*) do not load: "
                        + messages(e), "Point server.ssl.certificate and server.ssl.certificate-private-key at a PEM "
                        + "certificate (chain) and its private key, or server.ssl.key-store (with "
                        + "server.ssl.key-store-password) at a PKCS#12 or JKS key store.", e);
            }
        }
    }

    /** The messages along a cause chain, without repeats: what went wrong, down to the file that is missing. */
    private static String messages(Throwable e) {
        Set<String> parts = new LinkedHashSet<>();
        for (Throwable t = e; t != null; t = t.getCause()) {
            String message = t.getMessage();
            if (message != null && parts.stream().noneMatch(p -> p.contains(message))) {
                parts.add(message);
            }
        }
        return parts.isEmpty() ? e.getClass().getSimpleName() : String.join(": ", parts);
    }
}
