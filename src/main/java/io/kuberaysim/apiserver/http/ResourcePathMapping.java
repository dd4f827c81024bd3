package io.kuberaysim.apiserver.http;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.core.Ordered;
import org.springframework.http.server.PathContainer;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.util.pattern.PathPattern;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Sends a Kubernetes resource path ({@code /api/v1/namespaces/default/pods/p}, {@code /apis/ray.io/v1/...}) straight
 * to {@link ResourceHandler}'s method for its verb, ahead of Spring MVC's pattern lookup, which tries every mapping
 * in turn on every request (~15 % of a GET's server time). It answers only where that lookup would pick the same
 * method: plain paths (letters, digits, {@code -}, {@code .}, {@code _}; no empty, dot or escaped segment, no
 * trailing slash) of a resource's depth, GET, POST, PUT, PATCH or DELETE, and no other controller's mapping matching
 * the path. Those mappings are read once from Spring MVC ({@code /apis/authentication.k8s.io/v1/selfsubjectreviews},
 * discovery, ...), so a controller added later keeps its paths. Everything else goes through Spring MVC as before.
 * The request attributes Spring MVC sets for a match are set the same way (the metrics filter reads the pattern).
 * {@link ResourceDispatchFilter} asks it too, to call the handler without Spring MVC's servlet.
 */
@Component
class ResourcePathMapping implements HandlerMapping, Ordered, SmartInitializingSingleton {
    private static final String API = "/api/*/**";
    private static final String APIS = "/apis/*/*/**";

    /** Spring MVC's own mapping of annotated controllers (there is none in a context without a web server). */
    private static final String SPRING_MVC_MAPPING = "requestMappingHandlerMapping";

    private final ListableBeanFactory beans;
    private volatile Routes routes;

    ResourcePathMapping(ListableBeanFactory beans) {
        this.beans = beans;
    }

    /**
     * What the lookup needs, read from Spring MVC's mappings once they are all registered.
     *
     * @param handlers           ResourceHandler's method per HTTP method
     * @param claimedPaths       other controllers' literal paths
     * @param claimedBySegments  other controllers' fixed-length patterns by their number of segments
     * @param claimedAnyLength   other controllers' patterns that match paths of any length
     */
    private record Routes(Map<String, HandlerMethod> handlers, Set<String> claimedPaths,
                          Map<Integer, List<Claimed>> claimedBySegments, List<PathPattern> claimedAnyLength) {
    }

    /**
     * A fixed-length pattern with its literal segments (null where the segment has a variable or wildcard): a path
     * whose segment differs from a literal one cannot match, which is told without parsing the path (Spring's
     * parse and match of {@code /api/v1/namespaces/{namespace}/pods/{name}/binding} was ~3 % of a merge PATCH).
     */
    private record Claimed(PathPattern pattern, String[] literals) {
        static Claimed of(PathPattern pattern) {
            String[] segments = pattern.getPatternString().substring(1).split("/", -1);
            for (int i = 0; i < segments.length; i++) {
                String s = segments[i];
                if (!isLiteral(s) || s.indexOf('%') >= 0) {
                    segments[i] = null;
                }
            }
            return new Claimed(pattern, segments);
        }

        /** False when a literal segment differs from the path's (ignoring case, so only certain misses count). */
        boolean mayMatch(String uri) {
            int start = 1;
            for (String literal : literals) {
                int end = uri.indexOf('/', start);
                if (end < 0) {
                    end = uri.length();
                }
                if (literal != null && (literal.length() != end - start
                        || !uri.regionMatches(true, start, literal, 0, literal.length()))) {
                    return false;
                }
                start = end + 1;
            }
            return true;
        }
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE; // before Spring MVC's own mapping (order 0)
    }

    @Override
    public void afterSingletonsInstantiated() {
        if (!beans.containsBean(SPRING_MVC_MAPPING)) {
            return;
        }
        RequestMappingHandlerMapping mvc = beans.getBean(SPRING_MVC_MAPPING, RequestMappingHandlerMapping.class);
        Map<String, HandlerMethod> handlers = new HashMap<>();
        Set<String> claimedPaths = new HashSet<>();
        Map<Integer, List<Claimed>> bySegments = new HashMap<>();
        List<PathPattern> anyLength = new ArrayList<>();
        for (Map.Entry<RequestMappingInfo, HandlerMethod> e : mvc.getHandlerMethods().entrySet()) {
            RequestMappingInfo info = e.getKey();
            HandlerMethod method = e.getValue();
            if (info.getPathPatternsCondition() == null) {
                return; // not the path-pattern lookup this class reproduces: leave every request to Spring MVC
            }
            Set<PathPattern> patterns = info.getPathPatternsCondition().getPatterns();
            if (method.getBeanType() == ResourceHandler.class) {
                if (!patterns.stream().map(PathPattern::getPatternString).toList().containsAll(List.of(API, APIS))
                        || info.getMethodsCondition().getMethods().size() != 1 || !info.getParamsCondition().isEmpty()
                        || !info.getHeadersCondition().isEmpty() || !info.getConsumesCondition().isEmpty()
                        || !info.getProducesCondition().isEmpty()) {
                    return; // mapped differently from what this class knows: leave every request to Spring MVC
                }
                RequestMethod verb = info.getMethodsCondition().getMethods().iterator().next();
                handlers.put(verb.name(), method.createWithResolvedBean());
                continue;
            }
            for (PathPattern p : patterns) {
                String text = p.getPatternString();
                if (!mayMatchUnderApi(text)) {
                    continue;
                }
                if (isLiteral(text)) {
                    claimedPaths.add(text);
                } else if (text.contains("**") || text.contains("{*")) {
                    anyLength.add(p);
                } else {
                    bySegments.computeIfAbsent(segments(text), n -> new ArrayList<>()).add(Claimed.of(p));
                }
            }
        }
        routes = new Routes(Map.copyOf(handlers), Set.copyOf(claimedPaths), Map.copyOf(bySegments),
                List.copyOf(anyLength));
    }

    /** False for a pattern whose first segment is a literal other than {@code api} and {@code apis}. */
    private static boolean mayMatchUnderApi(String pattern) {
        int end = pattern.indexOf('/', 1);
        String first = end < 0 ? pattern.substring(1) : pattern.substring(1, end);
        return !isLiteral(first) || first.equals("api") || first.equals("apis");
    }

    private static boolean isLiteral(String pattern) {
        return pattern.indexOf('{') < 0 && pattern.indexOf('*') < 0 && pattern.indexOf('?') < 0;
    }

    @Override
    public boolean usesPathPatterns() {
        return true;
    }

    @Override
    public HandlerExecutionChain getHandler(HttpServletRequest request) {
        HandlerMethod handler = route(request);
        if (handler == null) {
            return null;
        }
        if (request.getAttribute(ResourceDispatchFilter.FAILURE) instanceof Throwable failure) {
            // ResourceDispatchFilter ran the handler, which failed: Spring MVC answers the failure as the handler's
            return new HandlerExecutionChain(handler, new Rethrow(failure));
        }
        return new HandlerExecutionChain(handler);
    }

    /**
     * ResourceHandler's method for {@code request} when Spring MVC would choose it, with the request attributes
     * Spring MVC sets for a match; null when the request is not this mapping's.
     */
    HandlerMethod route(HttpServletRequest request) {
        Routes r = routes;
        String uri = request.getRequestURI();
        if (r == null || !uri.startsWith("/api") || !request.getContextPath().isEmpty()) {
            return null;
        }
        HandlerMethod handler = r.handlers().get(request.getMethod());
        String pattern = handler == null ? null : resourcePattern(uri);
        if (pattern == null || claimedElsewhere(r, uri)) {
            return null;
        }
        request.setAttribute(BEST_MATCHING_HANDLER_ATTRIBUTE, handler);
        request.setAttribute(BEST_MATCHING_PATTERN_ATTRIBUTE, pattern);
        request.setAttribute(PATH_WITHIN_HANDLER_MAPPING_ATTRIBUTE, uri); // the lookup path, as Spring MVC sets it
        request.setAttribute(URI_TEMPLATE_VARIABLES_ATTRIBUTE, Map.of());
        return handler;
    }

    /**
     * Throws, before the handler would run, what the handler threw when {@link ResourceDispatchFilter} called it:
     * Spring MVC then resolves it exactly as if the handler had thrown it (StatusErrorAdvice, same handler).
     */
    private record Rethrow(Throwable failure) implements HandlerInterceptor {
        @Override
        public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler)
                throws Exception {
            if (failure instanceof Exception e) {
                throw e;
            }
            throw (Error) failure;
        }
    }

    /**
     * ResourceHandler's pattern for a plain path at least as deep as a resource ({@code /api/v1/pods},
     * {@code /apis/g/v/r}); null for any other path.
     */
    private static String resourcePattern(String uri) {
        int minSegments;
        String pattern;
        if (uri.startsWith("/api/")) {
            minSegments = 3;
            pattern = API;
        } else if (uri.startsWith("/apis/")) {
            minSegments = 4;
            pattern = APIS;
        } else {
            return null;
        }
        int segments = 0;
        boolean segmentStart = false;
        for (int i = 0; i < uri.length(); i++) {
            char c = uri.charAt(i);
            if (c == '/') {
                if (segmentStart) {
                    return null; // empty segment
                }
                segmentStart = true;
                segments++;
            } else if (segmentStart && c == '.') {
                return null; // "." and ".." segments, and names a servlet container may treat specially
            } else if (c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_'
                    || c >= 'A' && c <= 'Z') {
                segmentStart = false;
            } else {
                return null;
            }
        }
        return segmentStart || segments < minSegments ? null : pattern;
    }

    private static boolean claimedElsewhere(Routes r, String uri) {
        if (r.claimedPaths().contains(uri)) {
            return true;
        }
        List<Claimed> sameLength = r.claimedBySegments().getOrDefault(segments(uri), List.of());
        PathContainer path = null;
        for (Claimed c : sameLength) {
            if (c.mayMatch(uri)) {
                path = path == null ? PathContainer.parsePath(uri) : path;
                if (c.pattern().matches(path)) {
                    return true;
                }
            }
        }
        if (r.claimedAnyLength().isEmpty()) {
            return false;
        }
        PathContainer whole = path == null ? PathContainer.parsePath(uri) : path;
        return r.claimedAnyLength().stream().anyMatch(p -> p.matches(whole));
    }

    private static int segments(String path) {
        int n = 0;
        for (int i = 0; i < path.length(); i++) {
            if (path.charAt(i) == '/') {
                n++;
            }
        }
        return n;
    }
}
