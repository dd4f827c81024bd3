package io.kuberaysim.sim.http;

import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import io.kuberaysim.scenario.Scenario;
import io.kuberaysim.scenario.ScenarioException;
import io.kuberaysim.scenario.ScenarioFiles;
import io.kuberaysim.scenario.ScenarioReader;
import io.kuberaysim.scenario.ScenarioReports;
import io.kuberaysim.scenario.ScenarioResult;
import io.kuberaysim.scenario.ScenarioTarget;
import io.kuberaysim.scenario.seeds.CheckedRun;
import io.kuberaysim.scenario.seeds.InvariantWatch;
import io.kuberaysim.sim.SimulatedCluster;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * {@code POST /sim/v1/scenarios}: runs a scenario file (the YAML body) against this server's objects on its virtual
 * clock and answers the result: passed, failures, expectations and the timeline. The scenario's {@code settings}
 * do not apply (the server's cluster is what it is); {@code apply: {file: ...}} paths are read from the jar, relative
 * to its {@code scenarios/} folder, so {@code ../http-examples/x.yaml} works. Only one scenario runs at a time.
 * Errors are Status bodies: 409 on the wall clock (as clock advance), 400 for a body that is not YAML, 422 naming
 * the step, line and field of a scenario that cannot be read. KubeRay's invariants are checked while it runs, as
 * {@code run} checks them (the {@code invariants} and {@code invariant} steps work here too); they watch every object
 * of the server, not only the scenario's.
 */
@RestController
class ScenarioController {
    private final Clock clock;
    private final KubeClient client;
    private final ObjectProvider<SimulatedCluster> cluster;
    private final ObjectStore store;
    private final CheckedRun runs = new CheckedRun(new InvariantWatch());
    private final Object running = new Object();

    ScenarioController(Clock clock, KubeClient client, ObjectProvider<SimulatedCluster> cluster, ObjectStore store) {
        this.clock = clock;
        this.client = client;
        this.cluster = cluster;
        this.store = store;
    }

    @PostMapping(path = "/sim/v1/scenarios", produces = MediaType.APPLICATION_JSON_VALUE)
    Map<String, Object> run(@RequestBody(required = false) byte[] body) {
        if (!(clock instanceof VirtualClock virtual)) {
            throw new ApiException(409, "Conflict", "the clock is in " + clock.mode()
                    + " mode; scenarios run only on a virtual clock", null);
        }
        if (body == null || body.length == 0) {
            throw ApiException.badRequest("the body must be a scenario (YAML with steps)");
        }
        Scenario scenario;
        try {
            scenario = new ScenarioReader(runs.stepKinds()).read(new String(body, StandardCharsets.UTF_8), "scenario",
                    ScenarioFiles.classpath("scenarios"));
        } catch (ScenarioException e) {
            throw refusal(e);
        }
        ScenarioResult result;
        synchronized (running) {
            result = runs.runOn(scenario, new ScenarioTarget(client, virtual, cluster.getIfAvailable()), store, virtual,
                    line -> { });
        }
        return ScenarioReports.json(result);
    }

    private static ApiException refusal(ScenarioException e) {
        String where = e.where();
        if (e.isSyntax()) {
            return ApiException.badRequest("the scenario is not readable: " + (where.isEmpty() ? "" : where + ": ")
                    + e.getMessage());
        }
        String field = e.field() == null ? "" : e.field();
        StatusCause cause = new StatusCause("FieldValueInvalid", (where.isEmpty() ? "" : where + ": ")
                + e.getMessage(), field);
        return ApiException.invalid("Scenario.sim.kuberay.io", "Scenario", "sim.kuberay.io", "scenario", List.of(cause));
    }
}
