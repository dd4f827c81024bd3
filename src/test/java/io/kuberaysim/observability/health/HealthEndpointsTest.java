package io.kuberaysim.observability.health;

import org.junit.jupiter.api.Test;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** kube-apiserver's health endpoint format: ok, ?verbose, failures, ?exclude and one check by path. */
class HealthEndpointsTest {
    private final AtomicReference<String> informerFailure = new AtomicReference<>();
    private final HealthCheck informerSync = HealthCheck.of("informer-sync",
            () -> Optional.ofNullable(informerFailure.get()));
    private final MockMvc mvc = MockMvcBuilders.standaloneSetup(new HealthEndpoints(new HealthChecks(
            List.of(HealthCheck.ping()), List.of(HealthCheck.ping()),
            List.of(HealthCheck.ping(), informerSync)))).build();

    @Test
    void healthyEndpointsAnswerOkAsPlainText() throws Exception {
        for (String path : new String[] {"/healthz", "/livez", "/readyz"}) {
            mvc.perform(get(path)).andExpect(status().isOk())
                    .andExpect(header().string("Content-Type", "text/plain; charset=utf-8"))
                    .andExpect(header().string("X-Content-Type-Options", "nosniff"))
                    .andExpect(content().string("ok"));
        }
    }

    @Test
    void verboseListsEveryCheckAndEndsWithTheVerdict() throws Exception {
        mvc.perform(get("/readyz?verbose")).andExpect(status().isOk())
                .andExpect(content().string("[+]ping ok\n[+]informer-sync ok\nreadyz check passed\n"));
        mvc.perform(get("/livez?verbose=1")).andExpect(status().isOk())
                .andExpect(content().string("[+]ping ok\nlivez check passed\n"));
    }

    @Test
    void aFailingCheckAnswers500WithTheListAndWithholdsTheReason() throws Exception {
        informerFailure.set("2 informers not synced yet: [pods, rayclusters.ray.io]");
        mvc.perform(get("/readyz")).andExpect(status().isInternalServerError())
                .andExpect(header().string("Content-Type", "text/plain; charset=utf-8"))
                .andExpect(content().string("[+]ping ok\n[-]informer-sync failed: reason withheld\nreadyz check failed\n"));
        mvc.perform(get("/readyz/informer-sync")).andExpect(status().isInternalServerError())
                .andExpect(content().string(
                        "internal server error: 2 informers not synced yet: [pods, rayclusters.ray.io]\n"));
        mvc.perform(get("/readyz/ping")).andExpect(status().isOk()).andExpect(content().string("ok"));
        mvc.perform(get("/livez")).andExpect(status().isOk());
    }

    @Test
    void excludedChecksAreSkippedAndUnknownOnesWarned() throws Exception {
        informerFailure.set("not synced");
        mvc.perform(get("/readyz?verbose&exclude=informer-sync&exclude=etcd")).andExpect(status().isOk())
                .andExpect(content().string("[+]ping ok\n[+]informer-sync excluded: ok\n"
                        + "warn: some health checks cannot be excluded: no matches for \"etcd\"\nreadyz check passed\n"));
        mvc.perform(get("/readyz?exclude=informer-sync")).andExpect(status().isOk()).andExpect(content().string("ok"));
    }
}
