package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * ServiceAccounts, Roles and RoleBindings, which KubeRay creates for a RayCluster's autoscaler (common/rbac.go
 * BuildServiceAccount/BuildRole/BuildRoleBinding), with kube-apiserver's validation (pkg/apis/rbac/validation),
 * discovery and tables.
 */
@SpringBootTest(properties = "kuberay-sim.controllers=false")
@AutoConfigureMockMvc
class RbacAndServiceAccountHttpIT {
    static final String SA = "/api/v1/namespaces/default/serviceaccounts";
    static final String ROLES = "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles";
    static final String BINDINGS = "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings";

    @Autowired
    MockMvc mvc;

    MvcResult send(MockHttpServletRequestBuilder b, String contentType, String body) throws Exception {
        if (body != null) {
            b.contentType(contentType).content(body);
        }
        return mvc.perform(b).andReturn();
    }

    static JsonNode body(MvcResult r) throws Exception {
        return Json.MAPPER.readTree(r.getResponse().getContentAsString());
    }

    @Test
    void autoscalerServiceAccountRoleAndBindingAsKubeRayWritesThem() throws Exception {
        assertThat(send(post(SA), "application/json", "{\"metadata\":{\"name\":\"demo\"}}").getResponse()
                .getStatus()).isEqualTo(201);
        assertThat(send(post(ROLES), "application/json", """
                {"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"demo"},
                 "rules":[{"apiGroups":[""],"resources":["pods"],"verbs":["get","list","watch","patch"]},
                          {"apiGroups":["ray.io"],"resources":["rayclusters"],"verbs":["get","patch"]}]}""")
                .getResponse().getStatus()).isEqualTo(201);
        MvcResult rb = send(post(BINDINGS), "application/json", """
                {"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding","metadata":{"name":"demo"},
                 "subjects":[{"kind":"ServiceAccount","name":"demo","namespace":"default"},{"kind":"User","name":"alice"}],
                 "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"demo"}}""");
        assertThat(rb.getResponse().getStatus()).isEqualTo(201);
        assertThat(body(rb).at("/subjects/1/apiGroup").asString()).isEqualTo("rbac.authorization.k8s.io");

        JsonNode table = body(send(get(BINDINGS).header("Accept", DiscoveryAndTableHttpIT.TABLE_ACCEPT), null,
                null));
        assertThat(table.at("/columnDefinitions/1/name").asString()).isEqualTo("Role");
        assertThat(table.at("/rows/0/cells/1").asString()).isEqualTo("Role/demo");
        assertThat(table.at("/rows/0/cells/3").asString()).isEqualTo("alice");
        assertThat(table.at("/rows/0/cells/5").asString()).isEqualTo("default/demo");
        JsonNode saTable = body(send(get(SA).header("Accept", DiscoveryAndTableHttpIT.TABLE_ACCEPT), null, null));
        assertThat(saTable.at("/columnDefinitions/1/name").asString()).isEqualTo("Secrets");

        MvcResult changed = send(patch(BINDINGS + "/demo"), "application/merge-patch+json",
                "{\"roleRef\":{\"name\":\"other\"}}");
        assertThat(changed.getResponse().getStatus()).isEqualTo(422);
        assertThat(body(changed).get("message").asString()).isEqualTo("RoleBinding.rbac.authorization.k8s.io \"demo\" "
                + "is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:\"rbac.authorization.k8s.io\", "
                + "Kind:\"Role\", Name:\"other\"}: cannot change roleRef");
    }

    @Test
    void aPodNamingAServiceAccountThatDoesNotExistIsForbiddenAsTheAdmissionPluginSays() throws Exception {
        String pod = """
                {"metadata":{"name":"needs-sa"},"spec":{"serviceAccountName":"%s",
                 "containers":[{"name":"main","image":"busybox"}]}}""";
        MvcResult refused = send(post("/api/v1/namespaces/default/pods"), "application/json",
                pod.formatted("pod-runner"));
        assertThat(refused.getResponse().getStatus()).isEqualTo(403);
        JsonNode status = body(refused);
        assertThat(status.get("reason").asString()).isEqualTo("Forbidden");
        assertThat(status.get("message").asString()).isEqualTo("pods \"needs-sa\" is forbidden: error looking up "
                + "service account default/pod-runner: serviceaccount \"pod-runner\" not found");
        assertThat(status.at("/details/kind").asString()).isEqualTo("pods");
        assertThat(send(get("/api/v1/namespaces/default/pods/needs-sa"), null, null).getResponse().getStatus())
                .isEqualTo(404);
        // the deprecated field names it too; "default" exists in every namespace (the ServiceAccount controller)
        assertThat(send(post("/api/v1/namespaces/default/pods"), "application/json", pod.formatted("")
                .replace("\"serviceAccountName\":\"\"", "\"serviceAccount\":\"pod-runner\"")).getResponse()
                .getStatus()).isEqualTo(403);
        assertThat(send(post("/api/v1/namespaces/default/pods"), "application/json",
                pod.formatted("default").replace("needs-sa", "default-sa")).getResponse().getStatus()).isEqualTo(201);

        assertThat(send(post(SA), "application/json", "{\"metadata\":{\"name\":\"pod-runner\"}}").getResponse()
                .getStatus()).isEqualTo(201);
        assertThat(send(post("/api/v1/namespaces/default/pods"), "application/json", pod.formatted("pod-runner"))
                .getResponse().getStatus()).isEqualTo(201);
    }

    @Test
    void invalidRulesAndBindingsAreRejectedAsKubeApiserverDoes() throws Exception {
        MvcResult role = send(post(ROLES), "application/json", """
                {"metadata":{"name":"bad"},"rules":[{"resources":["pods"]},{"verbs":["get"],"nonResourceURLs":["/x"]}]}""");
        assertThat(role.getResponse().getStatus()).isEqualTo(422);
        assertThat(body(role).get("message").asString()).isEqualTo("Role.rbac.authorization.k8s.io \"bad\" is invalid: ["
                + "rules[0].verbs: Required value: verbs must contain at least one value, "
                + "rules[0].apiGroups: Required value: resource rules must supply at least one api group, "
                + "rules[1].nonResourceURLs: Invalid value: []string{\"/x\"}: namespaced rules cannot apply to "
                + "non-resource URLs]");

        MvcResult binding = send(post(BINDINGS), "application/json", """
                {"metadata":{"name":"bad"},"subjects":[{"kind":"Robot","name":"r"}],
                 "roleRef":{"apiGroup":"example.com","kind":"Role","name":"a/b"}}""");
        assertThat(body(binding).get("message").asString()).isEqualTo("RoleBinding.rbac.authorization.k8s.io \"bad\" "
                + "is invalid: [roleRef.apiGroup: Unsupported value: \"example.com\": supported values: "
                + "\"rbac.authorization.k8s.io\", roleRef.name: Invalid value: \"a/b\": may not contain '/', "
                + "subjects[0].kind: Unsupported value: \"Robot\": supported values: \"ServiceAccount\", \"User\", "
                + "\"Group\"]");

        MvcResult name = send(post(ROLES), "application/json", "{\"metadata\":{\"name\":\"..\"},\"rules\":[]}");
        assertThat(body(name).get("message").asString()).contains("metadata.name: Invalid value: \"..\": may not be '..'");
    }

    @Test
    void discoveryListsTheRbacGroupAndServiceAccounts() throws Exception {
        JsonNode rbac = body(send(get("/apis/rbac.authorization.k8s.io/v1"), null, null));
        assertThat(rbac.get("resources")).extracting(r -> r.get("name").asString())
                .containsExactly("roles", "rolebindings");
        JsonNode core = body(send(get("/api/v1"), null, null));
        boolean sa = false;
        for (JsonNode r : core.get("resources")) {
            if (r.get("name").asString().equals("serviceaccounts")) {
                sa = r.at("/shortNames/0").asString().equals("sa");
            }
        }
        assertThat(sa).isTrue();
    }
}
