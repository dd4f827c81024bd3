package io.kuberaysim.scenario.seeds;

import io.kuberaysim.scenario.Scenario;
import io.kuberaysim.scenario.ScenarioResult;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * {@code run <scenario> --seeds 1..N}: the scenario once per seed, each on a fresh simulator, in parallel on the
 * machine's cores. Each run is deterministic and shares nothing with the others, so the output is the same whatever
 * the parallelism: one line per seed, in seed order ({@code seed 7: passed (52.0 s virtual)}, or its first failure),
 * then a summary naming the failing seeds and how to replay one. Only the wall-clock rate goes to {@code err}.
 */
public final class SeedSweep {
    private final CheckedRun runs;
    private final int parallelism;

    /** @param parallelism runs at a time (at least 1) */
    public SeedSweep(CheckedRun runs, int parallelism) {
        this.runs = runs;
        this.parallelism = Math.max(1, parallelism);
    }

    /** One seed's outcome. */
    public record Outcome(long seed, boolean passed, String line) {
    }

    /** Runs every seed; prints a line per seed and the summary to {@code out}; returns the outcomes in seed order. */
    public List<Outcome> run(Scenario scenario, SeedRange seeds, String replayHint, PrintStream out, PrintStream err) {
        long started = System.nanoTime();
        List<Outcome> outcomes = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(parallelism, r -> {
            Thread t = new Thread(r, "seed-sweep");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<Outcome>> futures = new ArrayList<>();
            seeds.seeds().forEach(seed -> futures.add(pool.submit(() -> outcome(scenario, seed))));
            for (Future<Outcome> f : futures) {
                Outcome o = f.get();
                outcomes.add(o);
                out.println(o.line());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("a run could not complete: " + e.getCause(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
        List<Long> failed = outcomes.stream().filter(o -> !o.passed()).map(Outcome::seed).toList();
        out.println(summary(scenario.name(), outcomes.size(), failed, replayHint));
        double wall = (System.nanoTime() - started) / 1e9;
        err.printf(Locale.ROOT, "(%d seeds in %.1f s wall: %.1f seeds/s on %d threads)%n", outcomes.size(), wall,
                outcomes.size() / wall, parallelism);
        return outcomes;
    }

    /** One seed, run and described in one line. */
    public Outcome outcome(Scenario scenario, long seed) {
        ScenarioResult r = runs.run(scenario, seed, e -> { });
        String head = String.format(Locale.ROOT, "seed %d: ", seed);
        if (r.passed()) {
            return new Outcome(seed, true, head + "passed (" + r.seconds() + " s virtual)");
        }
        return new Outcome(seed, false, head + "FAILED " + firstFailure(r));
    }

    /** The first thing that went wrong, by time: a broken invariant, a failed expectation, or the failed step. */
    private static String firstFailure(ScenarioResult r) {
        ScenarioResult.Expectation first = null;
        for (ScenarioResult.Expectation e : r.expectations()) {
            if (!e.passed() && (first == null || e.seconds() < first.seconds())) {
                first = e;
            }
        }
        if (r.failure() != null && (first == null || r.failure().seconds() <= first.seconds())) {
            return String.format(Locale.ROOT, "at %.1fs: %s", r.failure().seconds(), r.failure().describe());
        }
        if (first == null) {
            return "(no failure recorded)";
        }
        String where = first.step() == 0 ? "" : "step " + first.step() + " (line " + first.line() + ") ";
        return String.format(Locale.ROOT, "at %.1fs: %s%s: %s", first.seconds(), where, first.description(),
                first.message());
    }

    static String summary(String name, int runs, List<Long> failed, String replayHint) {
        StringBuilder sb = new StringBuilder("Scenario ").append(name).append(": ").append(runs - failed.size())
                .append(" of ").append(runs).append(" seeds passed");
        if (!failed.isEmpty()) {
            sb.append("; failed: ").append(failed.stream().map(String::valueOf)
                    .collect(java.util.stream.Collectors.joining(", ")));
            sb.append("\nReplay one with its full timeline: ").append(replayHint).append(" --seed ")
                    .append(failed.get(0));
        }
        return sb.toString();
    }
}
