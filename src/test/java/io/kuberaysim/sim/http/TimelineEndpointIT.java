package io.kuberaysim.sim.http;

import io.kuberaysim.api.Json;
import io.kuberaysim.testing.SeedManifests;
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

/** {@code /sim/v1/timeline} and {@code POST /sim/v1/clock/settle}, as the web console uses them. */
@SpringBootTest
@AutoConfigureMockMvc
class TimelineEndpointIT {
    @Autowired
    MockMvc mvc;

    private JsonNode json(MvcResult r) throws Exception {
        return Json.MAPPER.readTree(r.getResponse().getContentAsByteArray());
    }

    private JsonNode timeline(String since) throws Exception {
        return json(mvc.perform(get("/sim/v1/timeline").param("since", since)).andReturn());
    }

    @Test
    void settlingRunsTheSeedClusterToReadyAndTheTimelineTellsItInTheDemosWords() throws Exception {
        long from = timeline("0").get("next").asLong();
        String manifest = SeedManifests.demoRayCluster().replace("name: demo-raycluster", "name: timeline-cluster");
        assertThat(mvc.perform(post("/apis/ray.io/v1/namespaces/default/rayclusters")
                .contentType("application/yaml").content(manifest)).andReturn().getResponse().getStatus())
                .isEqualTo(201);

        JsonNode before = json(mvc.perform(get("/sim/v1/clock")).andReturn());
        JsonNode after = json(mvc.perform(post("/sim/v1/clock/settle")).andReturn());
        // pods start 2 s after binding; then only resyncs are left, which settle does not wait for
        assertThat(after.get("elapsedSeconds").asDouble() - before.get("elapsedSeconds").asDouble())
                .isBetween(2.0, 40.0);

        JsonNode page = timeline(String.valueOf(from));
        assertThat(page.get("first").asLong()).isEqualTo(from);
        List<String> lines = new ArrayList<>();
        page.get("lines").forEach(l -> lines.add(l.asString()));
        assertThat(lines).anyMatch(l -> l.matches("\\[ +\\d+\\.\\ds\\] created head Pod timeline-cluster-head"))
                .anyMatch(l -> l.endsWith("updated RayCluster timeline-cluster status ready=2/2 state=ready"))
                .noneMatch(l -> l.contains("created RayCluster timeline-cluster")); // the user's own write
        assertThat(page.get("next").asLong()).isEqualTo(from + lines.size());

        JsonNode rest = timeline(page.get("next").asString());
        assertThat(rest.get("lines")).isEmpty();
        assertThat(rest.get("next").asLong()).isEqualTo(page.get("next").asLong());
    }

    @Test
    void aLineNumberThatIsNotOneIsABadRequestStatus() throws Exception {
        for (String bad : new String[] {"-1", "soon"}) {
            MvcResult r = mvc.perform(get("/sim/v1/timeline").param("since", bad)).andReturn();
            assertThat(r.getResponse().getStatus()).isEqualTo(400);
            assertThat(json(r).get("kind").asString()).isEqualTo("Status");
            assertThat(json(r).get("message").asString()).contains("since must be a line number");
        }
    }
}
