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
 * Root paths with a trailing slash, answered as kube-apiserver 1.32 answers them: {@code /version/} and the discovery
 * paths as without the slash (go-restful 3.11, kube's router, trims a trailing slash by default; kube-aggregator
 * mounts its {@code /apis} handler on both forms; the custom-resource discovery handler trims it too), which is what
 * the typed clients' {@code VersionApi} and {@code CoreApi} ask for; the health and OpenAPI v2 paths (plain muxer
 * routes registered without the slash) are the NotFound Status.
 */
@SpringBootTest(properties = "kuberay-sim.controllers=false")
@AutoConfigureMockMvc
class TrailingSlashHttpIT {
    @Autowired
    MockMvc mvc;

    @Test
    void versionAndDiscoveryWithASlashAnswerAsWithout() throws Exception {
        for (String path : List.of("/version", "/api", "/api/v1", "/apis", "/apis/ray.io", "/apis/ray.io/v1",
                "/apis/batch/v1")) {
            MvcResult plain = mvc.perform(get(path)).andReturn();
            MvcResult slash = mvc.perform(get(path + "/")).andReturn();
            assertThat(slash.getResponse().getStatus()).as(path + "/").isEqualTo(200);
            assertThat(slash.getResponse().getContentAsString()).as(path + "/")
                    .isEqualTo(plain.getResponse().getContentAsString());
        }
        assertThat(Json.MAPPER.readTree(mvc.perform(get("/apis/")).andReturn().getResponse().getContentAsString())
                .get("kind").asString()).isEqualTo("APIGroupList");
        assertThat(Json.MAPPER.readTree(mvc.perform(get("/version/")).andReturn().getResponse().getContentAsString())
                .get("gitVersion").asString()).isEqualTo("v1.32.0");
        assertThat(mvc.perform(get("/apis/nope.io/")).andReturn().getResponse().getStatus()).isEqualTo(404);
    }

    @Test
    void theOtherRootPathsWithASlashAreNotFound() throws Exception {
        for (String path : List.of("/healthz/", "/livez/", "/readyz/", "/openapi/v2/")) {
            MvcResult r = mvc.perform(get(path)).andReturn();
            assertThat(r.getResponse().getStatus()).as(path).isEqualTo(404);
            JsonNode status = Json.MAPPER.readTree(r.getResponse().getContentAsString());
            assertThat(status.get("kind").asString()).as(path).isEqualTo("Status");
            assertThat(status.get("reason").asString()).as(path).isEqualTo("NotFound");
        }
        assertThat(mvc.perform(get("/version")).andReturn().getResponse().getStatus()).isEqualTo(200);
    }
}
