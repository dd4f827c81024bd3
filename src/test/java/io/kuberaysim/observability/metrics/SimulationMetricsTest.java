package io.kuberaysim.observability.metrics;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.testing.SeedManifests;
import io.kuberaysim.testing.SimulationHarness;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The simulated cluster's figures follow creates and deletes, scrape after scrape, on the virtual clock. */
class SimulationMetricsTest {

    /** The sum of a family's values over the data points with {@code label=value} (all with a null label). */
    private static double sum(MetricSnapshots snapshots, String family, String label, String value) {
        double total = 0;
        for (MetricSnapshot m : snapshots) {
            if (!m.getMetadata().getPrometheusName().equals(family)) {
                continue;
            }
            for (DataPointSnapshot d : m.getDataPoints()) {
                if (label == null || value.equals(d.getLabels().get(label))) {
                    total += ((GaugeSnapshot.GaugeDataPointSnapshot) d).getValue();
                }
            }
        }
        return total;
    }

    private static double allocatedCpu(SimulationMetrics metrics) {
        return sum(metrics.collect(), SimulationMetrics.ALLOCATED, "resource", "cpu");
    }

    private static String pod(String name) {
        return """
                metadata: {name: %s}
                spec:
                  containers: [{name: c, image: busybox, resources: {requests: {cpu: 500m, memory: 1Gi}}}]
                """.formatted(name);
    }

    @Test
    void allocatedFollowsPodsAsTheyComeAndGo() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            SimulationMetrics metrics = new SimulationMetrics(h.manager(), null);
            assertThat(allocatedCpu(metrics)).isZero();
            assertThat(sum(metrics.collect(), SimulationMetrics.CAPACITY, "resource", "cpu")).isEqualTo(64);
            h.create(ResourceTypes.PODS, "default", pod("a"));
            assertThat(allocatedCpu(metrics)).isEqualTo(0.5);
            h.create(ResourceTypes.PODS, "default", pod("b"));
            h.advance(Duration.ofSeconds(3));
            assertThat(allocatedCpu(metrics)).isEqualTo(1.0);
            h.client().delete(ResourceTypes.PODS, "default", "a");
            h.advance(Duration.ofSeconds(5));
            assertThat(h.client().get(ResourceTypes.PODS, "default", "a")).isNull();
            assertThat(allocatedCpu(metrics)).isEqualTo(0.5);
            h.client().delete(ResourceTypes.NODES, null, "sim-node-3");
            h.settle();
            assertThat(sum(metrics.collect(), SimulationMetrics.CAPACITY, "resource", "cpu")).isEqualTo(48);
        }
    }

    @Test
    void aFinishedRayJobStaysCountedWhenItsClusterIsDeleted() {
        try (SimulationHarness h = SimulationHarness.withOperator()) {
            SimulationMetrics metrics = new SimulationMetrics(h.manager(), h.dashboard());
            h.create(ResourceTypes.RAYJOBS, "default", SeedManifests.exampleJob());
            for (int i = 0; i < 60 && !"SUCCEEDED".equals(Json.text(h.client().get(ResourceTypes.RAYJOBS, "default",
                    "example-job").object(), "status", "jobStatus")); i++) {
                h.advance(Duration.ofSeconds(1));
            }
            h.advance(Duration.ofSeconds(5));
            assertThat(h.client().list(ResourceTypes.RAYCLUSTERS, "default", null)).as("shutdownAfterJobFinishes")
                    .isEmpty();
            assertThat(sum(metrics.collect(), SimulationMetrics.RAY_JOBS, "state", "SUCCEEDED")).isEqualTo(1);
            assertThat(sum(metrics.collect(), SimulationMetrics.RAY_JOBS, null, null)).isEqualTo(1);

            h.client().delete(ResourceTypes.RAYJOBS, "default", "example-job");
            h.advance(Duration.ofSeconds(5));
            assertThat(sum(metrics.collect(), SimulationMetrics.RAY_JOBS, null, null)).isZero();
        }
    }
}
