package io.kuberaysim.scenario.seeds;

import io.kuberaysim.scenario.RunCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** A scenario's own invariant holds from its step to the end, checked after every change of its kind. */
class UserInvariantStepTest {
    @TempDir
    Path dir;

    private String run(String steps) throws Exception {
        Path file = dir.resolve("story.yaml");
        Files.writeString(file, """
                name: story
                steps:
                  - apply: {file: %s}
                %s""".formatted(Path.of("http-examples/example-cluster.yaml").toAbsolutePath(), steps.indent(2)));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = RunCommand.run(new String[] {"run", file.toString()}, new PrintStream(out, true,
                StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream()));
        return code + "\n" + out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aBrokenInvariantFailsTheRunAtTheTimeItBroke() throws Exception {
        String printed = run("""
                - invariant: {kind: RayCluster, name: example-cluster, jsonPath: .status.desiredWorkerReplicas, matches: "[0-2]"}
                - advance: 10s
                - patch: {kind: RayCluster, name: example-cluster, type: json, patch: [{op: replace, path: /spec/workerGroupSpecs/0/replicas, value: 4}]}
                - advance: 10s
                """);
        assertThat(printed).startsWith("1\n");
        assertThat(printed).contains("[  10.0s] invariant RayCluster default/example-cluster "
                + ".status.desiredWorkerReplicas =~ [0-2] broken: saw 4\n");
    }

    @Test
    void anInvariantThatHoldsPasses() throws Exception {
        String printed = run("""
                - invariant: {kind: RayCluster, name: example-cluster, jsonPath: .status.desiredWorkerReplicas, equals: "2"}
                - advance: 30s
                """);
        assertThat(printed).startsWith("0\n");
    }
}
