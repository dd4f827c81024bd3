package io.kuberaysim.bench;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs every benchmark scenario at a tiny size so the harness keeps working; the figures mean nothing here. */
class BenchmarkSmokeIT {

    @Test
    @DisplayName("every scenario completes at smoke size and the results table is written")
    void smoke() throws Exception {
        Report report = BenchmarkMain.run(BenchConfig.fromSystemProperties("smoke"));
        Path out = report.write(Path.of("target/bench/smoke-results.md"));
        String md = Files.readString(out);
        System.out.println(md);
        assertThat(md).contains("| Scenario | Figure |");
        assertThat(report.rows()).filteredOn(r -> r.scenario().equals("http")).isNotEmpty()
                .allSatisfy(r -> assertThat(r.value().median()).as(r.figure()).isPositive());
        if (BenchConfig.fromSystemProperties("smoke").runs("metrics")) {
            assertThat(report.rows()).filteredOn(r -> r.scenario().equals("metrics")).hasSize(6)
                    .allSatisfy(r -> assertThat(r.value().median()).as(r.figure()).isPositive());
        }
        if (BenchConfig.fromSystemProperties("smoke").runs("auth")) {
            assertThat(report.rows()).filteredOn(r -> r.scenario().equals("auth")).hasSize(6)
                    .allSatisfy(r -> assertThat(r.value().median()).as(r.figure()).isPositive());
        }
        if (BenchConfig.fromSystemProperties("smoke").runs("growth")) {
            assertThat(report.rows()).filteredOn(r -> r.scenario().equals("growth")).hasSize(3);
        }
        assertThat(md).doesNotContain("failed requests");
    }
}
