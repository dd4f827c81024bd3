package io.kuberaysim.security;

import io.kuberaysim.apiserver.errors.ApiException;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.CorsUtils;
import org.springframework.web.cors.DefaultCorsProcessor;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Keeps web pages from using the browser as a way in, as local development servers such as Jupyter do.
 * <ul>
 *   <li>DNS rebinding: a request whose {@code Host} is not a loopback name or address, the server's configured
 *   address, the address the connection arrived on, or a host listed in {@code kuberay-sim.allowed-origins}
 *   gets a 403 Status.</li>
 *   <li>Cross-site requests: a request whose {@code Origin} is not the server's own (its pages, Swagger UI) and
 *   not listed gets a 403 Status, even a "simple" POST a page can send without a CORS preflight. Listed origins
 *   get kube-apiserver's CORS headers and preflight answers.</li>
 * </ul>
 * kubectl and client libraries send no {@code Origin} and name the server by the address they were given.
 */
final class HostAndOriginFilter extends OncePerRequestFilter {
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final String HOW_TO_ALLOW = "; list it in kuberay-sim.allowed-origins to allow it";

    private final boolean allowAll;
    private final List<String> allowedHosts;
    private final InetAddress serverAddress;
    private final String serverAddressName;
    private final CorsConfiguration cors;
    private final DefaultCorsProcessor corsProcessor = new DefaultCorsProcessor();

    /**
     * @param allowedOrigins the entries of {@code kuberay-sim.allowed-origins}
     * @param serverAddress  {@code server.address}, or null when the server listens on every interface
     */
    HostAndOriginFilter(List<String> allowedOrigins, InetAddress serverAddress) {
        this.allowAll = allowedOrigins.contains("*");
        this.allowedHosts = allowedOrigins.stream().map(HostAndOriginFilter::hostOf).toList();
        this.serverAddress = serverAddress;
        // InetAddress.toString() is "name/address", with an empty name when it was given as a literal
        String given = serverAddress == null ? "/" : serverAddress.toString();
        this.serverAddressName = given.startsWith("/") ? null
                : given.substring(0, given.indexOf('/')).toLowerCase(Locale.ROOT);
        this.cors = corsConfiguration(allowedOrigins);
    }

    /** kube-apiserver's CORS settings (--cors-allowed-origins) for the listed origins. */
    private static CorsConfiguration corsConfiguration(List<String> allowedOrigins) {
        CorsConfiguration c = new CorsConfiguration();
        c.setAllowedOriginPatterns(allowedOrigins.stream().filter(o -> o.equals("*") || o.contains("://")).toList());
        c.setAllowedMethods(List.of("POST", "GET", "OPTIONS", "PUT", "DELETE", "PATCH"));
        c.setAllowedHeaders(List.of("Content-Type", "Content-Length", "Accept-Encoding", "X-CSRF-Token",
                "Authorization", "X-Requested-With", "If-Modified-Since"));
        c.setExposedHeaders(List.of("Date"));
        c.setAllowCredentials(true);
        return c;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String host = request.getHeader("Host");
        if (host != null && !hostAllowed(hostName(host), request)) {
            StatusResponses.write(response, forbidden("Host \"" + host + "\" is not a loopback name or address "
                    + "nor this server's address" + HOW_TO_ALLOW));
            return;
        }
        String origin = request.getHeader("Origin");
        if (origin != null && isCrossOrigin(request)) {
            if (cors.checkOrigin(origin) == null) {
                StatusResponses.write(response, forbidden("Origin \"" + origin + "\" is not this server's own"
                        + HOW_TO_ALLOW));
                return;
            }
            if (!corsProcessor.processRequest(cors, request, response)) {
                return; // a preflight asking for a method or header that is not allowed: 403 already sent
            }
            if (CorsUtils.isPreFlightRequest(request)) {
                response.setStatus(HttpStatus.NO_CONTENT.value());
                return;
            }
        }
        chain.doFilter(request, response);
    }

    private static boolean isCrossOrigin(HttpServletRequest request) {
        try {
            return CorsUtils.isCorsRequest(request);
        } catch (IllegalArgumentException e) {
            return true; // an Origin that does not parse is nobody's own
        }
    }

    static ApiException forbidden(String why) {
        return new ApiException(403, "Forbidden", "forbidden: " + why, null);
    }

    private boolean hostAllowed(String host, HttpServletRequest request) {
        if (allowAll || host.isEmpty() || host.equals("localhost") || host.endsWith(".localhost")) {
            return true;
        }
        InetAddress literal = ipLiteral(host);
        if (literal != null) {
            if (literal.isLoopbackAddress() || literal.equals(serverAddress)
                    || literal.equals(ipLiteral(request.getLocalAddr()))) {
                return true;
            }
        } else if (host.equals(serverAddressName)) {
            return true;
        }
        for (String allowed : allowedHosts) {
            if (allowed.equals(host) || (allowed.startsWith("*.") && host.endsWith(allowed.substring(1)))) {
                return true;
            }
        }
        return false;
    }

    /** The name part of a Host header: no port, no IPv6 brackets, lower case. */
    static String hostName(String hostHeader) {
        String h = hostHeader.trim().toLowerCase(Locale.ROOT);
        if (h.startsWith("[")) {
            int end = h.indexOf(']');
            return end < 0 ? h : h.substring(1, end);
        }
        int colon = h.indexOf(':');
        return colon < 0 ? h : h.substring(0, colon);
    }

    /** The host of an allowed-origins entry: {@code https://a.example:8443} and {@code a.example:8443} give a.example. */
    static String hostOf(String entry) {
        String e = entry;
        int scheme = e.indexOf("://");
        if (scheme >= 0) {
            e = e.substring(scheme + 3);
        }
        int slash = e.indexOf('/');
        if (slash >= 0) {
            e = e.substring(0, slash);
        }
        return hostName(e);
    }

    /** The address an IP literal names, without a DNS lookup; null for host names. */
    private static InetAddress ipLiteral(String host) {
        if (host == null || !(IPV4.matcher(host).matches() || host.contains(":"))) {
            return null;
        }
        try {
            return InetAddress.getByName(host.startsWith("[") ? host.substring(1, host.length() - 1) : host);
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
