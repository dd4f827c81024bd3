package io.kuberaysim.testkit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** A simulator shared by the class, registered with settings of its own. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubeRaySimPerClassTest {
    @RegisterExtension
    static final KubeRaySimExtension SIM = KubeRaySimExtension.builder().nodes(3).seed(7).perClass().build();

    @BeforeAll
    static void createOnce(KubeRaySim sim) {
        sim.apply("""
                apiVersion: v1
                kind: Namespace
                metadata: {name: shared}
                """);
    }

    @Test
    @Order(1)
    void seesWhatBeforeAllCreatedAndMovesTime(KubeRaySim sim) {
        assertThat(sim.get("Namespace", "shared")).isPresent();
        assertThat(sim.get("Node", "sim-node-2")).isPresent();
        assertThat(sim.get("Node", "sim-node-3")).isEmpty();
        sim.advance(Duration.ofSeconds(10));
    }

    @Test
    @Order(2)
    void theNextMethodContinuesOnTheSameSimulator(KubeRaySim sim) {
        assertThat(sim.get("Namespace", "shared")).isPresent();
        assertThat(sim.elapsed()).isEqualTo(Duration.ofSeconds(10));
    }
}
