package io.kuberaysim.bench;

/**
 * Scenario 4, the seed demo: a hook until the {@code demo} command exists. When it lands, time the demo's
 * scenario in process (target ≤ 100 ms) and the whole command, and report both here.
 */
final class DemoScenario {
    private DemoScenario() {
    }

    static void run(BenchConfig cfg, Report report) {
        report.note("demo: skipped, the `demo` command does not exist yet (hook: DemoScenario)");
    }
}
