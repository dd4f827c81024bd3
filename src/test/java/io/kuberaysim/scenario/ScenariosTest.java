package io.kuberaysim.scenario;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every story in {@code scenarios/} runs as {@code run} runs it: exit 0, and the timeline lines that tell the
 * story. A new file there must be listed here with its lines.
 */
class ScenariosTest {
    private static final Map<String, List<String>> KEY_LINES = Map.of(
            "seed-demo.yaml", List.of(
                    "[   2.0s] updated RayCluster example-cluster status ready=2/2 state=ready",
                    "[   4.0s] updated RayCluster example-cluster status ready=4/4 state=ready",
                    "[   9.0s] updated RayJob example-job status deployment=Complete job=SUCCEEDED",
                    "[   9.0s] deleted RayCluster example-job-8zf7m",
                    "Scenario seed-demo: PASSED (3 expectations, 0 failed; 9.0 s virtual)"),
            "head-pod-failure.yaml", List.of(
                    "[  10.0s] step 3 (line 11) fault deletePod Pod default/example-cluster-head",
                    "[  11.0s] deleted head Pod example-cluster-head",
                    "[  11.0s] created head Pod example-cluster-head",
                    "[  13.0s] step 8 (line 20) expect RayCluster default/example-cluster condition HeadPodReady=True",
                    "[  13.0s] step 11 (line 24) expect Pod default/example-cluster-worker-cpu-workers-0"
                            + " .status.containerStatuses[0].restartCount == 1",
                    "Scenario head-pod-failure: PASSED (8 expectations, 0 failed; 13.0 s virtual)"),
            "node-loss.yaml", List.of(
                    "[  10.0s] step 5 (line 13) fault deleteNode sim-node-1",
                    "[  10.0s] deleted worker Pod example-cluster-worker-cpu-workers-0",
                    "[  10.0s] created worker Pod example-cluster-worker-cpu-workers-0",
                    "[  12.0s] updated RayCluster example-cluster status ready=2/2 state=ready",
                    "Scenario node-loss: PASSED (7 expectations, 0 failed; 12.0 s virtual)"),
            "rayjob-retries.yaml", List.of(
                    "[   9.0s] updated RayJob flaky-job status deployment=Retrying job=FAILED",
                    "[  18.0s] updated RayJob flaky-job status deployment=Retrying job=FAILED",
                    "[  27.0s] updated RayJob flaky-job status deployment=Failed job=FAILED",
                    "Scenario rayjob-retries: PASSED (6 expectations, 0 failed; 27.0 s virtual)"),
            "rayservice-failed-upgrade.yaml", List.of(
                    "[  10.0s] created RayCluster rayservice-sample-jn4sf",
                    "[  12.0s] updated RayCluster rayservice-sample-jn4sf status ready=1/1 state=ready",
                    "Scenario rayservice-failed-upgrade: PASSED (8 expectations, 0 failed; 130.0 s virtual)"),
            "autoscaler.yaml", List.of(
                    "[   2.0s] updated RayCluster autoscaled spec small-wg.replicas=4",
                    "[  30.0s] updated RayCluster autoscaled spec small-wg.replicas=1",
                    "[  31.0s] deleted worker Pod autoscaled-worker-small-wg-3",
                    "[  31.0s] updated RayCluster autoscaled status ready=1/1 state=ready",
                    "Scenario autoscaler: PASSED (6 expectations, 0 failed; 31.0 s virtual)"),
            "chaos-worker-churn.yaml", List.of(
                    "[  11.0s] fault: deleted Pod churn-job-ngtjh-worker-cpu-1 (schedule kill-workers)",
                    "[  12.8s] fault: crashed the containers of Pod churn-job-ngtjh-worker-cpu-0 with exit code 137 "
                            + "(schedule crash-workers)",
                    "[  67.0s] step 9 (line 69) invariants hold (continuous and settled)",
                    "Scenario chaos-worker-churn: PASSED (2 expectations, 0 failed; 67.0 s virtual)"),
            "chaos-node-loss-during-upgrade.yaml", List.of(
                    "[  12.1s] fault: made Node sim-node-0 NotReady for 12.985s (schedule lose-nodes)",
                    "[  86.0s] step 12 (line 42) invariants hold (continuous and settled)",
                    "Scenario chaos-node-loss-during-upgrade: PASSED (1 expectations, 0 failed; 86.0 s virtual)"),
            "chaos-api-conflicts-while-scaling.yaml", List.of(
                    "[  12.0s] fault: failing 60% of the operator's API writes with 409 for 10s (schedule "
                            + "api-conflicts)",
                    "[  40.0s] step 11 (line 35) invariants hold (continuous and settled)",
                    "Scenario chaos-api-conflicts-while-scaling: PASSED (1 expectations, 0 failed; 40.0 s virtual)"));

    static Stream<String> scenarios() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("scenarios"))) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yaml")).sorted().toList()
                    .stream();
        }
    }

    @ParameterizedTest
    @MethodSource("scenarios")
    void runsAndTellsItsStory(String file) {
        assertThat(KEY_LINES).as("key timeline lines of scenarios/%s", file).containsKey(file);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = RunCommand.run(new String[] {"run", "scenarios/" + file}, o, e);
        }
        String printed = out.toString(StandardCharsets.UTF_8);
        assertThat(code).as("exit code; output:%n%s%s", printed, err).isZero();
        assertThat(printed.lines().toList()).containsSubsequence(KEY_LINES.get(file));
    }

    @Test
    void atLeastTheSixStoriesOfTheIssue() throws IOException {
        assertThat(scenarios().toList()).containsAll(KEY_LINES.keySet());
    }
}
