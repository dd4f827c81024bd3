package io.kuberaysim.apiserver.http;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.util.ServletRequestPathUtils;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The direct route for resource paths picks exactly what Spring MVC's lookup picks, or leaves the request to it:
 * every path another controller maps (self-subject reviews, discovery, OpenAPI, health, the simulation's endpoints)
 * stays with that controller.
 */
@SpringBootTest(properties = "kuberay-sim.controllers=false")
class ResourcePathMappingIT {
    private static final List<String> METHODS = List.of("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS");
    private static final List<String> PATHS = List.of(
            "/api/v1/namespaces/default/pods", "/api/v1/namespaces/default/pods/p", "/api/v1/namespaces/default/pods/p/status",
            "/api/v1/namespaces/default/pods/p/log", "/api/v1/namespaces", "/api/v1/namespaces/default",
            "/api/v1/namespaces/default/finalize", "/api/v1/pods", "/api/v1/nodes/n1", "/api/v1/nosuch",
            "/apis/ray.io/v1/namespaces/default/rayclusters", "/apis/ray.io/v1/namespaces/default/rayclusters/rc-1",
            "/apis/ray.io/v1/namespaces/default/rayclusters/rc-1/status", "/apis/ray.io/v1/rayclusters",
            "/apis/ray.io/v1/namespaces/default/rayclusters/rc.1", "/apis/ray.io/v1/namespaces/default/rayclusters/rc_1",
            "/apis/events.k8s.io/v1/namespaces/default/events", "/apis/coordination.k8s.io/v1/namespaces/x/leases/l",
            "/apis/authentication.k8s.io/v1/selfsubjectreviews",
            "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
            "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews",
            "/api", "/api/", "/api/v1", "/api/v1/", "/apis", "/apis/ray.io", "/apis/ray.io/v1", "/apis/ray.io/v1/",
            "/api/v1/namespaces/default/pods/", "/api/v1//pods", "/api/v1/./pods", "/api/v1/../v1/pods",
            "/api/v1/namespaces/default/pods/p%2Fq", "/api/v1/namespaces/default/pods/p;x=1", "/api/v1/namespaces/a b/pods",
            "/apis/x/y/z/a/b/c/d/e", "/version", "/openapi/v3", "/openapi/v3/apis/ray.io/v1", "/healthz", "/readyz/etcd",
            "/metrics", "/sim/v1/clock", "/console/", "/apiX/v1/pods", "/apis-x/a/b/c");

    @Autowired
    ResourcePathMapping direct;

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mvc;

    private static MockHttpServletRequest request(String method, String path) {
        MockHttpServletRequest req = new MockHttpServletRequest(method, path);
        ServletRequestPathUtils.parseAndCache(req);
        return req;
    }

    @Test
    @DisplayName("every request the direct route takes goes to the method, pattern and path Spring MVC would choose")
    void sameChoiceAsSpring() throws Exception {
        List<String> routed = new ArrayList<>();
        for (String path : PATHS) {
            for (String method : METHODS) {
                MockHttpServletRequest fast = request(method, path);
                HandlerExecutionChain chosen = direct.getHandler(fast);
                if (chosen == null) {
                    continue;
                }
                routed.add(method + " " + path);
                MockHttpServletRequest slow = request(method, path);
                HandlerExecutionChain spring = mvc.getHandler(slow);
                assertThat(spring).as(method + " " + path).isNotNull();
                HandlerMethod fastMethod = (HandlerMethod) chosen.getHandler();
                HandlerMethod springMethod = (HandlerMethod) spring.getHandler();
                assertThat(fastMethod.getBean()).as(method + " " + path).isSameAs(springMethod.getBean());
                assertThat(fastMethod.getMethod()).as(method + " " + path).isEqualTo(springMethod.getMethod());
                slow.setAttribute(HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE, fastMethod); // compared above
                for (String attribute : List.of(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE,
                        HandlerMapping.PATH_WITHIN_HANDLER_MAPPING_ATTRIBUTE,
                        HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE,
                        HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE)) {
                    assertThat(fast.getAttribute(attribute)).as(method + " " + path + " " + attribute)
                            .isEqualTo(slow.getAttribute(attribute));
                }
            }
        }
        assertThat(routed).contains("GET /api/v1/namespaces/default/pods/p",
                "POST /apis/ray.io/v1/namespaces/default/rayclusters",
                "PATCH /apis/ray.io/v1/namespaces/default/rayclusters/rc-1",
                "PUT /apis/ray.io/v1/namespaces/default/rayclusters/rc-1/status",
                "DELETE /api/v1/namespaces/default", "GET /api/v1/pods", "GET /apis/ray.io/v1/rayclusters");
        assertThat(routed).noneMatch(r -> r.contains("selfsubject") || r.startsWith("HEAD") || r.startsWith("OPTIONS")
                || r.endsWith("/") || r.contains("%") || r.contains(";") || r.contains("/./") || r.contains(".."));
    }

    @Test
    @DisplayName("the self-subject reviews kubectl auth posts are left to their controller")
    void reviewsStayWithTheirController() throws Exception {
        String path = "/apis/authentication.k8s.io/v1/selfsubjectreviews";
        assertThat(direct.getHandler(request("POST", path))).isNull();
        HandlerExecutionChain spring = mvc.getHandler(request("POST", path));
        assertThat(((HandlerMethod) spring.getHandler()).getBeanType().getSimpleName())
                .isEqualTo("SelfSubjectReviewController");
    }
}
