package io.kuberaysim.scenario;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import io.kuberaysim.scenario.seeds.CheckedRun;
import io.kuberaysim.scenario.seeds.InvariantWatch;
import io.kuberaysim.scenario.seeds.SeedRange;
import io.kuberaysim.scenario.seeds.SeedSweep;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code java -jar kuberay-sim.jar run <scenario.yaml> [--junit-xml <file>] [--timeline-json <file>]}: runs a
 * scenario on the virtual clock in process (no port), prints the timeline in the demo's format and what failed, and
 * exits 0 when everything held, 1 when an expectation or a step failed, 2 when the scenario cannot be read.
 * KubeRay's invariants are checked throughout ({@link CheckedRun}). {@code --seed K} runs it with seed K;
 * {@code --seeds 1..N} (or a count) runs it once per seed and prints a line per seed ({@link SeedSweep}).
 */
public final class RunCommand {
    public static final int PASSED = 0;
    public static final int FAILED = 1;
    public static final int UNREADABLE = 2;

    private RunCommand() {
    }

    public static boolean isRun(String[] args) {
        return args.length > 0 && (args[0].equals("run") || args[0].startsWith("run,"));
    }

    /**
     * The arguments as one list: {@code spring-boot:run -Dspring-boot.run.arguments="run,file.yaml"} passes them as
     * one comma-separated argument (older plugins split on commas), {@code java -jar} as separate ones.
     */
    private static String[] split(String[] args) {
        if (args.length == 1 && args[0].contains(",")) {
            return args[0].split(",");
        }
        return args;
    }

    /**
     * The operator's and the simulation's INFO logs go to the console by default; a command whose output is the
     * timeline keeps only warnings and errors.
     */
    public static void quietLogging() {
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.WARN);
        }
    }

    /** Runs {@code args} ({@code run <file> [options]}), printing to {@code out} and {@code err}; the exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        InvariantWatch invariants = new InvariantWatch();
        Options options;
        try {
            options = Options.parse(split(args));
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            err.println("usage: run <scenario.yaml> [--junit-xml <file>] [--timeline-json <file>] "
                    + "[--seed <n> | --seeds <count|first..last>]");
            return UNREADABLE;
        }
        Scenario scenario;
        try {
            String text = Files.readString(options.file, StandardCharsets.UTF_8);
            Path dir = options.file.toAbsolutePath().getParent();
            scenario = new ScenarioReader(new CheckedRun(invariants).stepKinds()).read(text, baseName(options.file), ScenarioFiles.directory(dir));
        } catch (IOException e) {
            err.println(options.file + ": cannot read the file: " + e.getMessage());
            return UNREADABLE;
        } catch (ScenarioException e) {
            err.println(options.file + ": " + e.describe());
            return UNREADABLE;
        }
        if (options.seeds != null) {
            List<SeedSweep.Outcome> outcomes = new SeedSweep(new CheckedRun(invariants),
                    Runtime.getRuntime().availableProcessors()).run(scenario, options.seeds,
                    "run " + options.file, out, err);
            return outcomes.stream().allMatch(SeedSweep.Outcome::passed) ? PASSED : FAILED;
        }
        // broken invariants are failures of the run, in its timeline at the time they broke
        ScenarioResult result = new CheckedRun(invariants).run(scenario, options.seed, e -> out.println(e.render()));
        result.timeline().stream().filter(e -> e.text().startsWith("invariant "))
                .forEach(e -> out.println(e.render()));
        out.println(summary(result));
        try {
            if (options.junitXml != null) {
                Files.writeString(options.junitXml, ScenarioReports.junitXml(result), StandardCharsets.UTF_8);
            }
            if (options.timelineJson != null) {
                Files.writeString(options.timelineJson, ScenarioReports.timelineJson(result), StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            err.println("cannot write a report: " + e.getMessage());
            return FAILED;
        }
        return result.passed() ? PASSED : FAILED;
    }

    /** The closing lines: PASSED/FAILED with counts, then each failure. */
    static String summary(ScenarioResult r) {
        long failed = r.expectations().stream().filter(e -> !e.passed()).count();
        StringBuilder sb = new StringBuilder("Scenario ").append(r.name()).append(": ")
                .append(r.passed() ? "PASSED" : "FAILED").append(" (").append(r.expectations().size())
                .append(" expectations, ").append(failed).append(" failed")
                .append(r.failure() != null ? ", stopped at step " + r.failure().step() : "")
                .append("; ").append(r.seconds()).append(" s virtual)");
        for (String f : r.failures()) {
            sb.append("\n  ").append(f);
        }
        return sb.toString();
    }

    private static String baseName(Path file) {
        String n = file.getFileName().toString();
        return n.replaceFirst("\\.ya?ml$", "");
    }

    private record Options(Path file, Path junitXml, Path timelineJson, Long seed, SeedRange seeds) {
        static Options parse(String[] args) {
            List<String> rest = new ArrayList<>(List.of(args).subList(1, args.length));
            Path file = null;
            Path junit = null;
            Path timeline = null;
            Long seed = null;
            SeedRange seeds = null;
            for (int i = 0; i < rest.size(); i++) {
                String a = rest.get(i);
                switch (a) {
                    case "--junit-xml" -> junit = Path.of(value(rest, ++i, a));
                    case "--timeline-json" -> timeline = Path.of(value(rest, ++i, a));
                    case "--seed" -> seed = seed(value(rest, ++i, a));
                    case "--seeds" -> seeds = SeedRange.parse(value(rest, ++i, a));
                    default -> {
                        if (a.startsWith("--junit-xml=")) {
                            junit = Path.of(a.substring("--junit-xml=".length()));
                        } else if (a.startsWith("--timeline-json=")) {
                            timeline = Path.of(a.substring("--timeline-json=".length()));
                        } else if (a.startsWith("--")) {
                            throw new IllegalArgumentException("unknown option " + a);
                        } else if (file != null) {
                            throw new IllegalArgumentException("one scenario file at a time; got " + file + " and " + a);
                        } else {
                            file = Path.of(a);
                        }
                    }
                }
            }
            if (file == null) {
                throw new IllegalArgumentException("no scenario file");
            }
            if (seed != null && seeds != null) {
                throw new IllegalArgumentException("--seed replays one seed, --seeds runs many: give one of them");
            }
            return new Options(file, junit, timeline, seed, seeds);
        }

        private static long seed(String text) {
            try {
                return Long.parseLong(text.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--seed must be a whole number, got \"" + text + "\"");
            }
        }

        private static String value(List<String> args, int i, String option) {
            if (i >= args.size()) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return args.get(i);
        }
    }
}
