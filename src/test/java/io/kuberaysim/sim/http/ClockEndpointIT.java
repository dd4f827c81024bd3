package io.kuberaysim.sim.http;

import io.kuberaysim.api.Json;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/** The /sim/v1/clock endpoints, and the simulated cluster wired into the application. */
class ClockEndpointIT {

    private static JsonNode json(MvcResult r) throws Exception {
        return Json.MAPPER.readTree(r.getResponse().getContentAsByteArray());
    }

    @Nested
    @SpringBootTest
    @AutoConfigureMockMvc
    class Virtual {
        @Autowired
        MockMvc mvc;

        @Test
        void readsAdvancesAndRejectsBadInput() throws Exception {
            JsonNode before = json(mvc.perform(get("/sim/v1/clock")).andReturn());
            assertThat(before.get("mode").asString()).isEqualTo("virtual");
            assertThat(before.get("startTime").asString()).isEqualTo("2025-01-01T00:00:00Z");
            double elapsed = before.get("elapsedSeconds").asDouble();

            MvcResult r = mvc.perform(post("/sim/v1/clock/advance").param("seconds", "5")).andReturn();
            assertThat(r.getResponse().getStatus()).isEqualTo(200);
            assertThat(json(r).get("elapsedSeconds").asDouble()).isEqualTo(elapsed + 5);

            MvcResult bad = mvc.perform(post("/sim/v1/clock/advance").param("seconds", "soon")).andReturn();
            assertThat(bad.getResponse().getStatus()).isEqualTo(400);
            assertThat(json(bad).get("kind").asString()).isEqualTo("Status");
            assertThat(json(bad).get("reason").asString()).isEqualTo("BadRequest");
            assertThat(mvc.perform(post("/sim/v1/clock/advance").param("seconds", "-1")).andReturn()
                    .getResponse().getStatus()).isEqualTo(400);
        }

        @Test
        void podCreatedOverHttpRunsAfterAdvancing() throws Exception {
            JsonNode nodes = json(mvc.perform(get("/api/v1/nodes")).andReturn());
            assertThat(nodes.get("items")).hasSize(4);
            String pod = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"clock-http\"},"
                    + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox:1\"}]}}";
            assertThat(mvc.perform(post("/api/v1/namespaces/default/pods").contentType(MediaType.APPLICATION_JSON)
                    .content(pod)).andReturn().getResponse().getStatus()).isEqualTo(201);
            mvc.perform(post("/sim/v1/clock/advance").param("seconds", "0"));
            JsonNode p = json(mvc.perform(get("/api/v1/namespaces/default/pods/clock-http")).andReturn());
            assertThat(p.path("spec").path("nodeName").asString()).startsWith("sim-node-");
            assertThat(p.path("status").path("phase").asString()).isEqualTo("Pending");
            mvc.perform(post("/sim/v1/clock/advance").param("seconds", "2"));
            p = json(mvc.perform(get("/api/v1/namespaces/default/pods/clock-http")).andReturn());
            assertThat(p.path("status").path("phase").asString()).isEqualTo("Running");
        }
    }

    @Nested
    @SpringBootTest(properties = {"kuberay-sim.clock=wall", "kuberay-sim.controllers=false"})
    @AutoConfigureMockMvc
    class Wall {
        @Autowired
        MockMvc mvc;

        @Test
        void advanceIsAConflict() throws Exception {
            assertThat(json(mvc.perform(get("/sim/v1/clock")).andReturn()).get("mode").asString()).isEqualTo("wall");
            MvcResult r = mvc.perform(post("/sim/v1/clock/advance").param("seconds", "5")).andReturn();
            assertThat(r.getResponse().getStatus()).isEqualTo(409);
            assertThat(json(r).get("reason").asString()).isEqualTo("Conflict");
            MvcResult settle = mvc.perform(post("/sim/v1/clock/settle")).andReturn();
            assertThat(settle.getResponse().getStatus()).isEqualTo(409);
            assertThat(json(settle).get("kind").asString()).isEqualTo("Status");
        }
    }
}
