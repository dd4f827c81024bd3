package io.kuberaysim.bench;

import io.kuberaysim.scenario.Scenario;
import io.kuberaysim.scenario.ScenarioFiles;
import io.kuberaysim.scenario.ScenarioReader;
import io.kuberaysim.scenario.StepKinds;
import io.kuberaysim.scenario.seeds.CheckedRun;
import io.kuberaysim.scenario.seeds.InvariantWatch;
import io.kuberaysim.scenario.seeds.InvariantsStep;
import io.kuberaysim.scenario.seeds.SeedRange;
import io.kuberaysim.scenario.seeds.SeedSweep;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Scenario chaos: the three chaos stories of {@code scenarios/} swept over seeds 1..100 (3 in the smoke run) as
 * {@code run --seeds} sweeps them, in seeds per second of wall time: on every core, and on one thread, alternating
 * within each round (after one warm-up sweep per story), so the parallel speed-up is a ratio from the same run.
 */
final class ChaosSeedsBenchmark {
    private static final List<String> STORIES = List.of("chaos-worker-churn", "chaos-node-loss-during-upgrade",
            "chaos-api-conflicts-while-scaling");

    private ChaosSeedsBenchmark() {
    }

    static void run(BenchConfig cfg, Report report) {
        boolean smoke = cfg.name().equals("smoke");
        int seeds = smoke ? 3 : 100;
        int rounds = smoke ? 1 : Math.max(1, cfg.rounds());
        int cores = Runtime.getRuntime().availableProcessors();
        InvariantWatch watch = new InvariantWatch();
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        for (String story : STORIES) {
            Scenario scenario;
            try {
                Path file = Path.of("scenarios", story + ".yaml");
                scenario = new ScenarioReader(StepKinds.defaults().register(new InvariantsStep.Kind(watch)))
                        .read(Files.readString(file), story, ScenarioFiles.directory(file.toAbsolutePath().getParent()));
            } catch (Exception e) {
                report.note("chaos: cannot read " + story + ": " + e.getMessage());
                continue;
            }
            sweep(scenario, new SeedRange(1, Math.min(seeds, 10)), cores, watch, quiet); // JIT warm-up
            List<Double> parallel = new ArrayList<>();
            List<Double> single = new ArrayList<>();
            List<Double> speedUp = new ArrayList<>();
            int failed = 0;
            for (int r = 0; r < rounds; r++) {
                Sweep p = sweep(scenario, new SeedRange(1, seeds), cores, watch, quiet);
                Sweep s = sweep(scenario, new SeedRange(1, seeds), 1, watch, quiet);
                parallel.add(p.perSecond());
                single.add(s.perSecond());
                speedUp.add(p.perSecond() / s.perSecond());
                failed += p.failed() + s.failed();
            }
            report.add("chaos", story + ": seeds/s on " + cores + " threads (" + seeds + " seeds)",
                    Stats.of(parallel), "seeds/s", null, null);
            report.add("chaos", story + ": seeds/s on 1 thread", Stats.of(single), "seeds/s", null, null);
            report.add("chaos", story + ": parallel / 1 thread", Stats.of(speedUp), "×", null, null);
            if (failed > 0) {
                report.note("chaos: " + story + ": " + failed + " seed runs failed");
            }
        }
    }

    private record Sweep(double perSecond, int failed) {
    }

    private static Sweep sweep(Scenario scenario, SeedRange seeds, int threads, InvariantWatch watch,
                               PrintStream quiet) {
        long t0 = System.nanoTime();
        List<SeedSweep.Outcome> outcomes = new SeedSweep(new CheckedRun(watch), threads)
                .run(scenario, seeds, "run", quiet, quiet);
        double seconds = (System.nanoTime() - t0) / 1e9;
        return new Sweep(outcomes.size() / seconds, (int) outcomes.stream().filter(o -> !o.passed()).count());
    }
}
