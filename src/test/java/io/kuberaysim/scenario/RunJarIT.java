package io.kuberaysim.scenario;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** {@code java -jar target/kuberay-sim.jar run <file>} as CI runs it: the packaged jar, its exit code and output. */
class RunJarIT {
    private static final Path JAR = Path.of("target", "kuberay-sim.jar");

    @TempDir
    Path dir;

    private record Outcome(int code, String output) {
    }

    private Outcome run(String... args) throws IOException, InterruptedException {
        assumeTrue(Files.isRegularFile(JAR), "the jar is built by package, before the integration tests");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", JAR.toString(), "run"));
        cmd.addAll(List.of(args));
        Path log = dir.resolve("out.txt");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("run finished").isTrue();
        return new Outcome(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    }

    @Test
    void aPassingScenarioExitsZeroWithItsTimelineAndReport() throws Exception {
        Path report = dir.resolve("report.xml");
        Outcome o = run("scenarios/rayjob-retries.yaml", "--junit-xml", report.toString());
        assertThat(o.code()).as(o.output()).isZero();
        assertThat(o.output()).contains("[  27.0s] updated RayJob flaky-job status deployment=Failed job=FAILED",
                "Scenario rayjob-retries: PASSED (6 expectations, 0 failed; 27.0 s virtual)");
        assertThat(o.output()).doesNotContain(" INFO ");
        assertThat(Files.readString(report)).contains("tests=\"6\" failures=\"0\" errors=\"0\"");
    }

    @Test
    void anUnreadableScenarioExitsTwo() throws Exception {
        Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, "steps:\n  - teleport: {kind: Pod, name: x}\n");
        Outcome o = run(bad.toString());
        assertThat(o.code()).isEqualTo(2);
        assertThat(o.output()).contains("bad.yaml: step 1, line 2, steps[0].teleport: unknown step type \"teleport\"");
    }
}
