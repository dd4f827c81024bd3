package io.kuberaysim.observability.health;

import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.controller.runtime.ControllerManager;
import io.kuberaysim.controller.runtime.reconcile.Result;
import io.kuberaysim.testing.TestCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

import java.util.List;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** /readyz fails until the controller manager has started and its informers have synced, and again once it stops. */
class ControllerChecksTest {
    private final TestCluster cluster = new TestCluster();
    private final ControllerManager manager = new ControllerManager(cluster.registry, cluster.clock, 1);
    private final MockMvc mvc = MockMvcBuilders.standaloneSetup(new HealthEndpoints(new HealthChecks(
            List.of(HealthCheck.ping()), List.of(HealthCheck.ping(), ControllerChecks.controllers(manager)),
            List.of(HealthCheck.ping(), ControllerChecks.informerSync(manager), ControllerChecks.controllers(manager)))))
            .build();

    @AfterEach
    void close() {
        manager.close();
        cluster.close();
    }

    @Test
    void readyOnlyOnceInformersSyncedAndControllersRun() throws Exception {
        manager.controller("rayclusters").forType(ResourceTypes.RAYCLUSTERS).owns(ResourceTypes.PODS)
                .complete(r -> Result.done());

        mvc.perform(get("/readyz")).andExpect(status().isInternalServerError()).andExpect(content().string(
                "[+]ping ok\n[-]informer-sync failed: reason withheld\n[-]controllers failed: reason withheld\n"
                        + "readyz check failed\n"));
        mvc.perform(get("/readyz/informer-sync")).andExpect(status().isInternalServerError()).andExpect(content()
                .string("internal server error: 2 informers not synced yet: [pods, rayclusters.ray.io]\n"));
        mvc.perform(get("/livez/controllers")).andExpect(status().isInternalServerError()).andExpect(content()
                .string("internal server error: the controller manager is not running\n"));

        manager.start();
        cluster.settle();
        mvc.perform(get("/readyz")).andExpect(status().isOk()).andExpect(content().string("ok"));
        mvc.perform(get("/livez")).andExpect(status().isOk());

        manager.close();
        mvc.perform(get("/readyz/controllers")).andExpect(status().isInternalServerError());
    }
}
