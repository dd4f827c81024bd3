package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/** {@code kubectl logs} options on a simulated container that exits after 5 s and is restarted. */
@SpringBootTest
@AutoConfigureMockMvc
class PodLogOptionsHttpIT {
    static final String PODS = "/api/v1/namespaces/default/pods";

    @Autowired
    MockMvc mvc;
    @Autowired
    Clock clock;

    String log(String query) throws Exception {
        MvcResult r = mvc.perform(get(PODS + "/restarting/log" + query)).andReturn();
        assertThat(r.getResponse().getStatus()).as(r.getResponse().getContentAsString()).isEqualTo(200);
        return r.getResponse().getContentAsString();
    }

    JsonNode error(String query) throws Exception {
        return Json.MAPPER.readTree(mvc.perform(get(PODS + "/restarting/log" + query)).andReturn().getResponse()
                .getContentAsString());
    }

    @Test
    void tailTimestampsLimitSinceAndPrevious() throws Exception {
        VirtualClock virtual = (VirtualClock) clock;
        mvc.perform(post(PODS).contentType("application/json").content("""
                {"metadata":{"name":"restarting","annotations":{"sim.kuberay.io/run-seconds":"5",
                 "sim.kuberay.io/exit-code":"3"}},
                 "spec":{"containers":[{"name":"main","image":"busybox","command":["sleep","9"]}]}}""")).andReturn();
        virtual.awaitIdle();
        virtual.advance(Duration.ofSeconds(3));
        Instant started = virtual.now();
        assertThat(error("?previous=true").get("message").asString())
                .isEqualTo("previous terminated container \"main\" in pod \"restarting\" not found");

        virtual.advance(Duration.ofSeconds(5)); // exits with 3 and is restarted
        String previous = log("?previous=true");
        assertThat(previous).contains("command: sleep 9").endsWith("exited with code 3 at "
                + Instant.parse(previous.substring(previous.lastIndexOf(' ') + 1).trim()) + "\n");
        String current = log("");
        assertThat(current.lines()).hasSize(2).noneMatch(l -> l.contains("exited"));

        assertThat(log("?tailLines=1").lines()).containsExactly("[kuberay-sim] command: sleep 9");
        assertThat(log("?tailLines=0")).isEmpty();
        assertThat(log("?timestamps=true").lines())
                .allMatch(l -> l.matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{9}Z \\[kuberay-sim] .*"));
        assertThat(log("?limitBytes=12")).isEqualTo("[kuberay-sim");
        virtual.advance(Duration.ofSeconds(2));
        assertThat(log("?sinceSeconds=1")).isEmpty();
        assertThat(log("?sinceSeconds=60").lines()).hasSize(2);
        assertThat(log("?previous=true&sinceTime=" + started.plusSeconds(1)).lines()).hasSize(1)
                .allMatch(l -> l.contains("exited with code 3"));

        JsonNode invalid = error("?tailLines=-1&sinceSeconds=5&sinceTime=2025-01-01T00:00:00Z");
        assertThat(invalid.get("code").asInt()).isEqualTo(422);
        assertThat(invalid.get("message").asString()).startsWith("PodLogOptions \"restarting\" is invalid: [")
                .contains("tailLines: Invalid value: -1: must be greater than or equal to 0",
                        "at most one of `sinceTime` or `sinceSeconds` may be specified");
        assertThat(error("?limitBytes=0").get("message").asString())
                .contains("limitBytes: Invalid value: 0: must be greater than 0");
        assertThat(error("?tailLines=ten").get("code").asInt()).isEqualTo(400);
    }

    @Test
    void initContainersAreValidContainerNames() throws Exception {
        mvc.perform(post(PODS).contentType("application/json").content("""
                {"metadata":{"name":"with-init"},
                 "spec":{"initContainers":[{"name":"wait-gcs-ready","image":"busybox"}],
                         "containers":[{"name":"a","image":"busybox"},{"name":"b","image":"busybox"}]}}""")).andReturn();
        JsonNode noName = Json.MAPPER.readTree(mvc.perform(get(PODS + "/with-init/log")).andReturn().getResponse()
                .getContentAsString());
        assertThat(noName.get("message").asString()).isEqualTo("a container name must be specified for pod with-init, "
                + "choose one of: [a b] or one of the init containers: [wait-gcs-ready]");
        JsonNode init = Json.MAPPER.readTree(mvc.perform(get(PODS + "/with-init/log?container=wait-gcs-ready"))
                .andReturn().getResponse().getContentAsString());
        assertThat(init.get("message").asString()).doesNotContain("not valid for pod");
    }
}
