package io.kuberaysim.sim.chaos;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import io.kuberaysim.testing.SeedManifests;
import io.kuberaysim.testing.SimulationHarness;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The ApiErrors fault fails the operator's writes while its window is open, and only the operator's. */
class ApiWriteFaultsTest {

    @Test
    void writesFailWithTheCodeWhileTheWindowIsOpen() {
        try (VirtualClock clock = new VirtualClock()) {
            ApiWriteFaults faults = new ApiWriteFaults(clock, new ChaosRandom(1));
            faults.open("conflicts", clock.now().plusSeconds(10), 1.0, 409);
            assertThatThrownBy(() -> faults.admit("update", ResourceTypes.PODS, "default", "p"))
                    .isInstanceOfSatisfying(ApiException.class, e -> {
                        assertThat(e.code()).isEqualTo(409);
                        assertThat(e.getMessage()).isEqualTo("Operation cannot be fulfilled on pods \"p\": the object "
                                + "has been modified; please apply your changes to the latest version and try again");
                    });
            faults.open("errors", clock.now().plusSeconds(20), 1.0, 500);
            clock.advance(Duration.ofSeconds(10));
            assertThatThrownBy(() -> faults.admit("create", ResourceTypes.PODS, "default", "p"))
                    .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code()).isEqualTo(500));
            clock.advance(Duration.ofSeconds(10));
            assertThatCode(() -> faults.admit("create", ResourceTypes.PODS, "default", "p"))
                    .doesNotThrowAnyException();
        }
    }

    @Test
    void aShareOfTheWritesFailsAndTheSameSeedFailsTheSameOnes() {
        assertThat(failures(7)).isEqualTo(failures(7)).isBetween(300, 700);
    }

    private static int failures(long seed) {
        try (VirtualClock clock = new VirtualClock()) {
            ApiWriteFaults faults = new ApiWriteFaults(clock, new ChaosRandom(seed));
            faults.open("half", clock.now().plusSeconds(10), 0.5, 500);
            int failed = 0;
            for (int i = 0; i < 1000; i++) {
                try {
                    faults.admit("update", ResourceTypes.PODS, "default", "p");
                } catch (ApiException e) {
                    failed++;
                }
            }
            return failed;
        }
    }

    @Test
    void theOperatorRetriesThroughConflictsAndTheClusterConverges() {
        try (SimulationHarness h = SimulationHarness.withOperator()) {
            h.create(ResourceTypes.FAULTSCHEDULES, "default", FaultScheduleTest.schedule("conflicts", """
                    interval: 1s
                    stopAfter: 1s
                    fault: {type: ApiErrors, code: 409, probability: 0.7, duration: {fixed: 30s}}
                    """));
            h.advance(Duration.ofSeconds(1));
            h.create(ResourceTypes.RAYCLUSTERS, "default", SeedManifests.demoRayCluster());
            h.advance(Duration.ofSeconds(90));
            var rc = h.client().get(ResourceTypes.RAYCLUSTERS, "default", "demo-raycluster").object();
            assertThat(Json.text(rc, "status", "state")).isEqualTo("ready");
            assertThat(h.client().get(ResourceTypes.FAULTSCHEDULES, "default", "conflicts").object()
                    .path("status").path("lastFault").asString())
                    .isEqualTo("failing 70% of the operator's API writes with 409 for 30s (schedule conflicts)");
        }
    }
}
