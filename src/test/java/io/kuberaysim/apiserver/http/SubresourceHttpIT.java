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
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;

/** Subresources a type does not have: the CRD handler's NotFound for Ray kinds, the generic 404 for built-ins. */
@SpringBootTest(properties = "kuberay-sim.controllers=false")
@AutoConfigureMockMvc
class SubresourceHttpIT {
    @Autowired
    MockMvc mvc;

    @Test
    void scaleOfARayClusterIsTheCrdHandlersNotFoundWithDetails() throws Exception {
        MvcResult r = mvc.perform(patch("/apis/ray.io/v1/namespaces/default/rayclusters/x/scale")
                .contentType("application/merge-patch+json").content("{\"spec\":{\"replicas\":3}}")).andReturn();
        assertThat(r.getResponse().getStatus()).isEqualTo(404);
        JsonNode status = Json.MAPPER.readTree(r.getResponse().getContentAsString());
        assertThat(status.get("reason").asString()).isEqualTo("NotFound");
        assertThat(status.get("message").asString()).isEqualTo("rayclusters.ray.io \"x\" not found");
        assertThat(status.get("details").get("name").asString()).isEqualTo("x");
        assertThat(status.get("details").get("group").asString()).isEqualTo("ray.io");
        assertThat(status.get("details").get("kind").asString()).isEqualTo("rayclusters");

        MvcResult get = mvc.perform(get("/apis/ray.io/v1/namespaces/default/rayjobs/j/scale")).andReturn();
        assertThat(get.getResponse().getStatus()).isEqualTo(404);
        assertThat(get.getResponse().getContentAsString()).contains("rayjobs.ray.io \\\"j\\\" not found");
    }

    @Test
    void anUnknownSubresourceOfABuiltInTypeIsTheGenericNotFound() throws Exception {
        MvcResult r = mvc.perform(get("/api/v1/namespaces/default/pods/p/scale")).andReturn();
        assertThat(r.getResponse().getStatus()).isEqualTo(404);
        assertThat(r.getResponse().getContentAsString()).contains("the server could not find the requested resource");
    }
}
