package io.kuberaysim;

import io.kuberaysim.config.ServerComponents;
import io.kuberaysim.demo.DemoCommand;
import io.kuberaysim.scenario.RunCommand;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

import java.net.URL;

/**
 * Entry point: a Kubernetes API server with the KubeRay operator and a simulated cluster inside.
 * With the argument {@code demo} it runs the seed's scenario on the virtual clock and exits; with
 * {@code run <scenario.yaml>} it runs a scenario file the same way and exits 0, 1 or 2.
 * <p>
 * {@code @SpringBootApplication} without its component scan: the components are listed in {@link ServerComponents}.
 * <p>
 * Started from the packaged jar, the server uses the bean definitions Spring's ahead-of-time processing generated
 * when the jar was built ({@code process-aot} in pom.xml) instead of parsing the configuration classes and
 * evaluating their conditions at every start (README "Quick start"; BENCHMARKS.md, start).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(ServerComponents.class)
public class KuberaySimApplication {
    /** Spring's switch for the generated bean definitions (read by {@code AotDetector}). */
    static final String AOT_ENABLED = "spring.aot.enabled";

    public static void main(String[] args) {
        if (DemoCommand.isDemo(args)) {
            System.exit(DemoCommand.run(System.out));
        }
        if (RunCommand.isRun(args)) {
            RunCommand.quietLogging();
            System.exit(RunCommand.run(args, System.out, System.err));
        }
        useAheadOfTimeDefinitionsWhenPackaged();
        SpringApplication.run(KuberaySimApplication.class, args);
    }

    /**
     * Turns on the generated bean definitions when this class was loaded from a jar that holds them: the build made
     * both in one {@code package}, so they describe these classes. Not from a class directory ({@code ./mvnw
     * spring-boot:run}, an IDE, the tests): {@code target/classes} keeps the last package's generated classes while
     * the sources change. {@code -Dspring.aot.enabled=false} keeps them off; the generated definitions fix what
     * Spring Boot's own conditions chose at build time (e.g. {@code spring.main.web-application-type},
     * {@code springdoc.*.enabled}), while every setting README lists ({@code kuberay-sim.*}, {@code server.port},
     * {@code server.address}, {@code server.ssl.*}) is read when the server starts.
     */
    static void useAheadOfTimeDefinitionsWhenPackaged() {
        if (System.getProperty(AOT_ENABLED) != null) {
            return;
        }
        URL initializer = KuberaySimApplication.class.getResource(
                KuberaySimApplication.class.getSimpleName() + "__ApplicationContextInitializer.class");
        if (initializer != null && "jar".equals(initializer.getProtocol())) {
            System.setProperty(AOT_ENABLED, "true");
        }
    }
}
