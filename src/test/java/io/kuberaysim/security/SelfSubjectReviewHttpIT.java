package io.kuberaysim.security;

import io.kuberaysim.api.Json;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * kubectl's auth APIs without authentication: every review is allowed for system:anonymous, the reviews are in
 * discovery and OpenAPI with the create verb only, and malformed reviews get kube-apiserver's errors.
 */
@SpringBootTest(properties = "kuberay-sim.controllers=false")
@AutoConfigureMockMvc
class SelfSubjectReviewHttpIT {
    static final String SSAR = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";
    static final String SSRR = "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews";
    static final String SSR = "/apis/authentication.k8s.io/v1/selfsubjectreviews";

    @Autowired
    MockMvc mvc;

    private MvcResult post(String uri, String body) throws Exception {
        return mvc.perform(org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post(uri)
                .contentType("application/json").content(body)).andReturn();
    }

    private static JsonNode json(MvcResult r) throws Exception {
        return Json.MAPPER.readTree(r.getResponse().getContentAsString());
    }

    @Test
    void accessReviewsAreAllowed() throws Exception {
        MvcResult r = post(SSAR, """
                {"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview","metadata":{"creationTimestamp":null},
                 "spec":{"resourceAttributes":{"namespace":"default","verb":"create","group":"ray.io","resource":"rayclusters"}}}""");

        assertThat(r.getResponse().getStatus()).isEqualTo(201);
        JsonNode review = json(r);
        assertThat(review.get("kind").asString()).isEqualTo("SelfSubjectAccessReview");
        assertThat(review.get("apiVersion").asString()).isEqualTo("authorization.k8s.io/v1");
        assertThat(review.at("/spec/resourceAttributes/resource").asString()).isEqualTo("rayclusters");
        assertThat(review.at("/status/allowed").asBoolean()).isTrue();

        MvcResult path = post(SSAR, """
                {"spec":{"nonResourceAttributes":{"path":"/metrics","verb":"get"}}}""");
        assertThat(json(path).at("/status/allowed").asBoolean()).isTrue();
    }

    @Test
    void rulesReviewGrantsEverything() throws Exception {
        JsonNode review = json(post(SSRR, "{\"spec\":{\"namespace\":\"default\"}}"));

        assertThat(review.at("/status/resourceRules/0/verbs/0").asString()).isEqualTo("*");
        assertThat(review.at("/status/resourceRules/0/apiGroups/0").asString()).isEqualTo("*");
        assertThat(review.at("/status/resourceRules/0/resources/0").asString()).isEqualTo("*");
        assertThat(review.at("/status/nonResourceRules/0/nonResourceURLs/0").asString()).isEqualTo("*");
        assertThat(review.at("/status/incomplete").asBoolean()).isFalse();
    }

    @Test
    void whoamiIsAnonymousWithoutAuthentication() throws Exception {
        JsonNode review = json(post(SSR, "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"SelfSubjectReview\"}"));

        assertThat(review.at("/status/userInfo/username").asString()).isEqualTo("system:anonymous");
        assertThat(review.at("/status/userInfo/groups/0").asString()).isEqualTo("system:unauthenticated");
        assertThat(review.at("/status/userInfo/uid").isMissingNode()).isTrue();
        assertThat(review.at("/metadata/creationTimestamp").asString()).endsWith("Z");
    }

    @Test
    void malformedReviewsGetKubeApiserversErrors() throws Exception {
        MvcResult none = post(SSAR, "{\"spec\":{}}");
        assertThat(none.getResponse().getStatus()).isEqualTo(422);
        assertThat(json(none).get("message").asString()).isEqualTo("SelfSubjectAccessReview.authorization.k8s.io \"\" "
                + "is invalid: spec.resourceAttributes: Invalid value: \"null\": exactly one of nonResourceAttributes "
                + "or resourceAttributes must be specified");
        assertThat(json(none).at("/details/causes/0/field").asString()).isEqualTo("spec.resourceAttributes");

        MvcResult both = post(SSAR, "{\"spec\":{\"resourceAttributes\":{\"verb\":\"get\"},"
                + "\"nonResourceAttributes\":{\"path\":\"/x\"}}}");
        assertThat(both.getResponse().getStatus()).isEqualTo(422);
        assertThat(json(both).get("message").asString())
                .contains("spec.nonResourceAttributes", "cannot be specified in combination with resourceAttributes");

        MvcResult named = post(SSAR, "{\"metadata\":{\"name\":\"x\"},\"spec\":{\"resourceAttributes\":{}}}");
        assertThat(named.getResponse().getStatus()).isEqualTo(422);
        assertThat(json(named).get("message").asString()).contains("metadata: Invalid value", "must be empty");

        MvcResult noNamespace = post(SSRR, "{\"spec\":{}}");
        assertThat(noNamespace.getResponse().getStatus()).isEqualTo(400);
        assertThat(json(noNamespace).get("message").asString()).isEqualTo("no namespace on request");

        MvcResult wrongKind = post(SSR, "{\"apiVersion\":\"v1\",\"kind\":\"Pod\"}");
        assertThat(wrongKind.getResponse().getStatus()).isEqualTo(400);
        assertThat(json(wrongKind).get("reason").asString()).isEqualTo("BadRequest");

        MvcResult notJson = post(SSAR, "{");
        assertThat(notJson.getResponse().getStatus()).isEqualTo(400);

        MvcResult empty = post(SSAR, "");
        assertThat(empty.getResponse().getStatus()).isEqualTo(400);

        MvcResult read = mvc.perform(get(SSAR)).andReturn();
        assertThat(read.getResponse().getStatus()).isEqualTo(405);
        assertThat(json(read).get("reason").asString()).isEqualTo("MethodNotAllowed");
        assertThat(mvc.perform(get(SSAR + "/some-name")).andReturn().getResponse().getStatus()).isEqualTo(404);
    }

    @Test
    void theReviewsAreInDiscoveryAndOpenApiAsCreateOnly() throws Exception {
        JsonNode authz = json(mvc.perform(get("/apis/authorization.k8s.io/v1")).andReturn());
        List<String> names = new ArrayList<>();
        authz.get("resources").forEach(r -> {
            names.add(r.get("name").asString());
            assertThat(r.get("verbs").toString()).isEqualTo("[\"create\"]");
            assertThat(r.get("namespaced").asBoolean()).isFalse();
        });
        assertThat(names).containsExactly("selfsubjectaccessreviews", "selfsubjectrulesreviews");
        JsonNode authn = json(mvc.perform(get("/apis/authentication.k8s.io/v1")).andReturn());
        assertThat(authn.at("/resources/0/kind").asString()).isEqualTo("SelfSubjectReview");

        JsonNode aggregated = json(mvc.perform(get("/apis").header("Accept",
                "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")).andReturn());
        assertThat(aggregated.toString()).contains("\"resource\":\"selfsubjectreviews\"",
                "\"resource\":\"selfsubjectaccessreviews\"");

        JsonNode openapi = json(mvc.perform(get("/openapi/v3/apis/authorization.k8s.io/v1")).andReturn());
        JsonNode path = openapi.at("/paths/~1apis~1authorization.k8s.io~1v1~1selfsubjectaccessreviews");
        assertThat(path.propertyNames()).containsExactly("post");
        assertThat(openapi.at("/components/schemas/io.k8s.api.authorization.v1.SelfSubjectAccessReview"
                + "/x-kubernetes-group-version-kind/0/kind").asString()).isEqualTo("SelfSubjectAccessReview");

        JsonNode swagger = json(mvc.perform(get("/v3/api-docs")).andReturn());
        assertThat(swagger.at("/paths/~1apis~1authentication.k8s.io~1v1~1selfsubjectreviews/post").isObject())
                .isTrue();
        assertThat(swagger.at("/components/securitySchemes").isMissingNode())
                .as("no Authorize button without authentication").isTrue();
    }
}
