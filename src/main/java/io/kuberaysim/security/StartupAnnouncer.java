package io.kuberaysim.security;

import io.kuberaysim.config.SimProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationListener;

import java.nio.file.Path;

/**
 * Once the application is ready (server listening, controllers running): writes the kubeconfig if asked and
 * prints the start-up banner. Waiting for readiness rather than the bare socket means a CI script that sees the
 * kubeconfig appear can use the whole control plane at once.
 */
final class StartupAnnouncer implements ApplicationListener<ApplicationReadyEvent> {
    private static final Logger log = LoggerFactory.getLogger(StartupAnnouncer.class);

    private final SecurityProperties props;
    private final SimProperties sim;
    private final TokenAuthenticator auth;
    private final ServerProperties server;
    private final SslBundles bundles;

    StartupAnnouncer(SecurityProperties props, SimProperties sim, TokenAuthenticator auth, ServerProperties server,
                     SslBundles bundles) {
        this.props = props;
        this.sim = sim;
        this.auth = auth;
        this.server = server;
        this.bundles = bundles;
    }

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        if (!(event.getApplicationContext() instanceof WebServerApplicationContext web)
                || web.getWebServer() == null || web.getWebServer().getPort() <= 0) {
            return; // no server listens (a MockMvc test context)
        }
        ServerEndpoint endpoint = ServerEndpoint.of(web.getWebServer().getPort(), server, bundles);
        Path kubeconfig = null;
        if (props.kubeconfigOut() != null && !props.kubeconfigOut().isBlank()) {
            kubeconfig = Path.of(props.kubeconfigOut().trim()).toAbsolutePath();
            KubeconfigWriter.write(kubeconfig, endpoint, clientToken());
        }
        log.info("{}", StartupBanner.render(endpoint, sim.clock(), auth, kubeconfig));
        StartupBanner.warnings(endpoint, auth).forEach(w -> log.warn("{}", w));
    }

    /** The token the written kubeconfig carries: the configured one, or the first user's of a token file. */
    private String clientToken() {
        if (!auth.enabled()) {
            return null;
        }
        if (props.auth().token() != null) {
            return props.auth().token().trim();
        }
        return TokenFile.read(Path.of(props.auth().tokenFile().trim())).keySet().iterator().next();
    }
}
