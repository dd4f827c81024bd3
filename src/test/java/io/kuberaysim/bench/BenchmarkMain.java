package io.kuberaysim.bench;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Locale;

/**
 * Runs every benchmark scenario and writes one Markdown table to {@code target/bench/results.md}.
 * Run with {@code ./mvnw -Pbench verify} (full sizes); {@code -Dbench.profile=smoke} and
 * {@code -Dbench.<setting>=} (see {@link BenchConfig}) shrink it.
 */
public final class BenchmarkMain {
    private BenchmarkMain() {
    }

    public static void main(String[] args) {
        for (String a : args) { // settings as key=value arguments, the same as -Dbench.key=value
            int eq = a.indexOf('=');
            if (eq > 0) {
                System.setProperty("bench." + a.substring(0, eq), a.substring(eq + 1));
            }
        }
        BenchConfig cfg = BenchConfig.fromSystemProperties("full");
        Path out = Path.of(System.getProperty("bench.output", "target/bench/results.md"));
        Report report = run(cfg);
        report.write(out);
        System.out.println();
        System.out.println(report.markdown());
        System.out.println("[bench] written to " + out.toAbsolutePath());
        System.exit(0); // servers' non-daemon threads must not keep the JVM alive
    }

    static Report run(BenchConfig cfg) {
        Report report = new Report("## Results (" + LocalDate.now(java.time.Clock.systemUTC()) + ", " + machine() + ")\n\n"
                + cfg.describe());
        if (cfg.runs("http")) {
            new HttpApiScenario(cfg, report).run();
        }
        if (cfg.runs("metrics")) {
            new HttpApiScenario(cfg, report).runMetricsOverhead();
        }
        if (cfg.runs("auth")) {
            new HttpApiScenario(cfg, report).runAuthOverhead();
        }
        if (cfg.runs("growth")) {
            new HttpApiScenario(cfg, report).runGrowth();
        }
        if (cfg.runs("scale")) {
            ScaleScenario.run(cfg, report);
        }
        if (cfg.runs("watch")) {
            new WatchFanoutScenario(cfg, report).run();
        }
        if (cfg.runs("demo")) {
            DemoBenchmark.run(cfg, report);
        }
        if (cfg.runs("etcd")) {
            EtcdScenario.run(cfg, report);
        }
        if (cfg.runs("churn")) {
            ChurnScenario.run(cfg, report);
        }
        if (cfg.runs("slowclients")) {
            SlowClientScenario.run(cfg, report);
        }
        if (cfg.runs("slowwatchers")) {
            SlowWatcherScenario.run(cfg, report);
        }
        if (cfg.runs("bigbodies")) {
            BigBodyScenario.run(cfg, report);
        }
        if (cfg.runs("chaos")) {
            ChaosSeedsBenchmark.run(cfg, report);
        }
        if (cfg.runs("start")) {
            StartBenchmark.run(cfg, report);
        }
        return report;
    }

    static String machine() {
        long maxHeap = Runtime.getRuntime().maxMemory();
        var os = ManagementFactory.getOperatingSystemMXBean();
        String mem = "";
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            mem = String.format(Locale.ROOT, ", %.1f GiB RAM", sun.getTotalMemorySize() / (double) (1L << 30));
        }
        return String.format(Locale.ROOT, "%d cores%s, Java %s (%s), max heap %.1f GiB",
                Runtime.getRuntime().availableProcessors(), mem, System.getProperty("java.version"),
                System.getProperty("java.vm.name"), maxHeap / (double) (1L << 30));
    }
}
