package io.kuberaysim.apiserver.http;

import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/** {@code kubectl logs}: a simulated container's log once it runs, kube-apiserver's errors before. */
@SpringBootTest
@AutoConfigureMockMvc
class PodLogsHttpIT {
    static final String PODS = "/api/v1/namespaces/default/pods";

    @Autowired
    MockMvc mvc;
    @Autowired
    Clock clock;

    @Test
    void logsOfARunningContainerAndErrorsBefore() throws Exception {
        mvc.perform(post(PODS).contentType("application/json").content("{\"metadata\":{\"name\":\"logged\"},"
                + "\"spec\":{\"containers\":[{\"name\":\"main\",\"image\":\"busybox\",\"command\":[\"sleep\",\"9\"]},"
                + "{\"name\":\"side\",\"image\":\"busybox\"}]}}")).andReturn();
        ((VirtualClock) clock).awaitIdle();
        MvcResult waiting = mvc.perform(get(PODS + "/logged/log?container=main")).andReturn();
        assertThat(waiting.getResponse().getStatus()).isEqualTo(400);
        assertThat(waiting.getResponse().getContentAsString())
                .contains("container \\\"main\\\" in pod \\\"logged\\\" is waiting to start: ContainerCreating");

        ((VirtualClock) clock).advance(Duration.ofSeconds(3));
        MvcResult noName = mvc.perform(get(PODS + "/logged/log")).andReturn();
        assertThat(noName.getResponse().getStatus()).isEqualTo(400);
        assertThat(noName.getResponse().getContentAsString())
                .contains("a container name must be specified for pod logged, choose one of: [main side]");
        MvcResult ok = mvc.perform(get(PODS + "/logged/log?container=main")).andReturn();
        assertThat(ok.getResponse().getStatus()).isEqualTo(200);
        assertThat(ok.getResponse().getContentType()).startsWith("text/plain");
        assertThat(ok.getResponse().getContentAsString()).contains("simulated container main (image busybox)")
                .contains("command: sleep 9");
        assertThat(mvc.perform(get(PODS + "/logged/log?container=nope")).andReturn().getResponse().getStatus())
                .isEqualTo(400);
        assertThat(mvc.perform(patch(PODS + "/logged/log").contentType("application/merge-patch+json").content("{}"))
                .andReturn().getResponse().getStatus()).isEqualTo(405);
    }
}
