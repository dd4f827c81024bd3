package io.kuberaysim.demo;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The seed's demo, pinned line for line: same output on every run, the seed's result keys and values. */
class DemoCommandIT {

    private static String runDemo() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
            assertThat(DemoCommand.run(out)).isZero();
        }
        return buf.toString(StandardCharsets.UTF_8);
    }

    @Test
    void demoOutputIsTheGoldenTimelineAndResult() throws IOException {
        String first = runDemo();
        String golden;
        try (InputStream in = getClass().getResourceAsStream("/demo/expected-output.txt")) {
            golden = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(first).isEqualTo(golden);
        assertThat(first).startsWith("[   0.0s] created head Service example-cluster-head-svc\n"
                + "[   0.0s] created serve Service example-cluster-serve-svc\n"
                + "[   0.0s] created head Pod example-cluster-head\n"
                + "[   0.0s] created worker Pod example-cluster-worker-cpu-workers-0\n"
                + "[   0.0s] created worker Pod example-cluster-worker-cpu-workers-1\n");
        assertThat(first).contains("updated RayCluster example-cluster status ready=2/2 state=ready");
        assertThat(first).contains("""
                Demo result: {
                  "cluster_name": "example-cluster",
                  "final_worker_count": 4,
                  "job_name": "example-job",
                  "job_status": "Complete",
                  "job_cluster_deleted": true,
                """);
    }

    @Test
    void twoRunsPrintTheSameLines() {
        assertThat(runDemo()).isEqualTo(runDemo());
    }
}
