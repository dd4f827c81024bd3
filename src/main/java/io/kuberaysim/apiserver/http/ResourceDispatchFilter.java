package io.kuberaysim.apiserver.http;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.web.method.HandlerMethod;

import java.io.IOException;

/**
 * Calls {@link ResourceHandler} for a resource request without Spring MVC's servlet, where the answer is the same:
 * the handler {@link ResourcePathMapping} would choose, for a verb whose answer the handler always writes itself
 * (POST, PUT, PATCH, DELETE, GET of one object other than a pod's log). DispatcherServlet's work around such a call
 * (request and locale context, async manager, model, argument resolution, reflection) decided nothing for them and
 * took ~15 % of a create's server time. When the handler throws, the request goes on to Spring MVC, which is given
 * the failure for the same handler and resolves it as before (StatusErrorAdvice): errors keep their bytes.
 * Lists, watches and logs (answered later or streamed), multipart and upgrade requests, and names Spring MVC's
 * reflected-file-download guard looks at ({@link ResponseEntityWriter}) go through Spring MVC as before.
 *
 * <p>Registered after every other filter (after the body is read), for request dispatches only.
 */
public final class ResourceDispatchFilter implements Filter {
    /** The handler's failure, for Spring MVC to resolve. */
    static final String FAILURE = ResourceDispatchFilter.class.getName() + ".failure";

    private final ListableBeanFactory beans;
    private volatile ResourcePathMapping mapping;

    /** @param beans where the resource mapping is found once the application has started */
    public ResourceDispatchFilter(ListableBeanFactory beans) {
        this.beans = beans;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        ResourcePathMapping m = mapping();
        String method = request.getMethod();
        HandlerMethod route = m == null || !directVerb(method) || !plainRequest(request) ? null : m.route(request);
        ResourcePath object = route != null && method.equals("GET") ? namedObject(request) : null;
        if (route == null || method.equals("GET") && object == null) {
            chain.doFilter(req, res);
            return;
        }
        ResourceHandler handler = (ResourceHandler) route.getBean();
        try {
            Object unwritten = switch (method) {
                case "POST" -> handler.create(request, response);
                case "PUT" -> handler.update(request, response);
                case "PATCH" -> handler.patch(request, response);
                case "DELETE" -> handler.delete(request, response);
                default -> handler.getObject(request, response, object);
            };
            if (unwritten != null) {
                throw new IllegalStateException("a directly served request left an answer unwritten");
            }
        } catch (Exception | Error e) {
            request.setAttribute(FAILURE, e);
            chain.doFilter(req, res);
        }
    }

    private ResourcePathMapping mapping() {
        ResourcePathMapping m = mapping;
        if (m == null) {
            m = beans.getBeanProvider(ResourcePathMapping.class).getIfAvailable();
            mapping = m;
        }
        return m;
    }

    private static boolean directVerb(String method) {
        return switch (method) {
            case "GET", "POST", "PUT", "PATCH", "DELETE" -> true;
            default -> false;
        };
    }

    /** Not one Spring MVC treats specially before the handler: multipart bodies, protocol upgrades, file-like names. */
    private static boolean plainRequest(HttpServletRequest request) {
        String contentType = request.getContentType();
        return request.getDispatcherType() == DispatcherType.REQUEST
                && (contentType == null || !contentType.regionMatches(true, 0, "multipart/", 0, 10))
                && request.getHeader("Upgrade") == null
                && !ResponseEntityWriter.mayLookLikeFile(request.getRequestURI());
    }

    /** The path of a GET the handler answers with one object it writes itself; null for lists, watches and logs. */
    private static ResourcePath namedObject(HttpServletRequest request) {
        try {
            ResourcePath p = ResourcePath.parse(request.getRequestURI());
            return p.isCollection() || "log".equals(p.subresource()) ? null : p;
        } catch (RuntimeException e) {
            return null; // the handler answers it through Spring MVC, with the same parse and error
        }
    }
}
