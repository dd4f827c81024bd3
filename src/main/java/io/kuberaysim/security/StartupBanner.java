package io.kuberaysim.security;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The few lines printed once the server is up: where it is, how to point kubectl at it, and what is unsafe about
 * it (exposed beyond loopback without a token; state only in memory). Never prints a token.
 */
final class StartupBanner {
    private StartupBanner() {
    }

    static String render(ServerEndpoint endpoint, String clockMode, TokenAuthenticator auth, Path kubeconfig) {
        StringBuilder b = new StringBuilder();
        b.append("kuberay-sim is serving the Kubernetes API at ").append(endpoint.url())
                .append(" (").append(clockMode).append(" clock");
        if (endpoint.beyondLoopback()) {
            b.append(", listening on ").append(endpoint.bindAddress());
        }
        b.append(")\n");
        if (kubeconfig != null) {
            b.append("  kubectl:     kubectl --kubeconfig ").append(kubeconfig).append(" get rayclusters\n");
        } else {
            b.append("  kubectl:     kubectl --server ").append(endpoint.url())
                    .append(auth.enabled() ? " --token <token>" : "")
                    .append(endpoint.tls() ? " --certificate-authority <ca.crt>" : "")
                    .append(" get rayclusters   (or --kuberay-sim.kubeconfig-out=<path> to have a kubeconfig written)\n");
        }
        b.append("  Swagger UI:  ").append(endpoint.url()).append("/swagger-ui.html\n");
        b.append("  auth:        ").append(auth.enabled()
                ? "bearer token required (" + auth.source() + "); /version and health checks are public"
                : "none: every request is allowed (set kuberay-sim.auth.token to require a bearer token)").append('\n');
        b.append("  state:       in memory only; everything is lost when the process exits");
        return b.toString();
    }

    static List<String> warnings(ServerEndpoint endpoint, TokenAuthenticator auth) {
        List<String> w = new ArrayList<>();
        if (endpoint.beyondLoopback() && !auth.enabled()) {
            w.add("Listening on " + endpoint.bindAddress() + " without authentication: anyone who can reach this "
                    + "port can create, change and delete everything. Set kuberay-sim.auth.token, or bind to "
                    + "127.0.0.1 (the default).");
        }
        if (auth.enabled() && !endpoint.tls()) {
            w.add("A token is required but TLS is off: kubectl and other client-go tools send a kubeconfig's token "
                    + "only over https, so they will get 401 (curl and fabric8 send it over http"
                    + (endpoint.beyondLoopback() ? ", where it crosses the network unencrypted" : "")
                    + "). Enable TLS with server.ssl.* (see README, Security).");
        }
        return w;
    }
}
