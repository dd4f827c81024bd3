package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import tools.jackson.databind.JsonNode;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

/**
 * Root paths with a trailing slash, answered as kube-apiserver 1.32 answers them: {@code /apis/} is the group list
 * (kube-aggregator mounts its handler on both forms); {@code /version/} (go-restful's router keeps the empty last
 * segment, so the {@code /version} route does not match) and the health and OpenAPI v2 paths (registered without
 * the slash) are the NotFound Status.
 */
@SpringBootTest(properties = "kuberay-sim.controllers=false")
@AutoConfigureMockMvc
class TrailingSlashHttpIT {
    @Autowired
    MockMvc mvc;

    @Test
    void apisWithASlashIsTheGroupList() throws Exception {
        MvcResult plain = mvc.perform(get("/apis")).andReturn();
        MvcResult slash = mvc.perform(get("/apis/")).andReturn();
        assertThat(slash.getResponse().getStatus()).isEqualTo(200);
        assertThat(slash.getResponse().getContentAsString()).isEqualTo(plain.getResponse().getContentAsString());
        assertThat(Json.MAPPER.readTree(slash.getResponse().getContentAsString()).get("kind").asString())
                .isEqualTo("APIGroupList");
    }

    @Test
    void theOtherRootPathsWithASlashAreNotFound() throws Exception {
        for (String path : List.of("/version/", "/healthz/", "/livez/", "/readyz/", "/openapi/v2/")) {
            MvcResult r = mvc.perform(get(path)).andReturn();
            assertThat(r.getResponse().getStatus()).as(path).isEqualTo(404);
            JsonNode status = Json.MAPPER.readTree(r.getResponse().getContentAsString());
            assertThat(status.get("kind").asString()).as(path).isEqualTo("Status");
            assertThat(status.get("reason").asString()).as(path).isEqualTo("NotFound");
        }
        assertThat(mvc.perform(get("/version")).andReturn().getResponse().getStatus()).isEqualTo(200);
    }
}
