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

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Scenario 4, the seed demo: the scenario's wall time in process (a fresh control plane each round, timed from
 * the first write to the end; target ≤ 100 ms), and the whole {@code demo} command in a fresh JVM, in each
 * {@link LaunchForm} (alternating within a round).
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
        int rounds = Math.max(1, cfg.rounds());
        List<LaunchForm> forms = LaunchForm.available();
        Map<LaunchForm, List<Double>> seconds = new LinkedHashMap<>();
        forms.forEach(f -> seconds.put(f, new ArrayList<>()));
        try {
            for (int i = 0; i < rounds; i++) {
                for (int k = 0; k < forms.size(); k++) {
                    LaunchForm form = forms.get((i + k) % forms.size()); // rotate who goes first
                    long t0 = System.nanoTime();
                    Process p = form.processBuilder("demo").start();
                    if (!p.waitFor(120, TimeUnit.SECONDS)) {
                        p.destroyForcibly();
                        report.note("demo: " + form.name() + " demo did not finish within 120 s");
                        return;
                    }
                    if (p.exitValue() != 0) {
                        report.note("demo: " + form.name() + " demo exited with " + p.exitValue());
                        return;
                    }
                    seconds.get(form).add((System.nanoTime() - t0) / 1e9);
                }
            }
        } catch (Exception e) {
            report.note("demo: could not run the demo command: " + e);
            return;
        }
        seconds.forEach((form, list) -> {
            Stats whole = Stats.of(list);
            report.add("demo", "whole `demo` command (fresh JVM, Spring start included), " + form.name(), whole, "s",
                    "≤ 2", whole.median() <= 2);
        });
    }

}
