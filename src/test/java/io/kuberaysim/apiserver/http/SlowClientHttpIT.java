package io.kuberaysim.apiserver.http;

import io.kuberaysim.testing.RawHttp;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Clients that trickle their bodies cost a connection, not a thread: with 300 of them open the server still answers
 * everyone else; a body that does not arrive within kuberay-sim.request-body-timeout (2 s here) gets 408; aborted
 * bodies are logged once per cause, without a stack trace.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = HttpEdgeTestProperties.ALL)
@ExtendWith(OutputCaptureExtension.class)
class SlowClientHttpIT {
    static final String CM = "/api/v1/namespaces/default/configmaps";
    static final Duration GENEROUS = Duration.ofSeconds(15);

    @LocalServerPort
    int port;

    RawHttp trickle(int bodyBytesSent) throws Exception {
        RawHttp http = new RawHttp(port, GENEROUS);
        http.send("POST " + CM + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
                + "{".repeat(bodyBytesSent));
        return http;
    }

    @Test
    @DisplayName("with 300 connections trickling bodies, /version and a watch still answer")
    void trickleDoesNotStarve() throws Exception {
        List<RawHttp> slow = new ArrayList<>();
        try {
            for (int i = 0; i < 300; i++) {
                slow.add(trickle(10)); // more than Tomcat's 200 request threads
            }
            for (RawHttp s : slow) {
                s.send("x");
            }
            assertThat(RawHttp.exchange(port, "GET /version HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", GENEROUS)
                    .json().get("major").asString()).isEqualTo("1");
            try (RawHttp watch = new RawHttp(port, GENEROUS)) {
                watch.send("GET " + CM + "?watch=1 HTTP/1.1\r\nHost: localhost\r\n\r\n");
                assertThat(watch.readHead().code()).isEqualTo(200);
            }
        } finally {
            for (RawHttp s : slow) {
                s.close();
            }
        }
    }

    @Test
    @DisplayName("a body that does not arrive in time gets 408 Timeout and the connection is closed")
    void slowBodyTimesOut() throws Exception {
        try (RawHttp http = trickle(10)) {
            RawHttp.Response r = http.read(); // waits on the socket for the server's timeout
            assertThat(r.code()).as(r.text()).isEqualTo(408);
            assertThat(r.json().get("reason").asString()).isEqualTo("Timeout");
            assertThat(r.header("Connection")).isEqualTo("close");
        }
    }

    @Test
    @DisplayName("30 aborted bodies: one log line for the cause, no stack trace")
    void abortsAreLoggedOncePerCause(CapturedOutput output) throws Exception {
        for (int i = 0; i < 30; i++) {
            try (RawHttp http = trickle(10)) {
                http.socket().setSoLinger(true, 0); // reset: the body is aborted
            }
        }
        // one more request through the same worker threads, so the aborts have been processed
        try (RawHttp probe = trickle(0)) {
            probe.read();
        }
        String log = output.getAll();
        assertThat(log.lines().filter(l -> l.contains("not received:"))).hasSizeLessThanOrEqualTo(1);
        assertThat(log).doesNotContain("\tat org.apache");
    }
}
