package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.HttpMethod;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import tools.jackson.databind.JsonNode;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.request;

/** The REST surface through MockMvc: CRUD, subresources, content types, and Status errors for bad input. */
@SpringBootTest(properties = "kuberay-sim.controllers=false")
@AutoConfigureMockMvc
class ResourceHttpIT {
    static final String RC = "/apis/ray.io/v1/namespaces/default/rayclusters";
    static final String PODS = "/api/v1/namespaces/default/pods";
    static final String MANIFEST = """
            apiVersion: ray.io/v1
            kind: RayCluster
            metadata:
              name: %s
            spec:
              headGroupSpec:
                template:
                  spec:
                    containers: [{name: ray-head, image: rayproject/ray:2.9.0}]
              workerGroupSpecs:
              - groupName: g
                replicas: 1
                template:
                  spec:
                    containers: [{name: ray-worker, image: rayproject/ray:2.9.0}]
            """;

    @Autowired
    MockMvc mvc;

    record Reply(int code, JsonNode body, MvcResult raw) {
    }

    Reply call(HttpMethod method, String uri, String contentType, String body) throws Exception {
        MockHttpServletRequestBuilder b = request(method, uri);
        if (contentType != null) {
            b.contentType(contentType);
        }
        if (body != null) {
            b.content(body);
        }
        MvcResult r = mvc.perform(b).andReturn();
        String text = r.getResponse().getContentAsString();
        JsonNode json = text.isEmpty() ? null : Json.MAPPER.readTree(text);
        return new Reply(r.getResponse().getStatus(), json, r);
    }

    void createCluster(String name) throws Exception {
        Reply r = call(HttpMethod.POST, RC, "application/yaml", MANIFEST.formatted(name));
        assertThat(r.code()).as(r.body().toString()).isEqualTo(201);
    }

    @Test
    @DisplayName("create (YAML), get, list, merge patch, status update and delete of a RayCluster")
    void rayClusterLifecycle() throws Exception {
        createCluster("life");
        Reply got = call(HttpMethod.GET, RC + "/life", null, null);
        assertThat(got.code()).isEqualTo(200);
        assertThat(got.body().at("/metadata/generation").asInt()).isEqualTo(1);
        assertThat(got.body().get("kind").asString()).isEqualTo("RayCluster");

        Reply list = call(HttpMethod.GET, "/apis/ray.io/v1/rayclusters", null, null);
        assertThat(list.body().get("kind").asString()).isEqualTo("RayClusterList");
        assertThat(list.body().get("items").isArray()).isTrue();
        assertThat(list.body().at("/metadata/resourceVersion").asString()).isNotEmpty();

        Reply patched = call(HttpMethod.PATCH, RC + "/life", "application/merge-patch+json",
                "{\"spec\":{\"workerGroupSpecs\":[{\"groupName\":\"g\",\"replicas\":3,\"template\":{\"spec\":"
                        + "{\"containers\":[{\"name\":\"w\",\"image\":\"x\"}]}}}]}}");
        assertThat(patched.code()).isEqualTo(200);
        assertThat(patched.body().at("/metadata/generation").asInt()).isEqualTo(2);

        Reply status = call(HttpMethod.PATCH, RC + "/life/status", "application/merge-patch+json",
                "{\"status\":{\"state\":\"ready\"}}");
        assertThat(status.body().at("/status/state").asString()).isEqualTo("ready");
        assertThat(status.body().at("/metadata/generation").asInt()).isEqualTo(2);
        assertThat(call(HttpMethod.GET, RC + "/life/status", null, null).body().at("/status/state").asString())
                .isEqualTo("ready");

        Reply deleted = call(HttpMethod.DELETE, RC + "/life", null, null);
        assertThat(deleted.code()).isEqualTo(200);
        assertThat(deleted.body().get("kind").asString()).isEqualTo("Status");
        assertThat(deleted.body().get("status").asString()).isEqualTo("Success");
        assertThat(deleted.body().at("/details/kind").asString()).isEqualTo("rayclusters");
        assertThat(call(HttpMethod.GET, RC + "/life", null, null).code()).isEqualTo(404);
    }

    @Test
    void podDeleteAnswersTheObjectAndWarningsAreHeaders() throws Exception {
        Reply created = call(HttpMethod.POST, PODS, "application/json",
                "{\"metadata\":{\"name\":\"p\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}");
        assertThat(created.code()).isEqualTo(201);
        Reply deleted = call(HttpMethod.DELETE, PODS + "/p", null, null);
        assertThat(deleted.body().get("kind").asString()).isEqualTo("Pod");

        Reply warn = call(HttpMethod.POST, RC, "application/yaml",
                MANIFEST.formatted("warned").replace("spec:\n  headGroupSpec", "spec:\n  bogus: 1\n  headGroupSpec"));
        assertThat(warn.code()).isEqualTo(201);
        assertThat(warn.raw().getResponse().getHeaders("Warning"))
                .containsExactly("299 - \"unknown field \\\"spec.bogus\\\"\"");
    }

    @Test
    void namespacesAreClusterScopedAndSeeded() throws Exception {
        Reply ns = call(HttpMethod.GET, "/api/v1/namespaces", null, null);
        assertThat(ns.body().get("items")).extracting(n -> n.at("/metadata/name").asString())
                .contains("default", "kube-system", "kube-public", "kube-node-lease");
        assertThat(call(HttpMethod.GET, "/api/v1/namespaces/kube-system", null, null).body()
                .at("/status/phase").asString()).isEqualTo("Active");
    }

    static Stream<Arguments> badInput() {
        String pod = "{\"metadata\":{\"name\":\"bad\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"b\"}]}}";
        return Stream.of(
                Arguments.of("malformed JSON", HttpMethod.POST, RC, "application/json", "{\"metadata\":", 400, "BadRequest"),
                Arguments.of("malformed YAML", HttpMethod.POST, RC, "application/yaml", "a: [b", 400, "BadRequest"),
                Arguments.of("JSON array body", HttpMethod.POST, RC, "application/json", "[1,2]", 400, "BadRequest"),
                Arguments.of("empty body", HttpMethod.POST, RC, "application/json", "", 400, "BadRequest"),
                Arguments.of("wrong content type", HttpMethod.POST, RC, "text/plain", "x", 415, "UnsupportedMediaType"),
                Arguments.of("unknown resource", HttpMethod.GET, "/apis/ray.io/v1/namespaces/default/rayfoos", null, null, 404, "NotFound"),
                Arguments.of("unknown group", HttpMethod.GET, "/apis/nope.io/v1/things", null, null, 404, "NotFound"),
                Arguments.of("unknown core path", HttpMethod.GET, "/api/v1/namespaces/default/pods/x/y/z", null, null, 404, "NotFound"),
                Arguments.of("missing object", HttpMethod.GET, RC + "/ghost", null, null, 404, "NotFound"),
                Arguments.of("missing namespace", HttpMethod.POST, "/apis/ray.io/v1/namespaces/ghost/rayclusters", "application/yaml", MANIFEST.formatted("x"), 404, "NotFound"),
                Arguments.of("namespace mismatch", HttpMethod.POST, RC, "application/json", "{\"metadata\":{\"name\":\"x\",\"namespace\":\"kube-system\"}}", 400, "BadRequest"),
                Arguments.of("kind mismatch", HttpMethod.POST, RC, "application/json", "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"x\"}}", 400, "BadRequest"),
                Arguments.of("apiVersion mismatch", HttpMethod.POST, RC, "application/json", "{\"apiVersion\":\"ray.io/v2\",\"metadata\":{\"name\":\"x\"}}", 400, "BadRequest"),
                Arguments.of("no name", HttpMethod.POST, RC, "application/yaml", MANIFEST.formatted("x").replace("  name: x\n", "  labels: {a: b}\n"), 422, "Invalid"),
                Arguments.of("uppercase name", HttpMethod.POST, RC, "application/yaml", MANIFEST.formatted("Bad"), 422, "Invalid"),
                Arguments.of("name longer than a DNS subdomain", HttpMethod.POST, RC, "application/yaml", MANIFEST.formatted("a".repeat(254)), 422, "Invalid"),
                Arguments.of("name with an underscore", HttpMethod.POST, RC, "application/yaml", MANIFEST.formatted("a_b"), 422, "Invalid"),
                Arguments.of("invalid label key", HttpMethod.POST, PODS, "application/json", "{\"metadata\":{\"name\":\"l\",\"labels\":{\"a b\":\"c\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"b\"}]}}", 422, "Invalid"),
                Arguments.of("invalid label value", HttpMethod.POST, PODS, "application/json", "{\"metadata\":{\"name\":\"l\",\"labels\":{\"a\":\"-x-\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"b\"}]}}", 422, "Invalid"),
                Arguments.of("label value not a string", HttpMethod.POST, PODS, "application/json", "{\"metadata\":{\"name\":\"l\",\"labels\":{\"a\":1}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"b\"}]}}", 400, "BadRequest"),
                Arguments.of("metadata not an object", HttpMethod.POST, PODS, "application/json", "{\"metadata\":\"x\"}", 400, "BadRequest"),
                Arguments.of("missing headGroupSpec", HttpMethod.POST, RC, "application/json", "{\"metadata\":{\"name\":\"x\"},\"spec\":{}}", 422, "Invalid"),
                Arguments.of("replicas not an integer", HttpMethod.POST, RC, "application/yaml", MANIFEST.formatted("x").replace("replicas: 1", "replicas: two"), 422, "Invalid"),
                Arguments.of("spec not an object", HttpMethod.POST, RC, "application/json", "{\"metadata\":{\"name\":\"x\"},\"spec\":5}", 422, "Invalid"),
                Arguments.of("pod without containers", HttpMethod.POST, PODS, "application/json", "{\"metadata\":{\"name\":\"x\"},\"spec\":{}}", 422, "Invalid"),
                Arguments.of("pod container without image", HttpMethod.POST, PODS, "application/json", "{\"metadata\":{\"name\":\"x\"},\"spec\":{\"containers\":[{\"name\":\"c\"}]}}", 422, "Invalid"),
                Arguments.of("bad restartPolicy", HttpMethod.POST, PODS, "application/json", "{\"metadata\":{\"name\":\"x\"},\"spec\":{\"restartPolicy\":\"Sometimes\",\"containers\":[{\"name\":\"c\",\"image\":\"b\"}]}}", 422, "Invalid"),
                Arguments.of("service without ports", HttpMethod.POST, "/api/v1/namespaces/default/services", "application/json", "{\"metadata\":{\"name\":\"s\"},\"spec\":{}}", 422, "Invalid"),
                Arguments.of("service port out of range", HttpMethod.POST, "/api/v1/namespaces/default/services", "application/json", "{\"metadata\":{\"name\":\"s\"},\"spec\":{\"ports\":[{\"port\":70000}]}}", 422, "Invalid"),
                Arguments.of("bad label selector", HttpMethod.GET, PODS + "?labelSelector=a%20in%20(", null, null, 400, "BadRequest"),
                Arguments.of("unsupported field selector", HttpMethod.GET, PODS + "?fieldSelector=spec.foo%3Dx", null, null, 400, "BadRequest"),
                Arguments.of("malformed field selector", HttpMethod.GET, PODS + "?fieldSelector=abc", null, null, 400, "BadRequest"),
                Arguments.of("bad limit", HttpMethod.GET, PODS + "?limit=ten", null, null, 400, "BadRequest"),
                Arguments.of("bad continue token", HttpMethod.GET, PODS + "?continue=%%%", null, null, 400, "BadRequest"),
                Arguments.of("bad fieldValidation", HttpMethod.POST, PODS + "?fieldValidation=Maybe", "application/json", pod, 400, "BadRequest"),
                Arguments.of("bad dryRun", HttpMethod.POST, PODS + "?dryRun=Some", "application/json", pod, 400, "BadRequest"),
                Arguments.of("strict unknown field", HttpMethod.POST, RC + "?fieldValidation=Strict", "application/yaml", MANIFEST.formatted("x").replace("spec:\n  headGroupSpec", "spec:\n  bogus: 1\n  headGroupSpec"), 400, "BadRequest"),
                Arguments.of("patch with unknown content type", HttpMethod.PATCH, RC + "/ghost", "application/xml", "<a/>", 415, "UnsupportedMediaType"),
                Arguments.of("strategic patch on a CR", HttpMethod.PATCH, RC + "/existing", "application/strategic-merge-patch+json", "{}", 415, "UnsupportedMediaType"),
                Arguments.of("json patch that is not an array", HttpMethod.PATCH, RC + "/existing", "application/json-patch+json", "{}", 400, "BadRequest"),
                Arguments.of("json patch on a missing path", HttpMethod.PATCH, RC + "/existing", "application/json-patch+json", "[{\"op\":\"remove\",\"path\":\"/spec/nothing\"}]", 422, "Invalid"),
                Arguments.of("merge patch that breaks the schema", HttpMethod.PATCH, RC + "/existing", "application/merge-patch+json", "{\"spec\":{\"headGroupSpec\":null}}", 422, "Invalid"),
                Arguments.of("patch of a missing object", HttpMethod.PATCH, RC + "/ghost", "application/merge-patch+json", "{}", 404, "NotFound"),
                Arguments.of("apply without fieldManager", HttpMethod.PATCH, RC + "/existing", "application/apply-patch+yaml", "{}", 422, "Invalid"),
                Arguments.of("force on a merge patch", HttpMethod.PATCH, RC + "/existing?force=true", "application/merge-patch+json", "{}", 422, "Invalid"),
                Arguments.of("PUT without resourceVersion on a CR", HttpMethod.PUT, RC + "/existing", "application/yaml", MANIFEST.formatted("existing"), 422, "Invalid"),
                Arguments.of("PUT with a stale resourceVersion", HttpMethod.PUT, RC + "/existing", "application/yaml", MANIFEST.formatted("existing").replace("  name: existing", "  name: existing\n  resourceVersion: \"1\""), 409, "Conflict"),
                Arguments.of("PUT with another name", HttpMethod.PUT, RC + "/existing", "application/yaml", MANIFEST.formatted("other"), 400, "BadRequest"),
                Arguments.of("PUT on a collection", HttpMethod.PUT, RC, "application/yaml", MANIFEST.formatted("x"), 405, "MethodNotAllowed"),
                Arguments.of("POST on an object", HttpMethod.POST, RC + "/existing", "application/yaml", MANIFEST.formatted("x"), 405, "MethodNotAllowed"),
                Arguments.of("duplicate create", HttpMethod.POST, RC, "application/yaml", MANIFEST.formatted("existing"), 409, "AlreadyExists"),
                Arguments.of("delete of a missing object", HttpMethod.DELETE, RC + "/ghost", null, null, 404, "NotFound"),
                Arguments.of("delete with a bad propagationPolicy", HttpMethod.DELETE, RC + "/existing", "application/json", "{\"propagationPolicy\":\"Sideways\"}", 422, "Invalid"),
                Arguments.of("delete with a uid precondition", HttpMethod.DELETE, RC + "/existing", "application/json", "{\"preconditions\":{\"uid\":\"nope\"}}", 409, "Conflict"),
                Arguments.of("status subresource of a type without one", HttpMethod.GET, "/api/v1/namespaces/default/configmaps/x/status", null, null, 404, "NotFound"),
                Arguments.of("body over 3 MiB", HttpMethod.POST, "/api/v1/namespaces/default/configmaps", "application/json", "{\"metadata\":{\"name\":\"big\"},\"data\":{\"a\":\"" + "x".repeat(3 * 1024 * 1024) + "\"}}", 413, "RequestEntityTooLarge"),
                Arguments.of("configmap data value not a string", HttpMethod.POST, "/api/v1/namespaces/default/configmaps", "application/json", "{\"metadata\":{\"name\":\"n\"},\"data\":{\"a\":1}}", 400, "BadRequest"),
                Arguments.of("configmap binaryData value not base64", HttpMethod.POST, "/api/v1/namespaces/default/configmaps", "application/json", "{\"metadata\":{\"name\":\"n\"},\"binaryData\":{\"a\":\"not base64\"}}", 400, "BadRequest"),
                Arguments.of("not acceptable", HttpMethod.GET, RC, null, null, 406, "NotAcceptable"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInput")
    @DisplayName("bad input gets a Status with the right code and reason, and leaves stored objects untouched")
    void badInputGetsAStatus(String what, HttpMethod method, String uri, String contentType, String body, int code,
                             String reason) throws Exception {
        if (call(HttpMethod.GET, RC + "/existing", null, null).code() == 404) {
            createCluster("existing");
        }
        JsonNode before = call(HttpMethod.GET, RC + "/existing", null, null).body();
        MockHttpServletRequestBuilder b = request(method, uri);
        if (contentType != null) {
            b.contentType(contentType);
        }
        if (body != null) {
            b.content(body);
        }
        if (what.equals("not acceptable")) {
            b.accept("application/xml");
        }
        MvcResult r = mvc.perform(b).andReturn();
        JsonNode status = Json.MAPPER.readTree(r.getResponse().getContentAsString());
        assertThat(r.getResponse().getStatus()).as(status.toString()).isEqualTo(code);
        assertThat(status.get("kind").asString()).isEqualTo("Status");
        assertThat(status.get("status").asString()).isEqualTo("Failure");
        assertThat(status.get("reason").asString()).isEqualTo(reason);
        assertThat(status.get("code").asInt()).isEqualTo(code);
        assertThat(status.get("message").asString()).isNotBlank().doesNotContain("Exception");
        assertThat(call(HttpMethod.GET, RC + "/existing", null, null).body()).isEqualTo(before);
    }
}
