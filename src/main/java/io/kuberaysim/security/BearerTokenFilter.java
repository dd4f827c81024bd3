package io.kuberaysim.security;

import io.kuberaysim.apiserver.errors.ApiException;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Authentication in front of every handler, as kube-apiserver's: a valid {@code Authorization: Bearer} token makes
 * the request its user's; a token that matches nobody is a 401 {@code Unauthorized} on any path; a request without
 * one is {@code system:anonymous}, which (with authentication on) may only read what kube's
 * {@code system:public-info-viewer} role allows, plus this server's own API documentation pages. Nothing else is
 * read from the request, so a rejected write changes nothing.
 */
final class BearerTokenFilter extends OncePerRequestFilter {
    private static final Logger log = LoggerFactory.getLogger(BearerTokenFilter.class);
    /** kube's system:public-info-viewer non-resource URLs. */
    private static final Set<String> PUBLIC_INFO = Set.of("/version", "/version/", "/healthz", "/livez", "/readyz");
    /** Swagger UI and its spec: the page loads before the user can enter a token in its Authorize dialog. */
    private static final Set<String> DOCUMENTATION_PREFIXES = Set.of("/swagger-ui/", "/v3/api-docs");
    /** The web console's static files and the redirect to them: the page asks for the token once it is loaded. */
    private static final Set<String> CONSOLE_PATHS = Set.of("/", "/console", "/console/");
    private static final String CONSOLE_PREFIX = "/console/";
    private static final Pattern CONSOLE_FILE = Pattern.compile("/console/[A-Za-z0-9_./-]*");

    private final TokenAuthenticator authenticator;

    BearerTokenFilter(TokenAuthenticator authenticator) {
        this.authenticator = authenticator;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!authenticator.enabled()) {
            UserInfo.ANONYMOUS.attachTo(request);
            chain.doFilter(request, response);
            return;
        }
        String token = bearerToken(request);
        if (token != null) {
            UserInfo user = authenticator.authenticate(token).orElse(null);
            if (user == null) {
                log.debug("rejected {} {}: the bearer token matches no user", request.getMethod(),
                        request.getRequestURI());
                StatusResponses.write(response, unauthorized());
                return;
            }
            user.attachTo(request);
            chain.doFilter(request, response);
            return;
        }
        if (isPublic(request.getRequestURI())) {
            UserInfo.ANONYMOUS.attachTo(request);
            chain.doFilter(request, response);
            return;
        }
        StatusResponses.write(response, unauthorized());
    }

    static ApiException unauthorized() {
        return new ApiException(401, "Unauthorized", "Unauthorized", null);
    }

    static boolean isPublic(String path) {
        if (PUBLIC_INFO.contains(path) || path.equals("/swagger-ui.html") || CONSOLE_PATHS.contains(path)) {
            return true;
        }
        // plain file paths only: a dot segment or an escape could lead past the prefix to an API path
        if (path.startsWith(CONSOLE_PREFIX) && CONSOLE_FILE.matcher(path).matches() && !path.contains("..")) {
            return true;
        }
        return DOCUMENTATION_PREFIXES.stream().anyMatch(path::startsWith);
    }

    /** The token of an {@code Authorization: Bearer} header; other schemes and empty tokens count as none. */
    static String bearerToken(HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        if (header == null) {
            return null;
        }
        String[] parts = header.trim().split(" ", 3);
        if (parts.length < 2 || !parts[0].toLowerCase(Locale.ROOT).equals("bearer") || parts[1].isEmpty()) {
            return null;
        }
        return parts[1];
    }
}
