package io.kuberaysim.scenario;

import io.kuberaysim.api.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code run <file>} through its entry point: what a user sees on stdout and stderr and the exit code (0 held,
 * 1 failed, 2 unreadable), and the JUnit XML and JSON timeline reports.
 */
class RunCommandTest {
    @TempDir
    Path dir;

    private record Outcome(int code, String out, String err) {
    }

    private Outcome run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            String[] all = new String[args.length + 1];
            all[0] = "run";
            System.arraycopy(args, 0, all, 1, args.length);
            code = RunCommand.run(all, o, e);
        }
        return new Outcome(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private Path scenario(String yaml) throws IOException {
        Path f = dir.resolve("story.yaml");
        Files.writeString(f, yaml);
        return f;
    }

    private static final String CLUSTER = """
              - apply:
                  apiVersion: ray.io/v1
                  kind: RayCluster
                  metadata: {name: small}
                  spec:
                    headGroupSpec:
                      rayStartParams: {}
                      template:
                        spec:
                          containers: [{name: ray-head, image: rayproject/ray:2.9.0}]
                    workerGroupSpecs:
                    - groupName: g
                      replicas: 1
                      minReplicas: 0
                      maxReplicas: 2
                      rayStartParams: {}
                      template:
                        spec:
                          containers: [{name: ray-worker, image: rayproject/ray:2.9.0}]
            """;

    @Test
    void theSeedDemoScenarioPassesWithTheDemosTimeline() throws IOException {
        Path timeline = dir.resolve("timeline.jsonl");
        Path junit = dir.resolve("report.xml");
        Outcome o = run("scenarios/seed-demo.yaml", "--junit-xml", junit.toString(), "--timeline-json",
                timeline.toString());
        assertThat(o.code()).isZero();
        assertThat(o.out()).contains("[   2.0s] updated RayCluster example-cluster status ready=2/2 state=ready\n",
                "[   9.0s] updated RayJob example-job status deployment=Complete job=SUCCEEDED\n",
                "[   9.0s] deleted RayCluster example-job-8zf7m\n");
        assertThat(o.out()).endsWith("Scenario seed-demo: PASSED (3 expectations, 0 failed; 9.0 s virtual)\n");

        String xml = Files.readString(junit);
        assertThat(xml).contains("<testsuite name=\"seed-demo\" tests=\"3\" failures=\"0\" errors=\"0\" time=\"9.000\">",
                "<testcase classname=\"seed-demo\" name=\"step 9 (line 23) expect RayJob default/example-job "
                        + ".status.jobStatus == SUCCEEDED\"");
        List<String> lines = Files.readAllLines(timeline);
        JsonNode first = Json.MAPPER.readTree(lines.get(0));
        assertThat(first.path("seconds").asDouble()).isZero();
        assertThat(first.path("step").asInt()).isEqualTo(1);
        JsonNode second = Json.MAPPER.readTree(lines.get(1));
        assertThat(second.has("step")).isFalse();
        assertThat(second.path("text").asString()).isEqualTo("created head Service example-cluster-head-svc");
    }

    @Test
    void aFailedExpectationExitsOneWithExpectedAndSeenAndTheRunGoesOn() throws IOException {
        Path junit = dir.resolve("report.xml");
        Outcome o = run(scenario("name: failing\nsteps:\n" + CLUSTER + """
                  - waitFor: {kind: RayCluster, name: small, jsonPath: .status.state, equals: ready, timeout: 1m}
                  - expect: {kind: RayCluster, name: small, jsonPath: .status.readyWorkerReplicas, equals: 3}
                  - expect: {kind: Pod, selector: ray.io/cluster=small, count: 2}
                """).toString(), "--junit-xml", junit.toString());
        assertThat(o.code()).isEqualTo(1);
        assertThat(o.out()).contains("step 3 (line 23) FAILED: expected RayCluster default/small "
                + ".status.readyWorkerReplicas == 3, saw 1\n");
        assertThat(o.out()).contains("Scenario failing: FAILED (2 expectations, 1 failed; 2.0 s virtual)\n"
                + "  step 3 (line 23) expect RayCluster default/small .status.readyWorkerReplicas == 3: expected "
                + "RayCluster default/small .status.readyWorkerReplicas == 3, saw 1\n");
        assertThat(Files.readString(junit)).contains("tests=\"2\" failures=\"1\" errors=\"0\"",
                "<failure message=\"expected RayCluster default/small .status.readyWorkerReplicas == 3, saw 1\">");
    }

    @Test
    void aWaitForThatTimesOutStopsTheRunAndSaysWhatWasLastSeen() throws IOException {
        Outcome o = run(scenario("name: slow\nsteps:\n" + CLUSTER + """
                  - waitFor: {kind: RayCluster, name: small, jsonPath: .status.state, equals: suspended, timeout: 30s}
                  - expect: {kind: RayCluster, name: small, absent: true}
                """).toString());
        assertThat(o.code()).isEqualTo(1);
        assertThat(o.out()).contains("[  30.0s] step 2 (line 22) FAILED: timed out after 30s waiting for "
                + "RayCluster default/small .status.state == suspended; last seen: ready\n");
        assertThat(o.out()).doesNotContain("step 3");
        assertThat(o.out()).contains("Scenario slow: FAILED (0 expectations, 0 failed, stopped at step 2; 30.0 s "
                + "virtual)");
    }

    @Test
    void anExpectationOnAnObjectThatNeverAppearsSaysItDoesNotExist() throws IOException {
        Outcome o = run(scenario("""
                steps:
                  - advance: 5s
                  - expect: {kind: RayJob, name: ghost, jsonPath: .status.jobStatus, equals: SUCCEEDED}
                """).toString());
        assertThat(o.code()).isEqualTo(1);
        assertThat(o.out()).contains("step 2 (line 3) FAILED: expected RayJob default/ghost .status.jobStatus == "
                + "SUCCEEDED, saw RayJob default/ghost does not exist");
    }

    @Test
    void aManifestTheApiRejectsFailsWithTheStatusMessage() throws IOException {
        Outcome o = run(scenario("""
                steps:
                  - apply:
                      apiVersion: ray.io/v1
                      kind: RayCluster
                      metadata: {name: Bad_Name}
                      spec: {headGroupSpec: {rayStartParams: {}, template: {spec: {containers: []}}}}
                  - advance: 1s
                """).toString());
        assertThat(o.code()).isEqualTo(1);
        assertThat(o.out()).contains("step 1 (line 2) FAILED: the API refused it: 422 Invalid: RayCluster.ray.io "
                + "\"Bad_Name\" is invalid");
        assertThat(o.out()).doesNotContain("Exception");
    }

    @Test
    void anUnreadableScenarioExitsTwoNamingStepLineAndField() throws IOException {
        Outcome o = run(scenario("""
                steps:
                  - advance: 1s
                  - waitFor: {kind: Pod, name: x, condition: Ready, timeout: forever}
                """).toString());
        assertThat(o.code()).isEqualTo(2);
        assertThat(o.out()).isEmpty();
        assertThat(o.err()).endsWith("story.yaml: step 2, line 3, steps[1].waitFor.timeout: must be a duration such "
                + "as 30s, 1m30s, 500ms or a number of seconds; got \"forever\"\n");

        assertThat(run(dir.resolve("missing.yaml").toString()).code()).isEqualTo(2);
        Outcome usage = run();
        assertThat(usage.code()).isEqualTo(2);
        assertThat(usage.err()).contains("error: no scenario file");
        assertThat(run("a.yaml", "--junit").err()).contains("error: unknown option --junit");
    }

    @Test
    void atRunsAStepAtAVirtualTimeAndAPastTimeFails() throws IOException {
        Outcome o = run(scenario("""
                steps:
                  - at: 12s
                    expect: {kind: Node, name: sim-node-0, condition: Ready}
                  - advance: 10s
                  - at: 15s
                    advance: 1s
                """).toString());
        assertThat(o.out()).contains("[  12.0s] step 1 (line 2) expect Node sim-node-0 condition Ready=True\n");
        assertThat(o.out()).contains("step 3 (line 5) FAILED: due at 15s but the clock is already at 22s");
        assertThat(o.code()).isEqualTo(1);
    }

    @Test
    void faultsCordonNotReadyFailPodAndFailRayJobAsTheClusterWouldSeeThem() throws IOException {
        Outcome o = run(scenario("name: faults\nsteps:\n" + CLUSTER + """
                  - waitFor: {kind: RayCluster, name: small, jsonPath: .status.state, equals: ready, timeout: 1m}
                  - expect: {kind: Pod, name: small-worker-g-0, jsonPath: .spec.nodeName, equals: sim-node-0}
                  - fault: {type: cordonNode, name: sim-node-1}
                  - fault: {type: nodeNotReady, name: sim-node-0}
                  - advance: 301s
                  - waitFor: {kind: RayCluster, name: small, jsonPath: .status.readyWorkerReplicas, equals: 1, timeout: 1m}
                  - expect: {kind: Pod, name: small-worker-g-0, jsonPath: .spec.nodeName, matches: "sim-node-[23]"}
                  - expect: {kind: Node, name: sim-node-1, jsonPath: .spec.unschedulable, equals: true}
                  - fault: {type: failPod, name: small-worker-g-0}
                  - expect: {event: {reason: DeletedWorkerPod, kind: RayCluster, name: small}}
                  - apply:
                      apiVersion: ray.io/v1
                      kind: RayJob
                      metadata: {name: long-job, annotations: {sim.kuberay.io/job-duration-seconds: "600"}}
                      spec:
                        entrypoint: python train.py
                        rayClusterSpec:
                          headGroupSpec:
                            rayStartParams: {}
                            template: {spec: {containers: [{name: ray-head, image: rayproject/ray:2.9.0}]}}
                  - waitFor: {kind: RayJob, name: long-job, jsonPath: .status.jobStatus, equals: RUNNING, timeout: 1m}
                  - fault: {type: failRayJob, name: long-job}
                  - waitFor: {kind: RayJob, name: long-job, jsonPath: .status.jobDeploymentStatus, equals: Failed, timeout: 10s}
                  - expect: {kind: RayJob, name: long-job, jsonPath: .status.reason, equals: AppFailed}
                  - fault: {type: failRayJob, name: long-job}
                """).toString());
        assertThat(o.out()).contains("updated RayJob long-job status deployment=Failed job=FAILED");
        assertThat(o.out()).contains("step 17 (line 46) FAILED: RayJob default/long-job has no running Ray job to fail "
                + "(jobDeploymentStatus Failed)");
        assertThat(o.out()).contains("Scenario faults: FAILED (5 expectations, 0 failed, stopped at step 17;");
        assertThat(o.code()).isEqualTo(1);
    }

    @Test
    void takesSpringBootRunsCommaSeparatedArguments() {
        assertThat(RunCommand.isRun(new String[] {"run,scenarios/seed-demo.yaml"})).isTrue();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8)) {
            code = RunCommand.run(new String[] {"run,scenarios/seed-demo.yaml"}, o, o);
        }
        assertThat(code).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("Scenario seed-demo: PASSED");
    }
}
