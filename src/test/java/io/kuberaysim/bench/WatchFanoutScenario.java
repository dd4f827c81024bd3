package io.kuberaysim.bench;

/** Scenario 3: watch fan-out over HTTP. */
final class WatchFanoutScenario {
    private final BenchConfig cfg;
    private final Report report;

    WatchFanoutScenario(BenchConfig cfg, Report report) {
        this.cfg = cfg;
        this.report = report;
    }

    void run() {
        report.note("watch: skipped, HTTP watch is not served yet");
    }
}
