package io.kuberaysim.demo;

import io.kuberaysim.config.SimProperties;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import io.kuberaysim.embedded.EmbeddedSimulator;
import io.kuberaysim.scenario.RunCommand;

import java.io.PrintStream;

/**
 * {@code java -jar kuberay-sim.jar demo}: the whole control plane in process on the virtual clock, without
 * opening a port; prints the seed's timeline and result and returns. It runs on an {@link EmbeddedSimulator} (the
 * application's composition without Spring), so the command costs a JVM start and the scenario, not a Spring
 * context: the output is the same as with the server's defaults on the virtual clock.
 */
public final class DemoCommand {
    private DemoCommand() {
    }

    public static boolean isDemo(String[] args) {
        return args.length > 0 && args[0].equals("demo");
    }

    /** Runs the demo with the application's defaults on the virtual clock, printing to {@code out}; the exit code. */
    public static int run(PrintStream out) {
        RunCommand.quietLogging();
        try (EmbeddedSimulator sim = EmbeddedSimulator.start(SimProperties.defaults("virtual", null))) {
            VirtualClock clock = sim.virtualClock();
            DemoScenario scenario = new DemoScenario(sim.client(), clock);
            long started = System.nanoTime();
            DemoScenario.Result result;
            Timeline timeline = new Timeline(sim.store(), clock);
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
