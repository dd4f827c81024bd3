package io.kuberaysim.scenario.seeds;

import io.kuberaysim.scenario.RunCommand;
import io.kuberaysim.scenario.Scenario;
import io.kuberaysim.scenario.ScenarioFiles;
import io.kuberaysim.scenario.ScenarioReader;
import io.kuberaysim.scenario.ScenarioResult;
import io.kuberaysim.scenario.StepKinds;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The chaos stories of {@code scenarios/} on 100 seeds each (every seed a fresh control plane, in parallel), and the
 * promise that makes a failing seed worth having: the same seed replays the same timeline, byte for byte.
 */
class ChaosStoriesTest {
    private final InvariantWatch watch = new InvariantWatch();

    private Scenario read(String file) throws Exception {
        Path path = Path.of("scenarios", file);
        return new ScenarioReader(StepKinds.defaults().register(new InvariantsStep.Kind(watch)))
                .read(Files.readString(path), file.replace(".yaml", ""),
                        ScenarioFiles.directory(path.toAbsolutePath().getParent()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"chaos-worker-churn.yaml", "chaos-node-loss-during-upgrade.yaml",
            "chaos-api-conflicts-while-scaling.yaml"})
    void passesOnAHundredSeeds(String file) throws Exception {
        Scenario scenario = read(file);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<SeedSweep.Outcome> outcomes = new SeedSweep(new CheckedRun(watch),
                Runtime.getRuntime().availableProcessors()).run(scenario, new SeedRange(1, 100), "run " + file,
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        assertThat(outcomes).hasSize(100);
        assertThat(outcomes).as(out.toString(StandardCharsets.UTF_8)).allMatch(SeedSweep.Outcome::passed);
    }

    @Test
    void theSameSeedReplaysAByteIdenticalTimelineWithItsFaults() throws Exception {
        Scenario scenario = read("chaos-worker-churn.yaml");
        String first = timeline(new CheckedRun(watch).run(scenario, 7L, e -> { }));
        String again = timeline(new CheckedRun(watch).run(scenario, 7L, e -> { }));
        assertThat(again).isEqualTo(first);
        assertThat(first).contains("fault: deleted Pod ", "(schedule kill-workers)",
                "fault: crashed the containers of Pod ", "(schedule crash-workers)");
        assertThat(timeline(new CheckedRun(watch).run(scenario, 8L, e -> { })))
                .as("another seed, other faults").isNotEqualTo(first);
    }

    private static String timeline(ScenarioResult r) {
        StringBuilder sb = new StringBuilder();
        r.timeline().forEach(e -> sb.append(e.render()).append('\n'));
        return sb.toString();
    }

    @Test
    void sweepOutputIsTheSameWhateverTheParallelism() throws Exception {
        Scenario scenario = read("chaos-api-conflicts-while-scaling.yaml");
        assertThat(sweep(scenario, 1)).isEqualTo(sweep(scenario, 3));
    }

    private String sweep(Scenario scenario, int threads) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new SeedSweep(new CheckedRun(watch), threads).run(scenario, new SeedRange(1, 6), "run x",
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream()));
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void runCommandTakesSeedsAndReplaysOne() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = RunCommand.run(new String[] {"run", "scenarios/chaos-worker-churn.yaml", "--seeds", "3"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8).lines().toList())
                .hasSize(4)
                .anySatisfy(l -> assertThat(l).startsWith("seed 2: passed ("))
                .last().isEqualTo("Scenario chaos-worker-churn: 3 of 3 seeds passed");
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("seeds/s");

        ByteArrayOutputStream replay = new ByteArrayOutputStream();
        assertThat(RunCommand.run(new String[] {"run", "scenarios/chaos-worker-churn.yaml", "--seed", "2"},
                new PrintStream(replay, true, StandardCharsets.UTF_8), System.err)).isZero();
        assertThat(replay.toString(StandardCharsets.UTF_8)).contains("fault: deleted Pod ",
                "invariants hold (continuous and settled)", "Scenario chaos-worker-churn: PASSED");

        ByteArrayOutputStream bad = new ByteArrayOutputStream();
        assertThat(RunCommand.run(new String[] {"run", "scenarios/chaos-worker-churn.yaml", "--seeds", "5..2"},
                System.out, new PrintStream(bad, true, StandardCharsets.UTF_8))).isEqualTo(RunCommand.UNREADABLE);
        assertThat(bad.toString(StandardCharsets.UTF_8)).contains("--seeds 5..2: the range is empty");
    }
}
