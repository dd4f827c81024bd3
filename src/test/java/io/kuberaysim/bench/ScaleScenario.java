package io.kuberaysim.bench;

/** Scenario 2: N RayClusters on the virtual clock, in process, until all are ready. */
final class ScaleScenario {
    private ScaleScenario() {
    }

    static void run(BenchConfig cfg, Report report) {
        report.note("scale: skipped, the RayCluster reconciler and SimulationHarness have not landed yet");
    }
}
