package io.kuberaysim.demo;

import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.PrintStream;

/**
 * {@code java -jar kuberay-sim.jar demo}: the whole control plane in process on the virtual clock, without
 * opening a port; prints the seed's timeline and result and returns.
 */
public final class DemoCommand {
    private DemoCommand() {
    }

    public static boolean isDemo(String[] args) {
        return args.length > 0 && args[0].equals("demo");
    }

    /**
     * Runs the demo on the application whose Spring configuration is {@code application} and prints to {@code out};
     * returns the process exit code.
     */
    public static int run(Class<?> application, PrintStream out) {
        try (ConfigurableApplicationContext ctx = new SpringApplicationBuilder(application)
                .web(WebApplicationType.NONE)
                .bannerMode(Banner.Mode.OFF)
                .logStartupInfo(false)
                // command-line form so these win over application.properties (whose clock is wall)
                .run("--kuberay-sim.clock=virtual", "--kuberay-sim.virtual-speed=0", "--kuberay-sim.controllers=true",
                        "--logging.level.root=WARN", "--springdoc.api-docs.enabled=false")) {
            VirtualClock clock = (VirtualClock) ctx.getBean(Clock.class);
            ObjectStore store = ctx.getBean(ObjectStore.class);
            clock.awaitIdle();
            DemoScenario scenario = new DemoScenario(ctx.getBean(KubeClient.class), clock);
            long started = System.nanoTime();
            DemoScenario.Result result;
            Timeline timeline = new Timeline(store, clock);
            try (timeline) {
                result = scenario.run();
            }
            long wallMicros = (System.nanoTime() - started) / 1000;
            timeline.lines().forEach(out::println);
            out.println("Demo result: " + result.toJson());
            System.err.printf("(scenario wall time: %.1f ms)%n", wallMicros / 1000.0);
            return 0;
        }
    }
}
