package io.kuberaysim.bench;

import io.kuberaysim.KuberaySimApplication;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import io.kuberaysim.demo.DemoScenario;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Scenario 4, the seed demo: the scenario's wall time in process (a fresh control plane each round, timed from
 * the first write to the end; target ≤ 100 ms), and the whole {@code demo} command in a fresh JVM.
 */
final class DemoBenchmark {
    private DemoBenchmark() {
    }

    static void run(BenchConfig cfg, Report report) {
        List<Double> ms = new ArrayList<>();
        try {
            int rounds = cfg.name().equals("smoke") ? 1 : Math.max(1, cfg.rounds());
            for (int i = 0; i < rounds; i++) {
                try (ConfigurableApplicationContext ctx = new SpringApplicationBuilder(KuberaySimApplication.class)
                        .web(WebApplicationType.NONE).bannerMode(Banner.Mode.OFF).logStartupInfo(false)
                        .properties("kuberay-sim.clock=virtual", "kuberay-sim.virtual-speed=0",
                                "kuberay-sim.controllers=true", "logging.level.root=WARN",
                                "springdoc.api-docs.enabled=false", "spring.jmx.enabled=false")
                        .run()) {
                    VirtualClock clock = (VirtualClock) ctx.getBean(Clock.class);
                    clock.awaitIdle();
                    DemoScenario scenario = new DemoScenario(ctx.getBean(KubeClient.class), clock);
                    long t0 = System.nanoTime();
                    scenario.run();
                    ms.add((System.nanoTime() - t0) / 1e6);
                }
            }
        } catch (RuntimeException e) {
            report.note("demo: the scenario did not complete in process (" + e.getMessage()
                    + "); the KubeRay controllers may not have landed yet");
            return;
        }
        Stats s = Stats.of(ms);
        report.add("demo", "seed demo scenario in process (fresh control plane per round)", s, "ms", "≤ 100",
                s.median() <= 100);
        report.add("demo", "first run (cold JIT)", ms.get(0), "ms", null, null);
        if (cfg.name().equals("smoke")) {
            return; // a second JVM costs the normal build more than the check is worth
        }
        try {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                    KuberaySimApplication.class.getName(), "demo")
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
            long t0 = System.nanoTime();
            Process p = pb.start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                report.note("demo: the demo command did not finish within 120 s");
                return;
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            if (p.exitValue() != 0) {
                report.note("demo: the demo command exited with " + p.exitValue());
                return;
            }
            report.add("demo", "whole `demo` command (fresh JVM, Spring start included)", seconds, "s", null, null);
        } catch (Exception e) {
            report.note("demo: could not run the demo command: " + e);
        }
    }

}
