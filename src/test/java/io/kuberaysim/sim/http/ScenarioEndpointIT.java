package io.kuberaysim.sim.http;

import io.kuberaysim.api.Json;
import org.junit.jupiter.api.Nested;
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

/** {@code POST /sim/v1/scenarios}: a scenario run against the server's own objects and clock. */
class ScenarioEndpointIT {
    private static final String STORY = """
            name: over-http
            settings: {namespace: scenario-http}
            steps:
              - apply: {apiVersion: v1, kind: Namespace, metadata: {name: scenario-http}}
              - apply: {file: ../http-examples/example-cluster.yaml}
              - waitFor: {kind: RayCluster, name: example-cluster, jsonPath: .status.state, equals: ready, timeout: 1m}
              - expect: {kind: Pod, selector: "ray.io/cluster=example-cluster,ray.io/node-type=worker", count: 2}
              - expect: {kind: RayCluster, name: example-cluster, jsonPath: .status.state, equals: suspended}
            """;

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
        void runsAgainstTheServersObjectsAndAnswersTheResult() throws Exception {
            MvcResult r = mvc.perform(post("/sim/v1/scenarios").contentType("application/yaml").content(STORY))
                    .andReturn();
            assertThat(r.getResponse().getStatus()).isEqualTo(200);
            JsonNode result = json(r);
            assertThat(result.path("name").asString()).isEqualTo("over-http");
            assertThat(result.path("passed").asBoolean()).isFalse();
            assertThat(result.path("expectations")).hasSize(2);
            assertThat(result.path("expectations").get(0).path("passed").asBoolean()).isTrue();
            assertThat(result.path("failures").get(0).asString()).isEqualTo("step 5 (line 8) expect RayCluster "
                    + "scenario-http/example-cluster .status.state == suspended: expected RayCluster "
                    + "scenario-http/example-cluster .status.state == suspended, saw ready");
            assertThat(result.path("timeline").toString())
                    .contains("updated RayCluster example-cluster status ready=2/2 state=ready");

            JsonNode cluster = json(mvc.perform(get("/apis/ray.io/v1/namespaces/scenario-http/rayclusters/example-cluster"))
                    .andReturn());
            assertThat(cluster.path("status").path("state").asString()).isEqualTo("ready");
        }

        /** The invariant steps of issue 22 work over HTTP as with {@code run}: a user invariant that breaks fails it. */
        @Test
        void invariantStepsAreCheckedAgainstTheServersObjects() throws Exception {
            MvcResult r = mvc.perform(post("/sim/v1/scenarios").contentType("application/yaml").content("""
                    name: invariants-over-http
                    settings: {namespace: scenario-inv}
                    steps:
                      - apply: {apiVersion: v1, kind: Namespace, metadata: {name: scenario-inv}}
                      - apply: {file: ../http-examples/example-cluster.yaml}
                      - waitFor: {kind: RayCluster, name: example-cluster, jsonPath: .status.state, equals: ready, timeout: 1m}
                      - invariant: {kind: RayCluster, name: example-cluster, jsonPath: .status.state, equals: ready}
                      - invariants: settled
                      - patch: {kind: RayCluster, name: example-cluster, patch: {spec: {suspend: true}}}
                      - advance: 10s
                    """)).andReturn();
            assertThat(r.getResponse().getStatus()).isEqualTo(200);
            JsonNode result = json(r);
            assertThat(result.path("passed").asBoolean()).isFalse();
            assertThat(result.path("timeline").toString())
                    .contains("invariant RayCluster scenario-inv/example-cluster .status.state == ready broken");
        }

        @Test
        void aScenarioThatCannotBeReadIsA422NamingStepLineAndField() throws Exception {
            MvcResult r = mvc.perform(post("/sim/v1/scenarios").contentType("application/yaml").content("""
                    steps:
                      - advance: 1s
                      - waitFor: {kind: Pod, name: x, condition: Ready, timeout: forever}
                    """)).andReturn();
            assertThat(r.getResponse().getStatus()).isEqualTo(422);
            JsonNode status = json(r);
            assertThat(status.path("kind").asString()).isEqualTo("Status");
            assertThat(status.path("reason").asString()).isEqualTo("Invalid");
            assertThat(status.path("message").asString()).isEqualTo("Scenario.sim.kuberay.io \"scenario\" is invalid: "
                    + "steps[1].waitFor.timeout: step 2, line 3: must be a duration such as 30s, 1m30s, 500ms or a "
                    + "number of seconds; got \"forever\"");
            assertThat(status.path("details").path("causes").get(0).path("field").asString())
                    .isEqualTo("steps[1].waitFor.timeout");

            MvcResult unknown = mvc.perform(post("/sim/v1/scenarios").content("steps: [{explode: 1}]")).andReturn();
            assertThat(unknown.getResponse().getStatus()).isEqualTo(422);
            assertThat(json(unknown).path("message").asString()).contains("step 1, line 1: unknown step type");

            MvcResult notYaml = mvc.perform(post("/sim/v1/scenarios").content("steps: [\n  {advance: ")).andReturn();
            assertThat(notYaml.getResponse().getStatus()).isEqualTo(400);
            assertThat(json(notYaml).path("message").asString()).startsWith("the scenario is not readable: line ");

            MvcResult empty = mvc.perform(post("/sim/v1/scenarios")).andReturn();
            assertThat(empty.getResponse().getStatus()).isEqualTo(400);
            assertThat(json(empty).path("reason").asString()).isEqualTo("BadRequest");

            MvcResult escape = mvc.perform(post("/sim/v1/scenarios").content(
                    "steps: [{apply: {file: ../../application.properties}}]")).andReturn();
            assertThat(escape.getResponse().getStatus()).isEqualTo(422);
            assertThat(json(escape).path("message").asString()).contains("no such manifest file");
        }
    }

    @Nested
    @SpringBootTest(properties = {"kuberay-sim.clock=wall", "kuberay-sim.controllers=false"})
    @AutoConfigureMockMvc
    class Wall {
        @Autowired
        MockMvc mvc;

        @Test
        void isAConflictOnTheWallClock() throws Exception {
            MvcResult r = mvc.perform(post("/sim/v1/scenarios").content(STORY)).andReturn();
            assertThat(r.getResponse().getStatus()).isEqualTo(409);
            assertThat(json(r).path("message").asString())
                    .isEqualTo("the clock is in wall mode; scenarios run only on a virtual clock");
        }
    }
}
