package io.kuberaysim.config;

import io.kuberaysim.api.Json;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.web.servlet.MockMvc;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

/** Swagger UI lists the Kubernetes paths of every served resource, with a RayCluster example body. */
@SpringBootTest(properties = "kuberay-sim.controllers=false")
@AutoConfigureMockMvc
class SwaggerDocumentationIT {
    @Autowired
    MockMvc mvc;

    @Test
    void apiDocsListTheResourcePathsWithARayClusterExample() throws Exception {
        String text = mvc.perform(get("/v3/api-docs")).andReturn().getResponse().getContentAsString();
        JsonNode doc = Json.MAPPER.readTree(text);
        JsonNode paths = doc.get("paths");
        assertThat(paths.has("/apis/ray.io/v1/namespaces/{namespace}/rayclusters")).isTrue();
        assertThat(paths.has("/apis/ray.io/v1/namespaces/{namespace}/rayclusters/{name}/status")).isTrue();
        assertThat(paths.has("/api/v1/namespaces/{namespace}/pods/{name}")).isTrue();
        assertThat(paths.has("/api/v1/nodes")).isTrue();
        assertThat(paths.has("/api/*/**")).isFalse();
        JsonNode example = paths.get("/apis/ray.io/v1/namespaces/{namespace}/rayclusters").get("post")
                .at("/requestBody/content/application~1yaml/example");
        assertThat(example.asString()).contains("kind: RayCluster").contains("workerGroupSpecs");
    }

    @Test
    void swaggerUiIsServed() throws Exception {
        assertThat(mvc.perform(get("/swagger-ui/index.html")).andReturn().getResponse().getStatus()).isEqualTo(200);
    }
}
