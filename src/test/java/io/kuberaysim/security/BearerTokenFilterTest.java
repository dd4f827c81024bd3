package io.kuberaysim.security;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.mock.web.MockHttpServletRequest;

import static org.assertj.core.api.Assertions.assertThat;

/** Which paths anonymous callers may read with authentication on, and which headers carry a bearer token. */
class BearerTokenFilterTest {
    @ParameterizedTest
    @ValueSource(strings = {"/version", "/version/", "/healthz", "/livez", "/readyz", "/swagger-ui.html",
            "/swagger-ui/index.html", "/v3/api-docs", "/v3/api-docs/swagger-config"})
    void publicInfoAndDocumentationArePublic(String path) {
        assertThat(BearerTokenFilter.isPublic(path)).isTrue();
    }

    /** The web console's files and the redirect to them: the page asks for the token once it has loaded. */
    @ParameterizedTest
    @ValueSource(strings = {"/", "/console", "/console/", "/console/index.html", "/console/js/views/cluster.js",
            "/console/examples/", "/console/examples/demo-raycluster.yaml"})
    void theConsolePageIsPublic(String path) {
        assertThat(BearerTokenFilter.isPublic(path)).isTrue();
    }

    /** A path that only starts like the console's could lead to an API path once normalised. */
    @ParameterizedTest
    @ValueSource(strings = {"/console/../api/v1/pods", "/console/%2e%2e/api/v1/pods", "/console/x;/../../metrics",
            "/consoles", "/console.json"})
    void onlyPlainConsoleFilePathsArePublic(String path) {
        assertThat(BearerTokenFilter.isPublic(path)).isFalse();
    }

    /** kube's system:public-info-viewer names exact paths: a check's sub-path or /metrics needs a token. */
    @ParameterizedTest
    @ValueSource(strings = {"/metrics", "/readyz/ping", "/healthz/log", "/api", "/apis", "/openapi/v3",
            "/sim/v1/clock", "/versions", "/api/v1/namespaces"})
    void everythingElseNeedsAToken(String path) {
        assertThat(BearerTokenFilter.isPublic(path)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"Bearer abc", "bearer abc", "BEARER abc", "  Bearer abc  ", "Bearer abc extra"})
    void bearerTokensAreRead(String header) {
        MockHttpServletRequest req = new MockHttpServletRequest();
        req.addHeader("Authorization", header);

        assertThat(BearerTokenFilter.bearerToken(req)).isEqualTo("abc");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Basic YTpi", "Bearer", "Bearer ", "Token abc", "abc"})
    void otherSchemesCarryNoToken(String header) {
        MockHttpServletRequest req = new MockHttpServletRequest();
        req.addHeader("Authorization", header);

        assertThat(BearerTokenFilter.bearerToken(req)).isNull();
    }
}
