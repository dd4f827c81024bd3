package io.kuberaysim.testkit;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** On the wall clock the cluster runs by itself and nobody moves time. */
@KubeRaySimTest(clock = "wall", nodes = 1)
class KubeRaySimWallClockTest {
    @Test
    void theClusterIsThereAndTimeCannotBeMoved(KubeRaySim sim) {
        assertThat(sim.get("Node", "sim-node-0")).isPresent();
        assertThatThrownBy(() -> sim.advance(Duration.ofSeconds(1))).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("the simulator runs on the wall clock");
    }
}
