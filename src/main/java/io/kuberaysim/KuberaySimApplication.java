package io.kuberaysim;

import io.kuberaysim.config.ServerComponents;
import io.kuberaysim.demo.DemoCommand;
import io.kuberaysim.scenario.RunCommand;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * Entry point: a Kubernetes API server with the KubeRay operator and a simulated cluster inside.
 * With the argument {@code demo} it runs the seed's scenario on the virtual clock and exits; with
 * {@code run <scenario.yaml>} it runs a scenario file the same way and exits 0, 1 or 2.
 * <p>
 * {@code @SpringBootApplication} without its component scan: the components are listed in {@link ServerComponents}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(ServerComponents.class)
public class KuberaySimApplication {
    public static void main(String[] args) {
        if (DemoCommand.isDemo(args)) {
            System.exit(DemoCommand.run(System.out));
        }
        if (RunCommand.isRun(args)) {
            RunCommand.quietLogging();
            System.exit(RunCommand.run(args, System.out, System.err));
        }
        SpringApplication.run(KuberaySimApplication.class, args);
    }
}
