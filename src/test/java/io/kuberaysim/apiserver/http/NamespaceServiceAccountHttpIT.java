package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * What a new namespace holds and what a Pod created in it looks like, as on a cluster: the {@code default}
 * ServiceAccount and {@code kube-root-ca.crt}, and Pods that run as {@code default} with the projected
 * {@code kube-api-access-*} volume mounted.
 */
@SpringBootTest(properties = {"kuberay-sim.controllers=false", "kuberay-sim.clock=virtual"})
@AutoConfigureMockMvc
class NamespaceServiceAccountHttpIT {
    static final String POD = """
            {"metadata":{"name":"%s"},"spec":{%s"containers":[{"name":"main","image":"busybox"}]}}""";

    @Autowired
    MockMvc mvc;
    @Autowired
    Clock clock;

    MvcResult send(MockHttpServletRequestBuilder b, String body) throws Exception {
        if (body != null) {
            b.contentType("application/json").content(body);
        }
        return mvc.perform(b).andReturn();
    }

    static JsonNode body(MvcResult r) throws Exception {
        return Json.MAPPER.readTree(r.getResponse().getContentAsString());
    }

    private void namespace(String name) throws Exception {
        assertThat(send(post("/api/v1/namespaces"), "{\"metadata\":{\"name\":\"" + name + "\"}}").getResponse()
                .getStatus()).isEqualTo(201);
    }

    /** Lets the controllers on the control loop react to what was written. */
    private void settle() {
        ((VirtualClock) clock).awaitIdle();
    }

    @Test
    @DisplayName("a new namespace gets the default ServiceAccount and kube-root-ca.crt; a deleted one comes back")
    void aNewNamespaceHasBoth() throws Exception {
        namespace("team-a");
        settle();
        MvcResult sa = send(get("/api/v1/namespaces/team-a/serviceaccounts/default"), null);
        assertThat(sa.getResponse().getStatus()).isEqualTo(200);
        String uid = body(sa).at("/metadata/uid").asString();
        JsonNode ca = body(send(get("/api/v1/namespaces/team-a/configmaps/kube-root-ca.crt"), null));
        assertThat(ca.at("/data/ca.crt").asString()).startsWith("-----BEGIN CERTIFICATE-----");

        assertThat(send(delete("/api/v1/namespaces/team-a/serviceaccounts/default"), null).getResponse()
                .getStatus()).isEqualTo(200);
        assertThat(send(delete("/api/v1/namespaces/team-a/configmaps/kube-root-ca.crt"), null).getResponse()
                .getStatus()).isEqualTo(200);
        settle();
        MvcResult again = send(get("/api/v1/namespaces/team-a/serviceaccounts/default"), null);
        assertThat(again.getResponse().getStatus()).isEqualTo(200);
        assertThat(body(again).at("/metadata/uid").asString()).isNotEqualTo(uid);
        assertThat(send(get("/api/v1/namespaces/team-a/configmaps/kube-root-ca.crt"), null).getResponse()
                .getStatus()).isEqualTo(200);
    }

    @Test
    @DisplayName("a Pod created right after its namespace runs as default with the token volume in every container")
    void aPodGetsTheDefaults() throws Exception {
        namespace("team-b");
        MvcResult created = send(post("/api/v1/namespaces/team-b/pods"), POD.formatted("app", ""));
        assertThat(created.getResponse().getStatus()).as(created.getResponse().getContentAsString()).isEqualTo(201);
        JsonNode spec = body(created).get("spec");
        assertThat(spec.get("serviceAccountName").asString()).isEqualTo("default");
        assertThat(spec.get("serviceAccount").asString()).isEqualTo("default");
        String volume = spec.at("/volumes/0/name").asString();
        assertThat(volume).matches("kube-api-access-[a-z0-9]{5}");
        assertThat(spec.at("/volumes/0/projected/sources/0/serviceAccountToken/expirationSeconds").asInt())
                .isEqualTo(3607);
        assertThat(spec.at("/volumes/0/projected/sources/1/configMap/name").asString()).isEqualTo("kube-root-ca.crt");
        assertThat(spec.at("/volumes/0/projected/sources/2/downwardAPI/items/0/fieldRef/fieldPath").asString())
                .isEqualTo("metadata.namespace");
        JsonNode mount = spec.at("/containers/0/volumeMounts/0");
        assertThat(mount.get("name").asString()).isEqualTo(volume);
        assertThat(mount.get("mountPath").asString()).isEqualTo("/var/run/secrets/kubernetes.io/serviceaccount");
        assertThat(mount.get("readOnly").asBoolean()).isTrue();
    }

    @Test
    @DisplayName("automountServiceAccountToken: false mounts no token; a ServiceAccount that is not there is a 403")
    void noTokenAndMissingAccount() throws Exception {
        MvcResult quiet = send(post("/api/v1/namespaces/default/pods"),
                POD.formatted("quiet", "\"automountServiceAccountToken\":false,"));
        assertThat(quiet.getResponse().getStatus()).isEqualTo(201);
        assertThat(body(quiet).at("/spec/volumes").isMissingNode()).isTrue();
        assertThat(body(quiet).at("/spec/containers/0/volumeMounts").isMissingNode()).isTrue();

        MvcResult refused = send(post("/api/v1/namespaces/default/pods"),
                POD.formatted("runner", "\"serviceAccountName\":\"runner\","));
        assertThat(refused.getResponse().getStatus()).isEqualTo(403);
        assertThat(body(refused).get("message").asString()).isEqualTo("pods \"runner\" is forbidden: error looking "
                + "up service account default/runner: serviceaccount \"runner\" not found");
    }
}
