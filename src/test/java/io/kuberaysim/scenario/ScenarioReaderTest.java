package io.kuberaysim.scenario;

import io.kuberaysim.scenario.step.WaitForStep;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A scenario that cannot be read says where: step index, line and field, never a parser's stack trace. */
class ScenarioReaderTest {
    private static final ScenarioFiles FILES = ScenarioFiles.directory(Path.of("scenarios"));

    private static Scenario read(String yaml) {
        return new ScenarioReader().read(yaml, "test", FILES);
    }

    private static ScenarioException error(String yaml) {
        try {
            read(yaml);
        } catch (ScenarioException e) {
            return e;
        }
        throw new AssertionError("read without error");
    }

    @Test
    void readsSettingsStepsAndAt() {
        Scenario s = read("""
                name: two-steps
                settings:
                  nodes: {count: 2, cpu: "8", gpuCount: 1}
                  kubelet: {startup: 500ms}
                  seed: 7
                  namespace: team-a
                steps:
                  - advance: 1m30s
                  - at: 2m
                    waitFor: {kind: rayclusters, name: x, condition: RayClusterProvisioned, timeout: 30s}
                """);
        assertThat(s.name()).isEqualTo("two-steps");
        assertThat(s.settings().simulation().nodeCount()).isEqualTo(2);
        assertThat(s.settings().simulation().nodeCpu()).isEqualTo("8");
        assertThat(s.settings().simulation().gpuNodeCount()).isEqualTo(1);
        assertThat(s.settings().simulation().startup()).isEqualTo(Duration.ofMillis(500));
        assertThat(s.settings().seed()).isEqualTo(7);
        assertThat(s.steps()).hasSize(2);
        assertThat(s.steps().get(0).step().describe()).isEqualTo("advance 90s");
        assertThat(s.steps().get(1).at()).isEqualTo(Duration.ofMinutes(2));
        assertThat(s.steps().get(1).line()).isEqualTo(9);
        WaitForStep wait = (WaitForStep) s.steps().get(1).step();
        assertThat(wait.timeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(wait.describe()).isEqualTo("waitFor RayCluster team-a/x condition RayClusterProvisioned=True");
    }

    @Test
    void unknownStepTypeNamesStepLineAndKnownTypes() {
        ScenarioException e = error("""
                steps:
                  - advance: 1s
                  - explode: {kind: Pod}
                """);
        assertThat(e.step()).isEqualTo(2);
        assertThat(e.line()).isEqualTo(3);
        assertThat(e.field()).isEqualTo("steps[1].explode");
        assertThat(e.describe()).isEqualTo("step 2, line 3, steps[1].explode: unknown step type \"explode\"; known: "
                + "advance, apply, delete, expect, fault, patch, waitFor (and at, description)");
    }

    @Test
    void missingFieldNamesTheLine() {
        ScenarioException e = error("""
                steps:
                  - waitFor:
                      kind: RayCluster
                      jsonPath: .status.state
                      equals: ready
                """);
        assertThat(e.describe()).isEqualTo("step 1, line 2, steps[0].waitFor: needs \"name\" or \"selector\"");
    }

    @Test
    void malformedValuesNameTheirField() {
        assertThat(error("""
                steps:
                  - waitFor: {kind: RayCluster, name: x, condition: Ready, timeout: soon}
                """).describe()).isEqualTo("step 1, line 2, steps[0].waitFor.timeout: must be a duration such as "
                + "30s, 1m30s, 500ms or a number of seconds; got \"soon\"");
        // a jump of centuries would keep the clock's loop (and a server running it over HTTP) busy for hours
        assertThat(error("""
                steps:
                  - advance: 2000000h
                """).describe()).isEqualTo("step 1, line 2, steps[0].advance: must be at most 8784h (366 days); "
                + "got \"2000000h\"");
        assertThat(error("""
                steps:
                  - expect: {kind: Rocket, name: x, absent: true}
                """).describe()).startsWith("step 1, line 2, steps[0].expect.kind: unknown kind \"Rocket\"; known: ");
        assertThat(error("""
                steps:
                  - expect: {kind: Pod, name: x, jsonPath: "$.status..", equals: a}
                """).describe()).startsWith("step 1, line 2, steps[0].expect.jsonPath: not a JSONPath");
        assertThat(error("""
                steps:
                  - fault: {type: meteor, name: x}
                """).describe()).isEqualTo("step 1, line 2, steps[0].fault.type: unknown fault type \"meteor\"; known: "
                + "cordonNode, deleteNode, deletePod, failPod, failRayJob, nodeNotReady");
        assertThat(error("""
                steps:
                  - fault:
                      type: deletePod
                      nmae: x
                """).describe()).isEqualTo("step 1, line 4, steps[0].fault.nmae: unknown field; expected one of "
                + "type, name, namespace, selector");
        assertThat(error("""
                settings:
                  nodes: {count: -1}
                steps: [{advance: 1s}]
                """).describe()).isEqualTo("line 2, settings.nodes.count: must be a whole number from 0 to 1000; "
                + "got \"-1\"");
    }

    @Test
    void twoTypesInOneStepAndNoType() {
        assertThat(error("""
                steps:
                  - advance: 1s
                    delete: {kind: Pod, name: x}
                """).describe()).isEqualTo("step 1, line 3, steps[0].delete: a step has one type; this one already "
                + "is \"advance\"");
        assertThat(error("""
                steps:
                  - at: 5s
                """).describe()).startsWith("step 1, line 2, steps[0]: a step needs one of advance, apply");
    }

    @Test
    void applyNamesAMissingFileAndAManifestWithoutKind() {
        assertThat(error("""
                steps:
                  - apply: {file: nowhere.yaml}
                """).describe()).isEqualTo("step 1, line 2, steps[0].apply.file: no such manifest file: nowhere.yaml");
        assertThat(error("""
                steps:
                  - apply:
                      metadata: {name: x}
                """).describe()).isEqualTo("step 1, line 2, steps[0].apply: a manifest needs apiVersion and kind");
        assertThat(read("""
                steps:
                  - apply: {file: ../http-examples/example-cluster.yaml}
                """).steps().get(0).step().describe())
                .isEqualTo("apply RayCluster example-cluster from ../http-examples/example-cluster.yaml");
    }

    @Test
    void notYamlAndNoStepsAndUnknownTopLevelField() {
        ScenarioException bad = error("steps:\n  - advance: 1s\n  - {advance: [\n");
        assertThat(bad.line()).isGreaterThanOrEqualTo(3);
        assertThat(bad.getMessage()).startsWith("not valid YAML: ");
        assertThat(error("name: x\n").describe()).isEqualTo("line 1, steps: missing required field: a scenario "
                + "needs a list of steps");
        assertThat(error("name: x\nstpes: []\n").describe()).isEqualTo("line 2, stpes: unknown field; expected one of "
                + "name, description, settings, steps");
        assertThat(error("").getMessage()).isEqualTo("the scenario is empty");
    }

    @Test
    void durationsInGoFormOrSeconds() {
        assertThat(ScenarioDurations.parse("1m30s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(ScenarioDurations.parse("1.5h")).isEqualTo(Duration.ofMinutes(90));
        assertThat(ScenarioDurations.parse("250ms")).isEqualTo(Duration.ofMillis(250));
        assertThat(ScenarioDurations.parse("12")).isEqualTo(Duration.ofSeconds(12));
        assertThat(ScenarioDurations.parse("0.5")).isEqualTo(Duration.ofMillis(500));
        assertThat(ScenarioDurations.parse("-1s")).isNull();
        assertThat(ScenarioDurations.parse("5 s")).isNull();
        assertThat(ScenarioDurations.parse("s")).isNull();
    }

    @Test
    void stepKindsAreAnOpenSet() {
        StepKinds kinds = StepKinds.defaults().register(new StepKind() {
            @Override
            public String name() {
                return "noop";
            }

            @Override
            public Step parse(StepSource source) {
                return new Step() {
                    @Override
                    public void run(ScenarioRun run) {
                    }

                    @Override
                    public String describe() {
                        return "noop " + source.node().asString();
                    }
                };
            }
        });
        Scenario s = new ScenarioReader(kinds).read("steps: [{noop: hello}]", "t", FILES);
        assertThat(s.steps().get(0).step().describe()).isEqualTo("noop hello");
        assertThatThrownBy(() -> read("steps: [{noop: hello}]")).isInstanceOf(ScenarioException.class);
    }
}
