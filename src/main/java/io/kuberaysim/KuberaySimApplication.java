package io.kuberaysim;

import io.kuberaysim.demo.DemoCommand;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Entry point: a Kubernetes API server with the KubeRay operator and a simulated cluster inside.
 * With the argument {@code demo} it runs the seed's scenario on the virtual clock and exits.
 */
@SpringBootApplication
public class KuberaySimApplication {
    public static void main(String[] args) {
        if (DemoCommand.isDemo(args)) {
            System.exit(DemoCommand.run(KuberaySimApplication.class, System.out));
        }
        SpringApplication.run(KuberaySimApplication.class, args);
    }
}
