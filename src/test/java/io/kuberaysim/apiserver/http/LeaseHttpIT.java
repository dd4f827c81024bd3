package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;

/** coordination.k8s.io/v1 Leases: served, discovered, described in OpenAPI, validated, printed with their holder. */
@SpringBootTest(properties = "kuberay-sim.controllers=false")
@AutoConfigureMockMvc
class LeaseHttpIT {
    static final String LEASES = "/apis/coordination.k8s.io/v1/namespaces/default/leases";

    @Autowired
    MockMvc mvc;

    JsonNode json(MvcResult r) throws Exception {
        return Json.MAPPER.readTree(r.getResponse().getContentAsString());
    }

    @Test
    void leaderElectionWritesALeaseAndRenewsIt() throws Exception {
        MvcResult created = mvc.perform(post(LEASES).contentType("application/json").content("""
                {"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"operator-lock"},
                 "spec":{"holderIdentity":"pod-a","leaseDurationSeconds":15,"acquireTime":"2025-01-01T00:00:00.000000Z",
                         "renewTime":"2025-01-01T00:00:00.000000Z","leaseTransitions":0}}""")).andReturn();
        assertThat(created.getResponse().getStatus()).as(created.getResponse().getContentAsString()).isEqualTo(201);
        JsonNode lease = json(created);
        ((tools.jackson.databind.node.ObjectNode) lease.get("spec")).put("renewTime", "2025-01-01T00:00:02.000000Z");
        MvcResult renewed = mvc.perform(put(LEASES + "/operator-lock").contentType("application/json")
                .content(lease.toString())).andReturn();
        assertThat(renewed.getResponse().getStatus()).isEqualTo(200);
        // a second candidate renewing from the old resourceVersion loses, as leader election relies on
        MvcResult stale = mvc.perform(put(LEASES + "/operator-lock").contentType("application/json")
                .content(lease.toString())).andReturn();
        assertThat(stale.getResponse().getStatus()).isEqualTo(409);

        MvcResult table = mvc.perform(get(LEASES).accept("application/json;as=Table;v=v1;g=meta.k8s.io")).andReturn();
        assertThat(table.getResponse().getContentAsString()).contains("\"Holder\"", "pod-a");
    }

    @Test
    void aNonPositiveDurationIsInvalid() throws Exception {
        MvcResult r = mvc.perform(post(LEASES).contentType("application/json").content("""
                {"metadata":{"name":"bad"},"spec":{"leaseDurationSeconds":0,"leaseTransitions":-1}}""")).andReturn();
        assertThat(r.getResponse().getStatus()).isEqualTo(422);
        assertThat(json(r).get("message").asString()).isEqualTo("Lease.coordination.k8s.io \"bad\" is invalid: ["
                + "spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0, "
                + "spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0]");
    }

    @Test
    void discoveryAndOpenApiListLeases() throws Exception {
        JsonNode resources = json(mvc.perform(get("/apis/coordination.k8s.io/v1")).andReturn());
        assertThat(resources.at("/resources/0/name").asString()).isEqualTo("leases");
        assertThat(resources.at("/resources/0/namespaced").asBoolean()).isTrue();
        assertThat(resources.at("/resources/0/kind").asString()).isEqualTo("Lease");
        assertThat(mvc.perform(get("/apis")).andReturn().getResponse().getContentAsString())
                .contains("coordination.k8s.io/v1");
        MvcResult openapi = mvc.perform(get("/openapi/v3/apis/coordination.k8s.io/v1")).andReturn();
        assertThat(openapi.getResponse().getStatus()).isEqualTo(200);
        assertThat(openapi.getResponse().getContentAsString()).contains("io.k8s.api.coordination.v1.Lease",
                "/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{name}");
    }
}
