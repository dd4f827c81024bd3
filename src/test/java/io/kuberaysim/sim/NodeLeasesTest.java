package io.kuberaysim.sim;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.testing.SimulationHarness;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class NodeLeasesTest {

    @Test
    void everyNodeHoldsALeaseInKubeNodeLeaseRenewedEveryTenSeconds() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            StoredObject node = h.client().get(ResourceTypes.NODES, null, "sim-node-2");
            StoredObject lease = h.client().get(ResourceTypes.LEASES, "kube-node-lease", "sim-node-2");
            assertThat(h.client().list(ResourceTypes.LEASES, "kube-node-lease", null)).hasSize(4);
            assertThat(Json.text(lease.object(), "spec", "holderIdentity")).isEqualTo("sim-node-2");
            assertThat(lease.object().at("/spec/leaseDurationSeconds").asInt()).isEqualTo(40);
            assertThat(Json.text(lease.object(), "spec", "renewTime")).isEqualTo("2025-01-01T00:00:00.000000Z");
            assertThat(lease.object().at("/metadata/ownerReferences/0/uid").asString()).isEqualTo(node.uid());
            assertThat(lease.object().at("/metadata/ownerReferences/0/kind").asString()).isEqualTo("Node");

            h.advance(Duration.ofSeconds(9));
            assertThat(renewTime(h, "sim-node-2")).isEqualTo("2025-01-01T00:00:00.000000Z");
            h.advance(Duration.ofSeconds(1));
            assertThat(renewTime(h, "sim-node-2")).isEqualTo("2025-01-01T00:00:10.000000Z");
            h.advance(Duration.ofSeconds(20));
            assertThat(renewTime(h, "sim-node-2")).isEqualTo("2025-01-01T00:00:30.000000Z");
        }
    }

    private static String renewTime(SimulationHarness h, String node) {
        return Json.text(h.client().get(ResourceTypes.LEASES, "kube-node-lease", node).object(), "spec", "renewTime");
    }
}
