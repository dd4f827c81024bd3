package io.kuberaysim.testkit;

import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Gives each test an in-process kuberay-sim: an API server with the KubeRay operator and a simulated cluster, on the
 * virtual clock by default. Declare a {@link KubeRaySim} parameter on a test (or {@code @BeforeEach}) method to get
 * it. A fresh simulator per test method by default ({@link #perClass()} shares one across the class). Without
 * {@link #server()} no port is opened and no Spring context starts: a simulator starts in milliseconds.
 *
 * <pre>{@code
 * @KubeRaySimTest(nodes = 2)
 * class MyOperatorClientTest {
 *     @Test
 *     void clusterBecomesReady(KubeRaySim sim) {
 *         sim.apply(Files.readString(Path.of("raycluster.yaml")));
 *         sim.awaitJsonPath("RayCluster", "my-cluster", ".status.state", "ready", Duration.ofMinutes(1));
 *     }
 * }
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(KubeRaySimExtension.class)
public @interface KubeRaySimTest {
    /**
     * {@code virtual} (deterministic, moved by the test) or {@code wall} (real time: the cluster moves by itself, and
     * {@link KubeRaySim#advance}, {@link KubeRaySim#runUntilIdle} and the waits refuse with IllegalStateException).
     */
    String clock() default "virtual";

    /** CPU nodes {@code sim-node-0..n-1}. */
    int nodes() default 4;

    /** CPU capacity of each node. */
    String nodeCpu() default "16";

    /** Memory capacity of each node. */
    String nodeMemory() default "64Gi";

    /** Extra GPU nodes {@code sim-gpu-node-0..n-1}. */
    int gpuNodes() default 0;

    /** {@code nvidia.com/gpu} of each GPU node. */
    int gpusPerNode() default 8;

    /** Seconds from a Pod's binding to Running. */
    double podStartupSeconds() default 2;

    /** Seconds from a graceful Pod delete to its removal. */
    double podTerminationSeconds() default 1;

    /** Seed of generated names, so runs are reproducible. */
    long seed() default 42;

    /** One simulator for the whole class instead of one per test method. */
    boolean perClass() default false;

    /**
     * Also serve the API over HTTP on a free loopback port (a Spring Boot context, about 2-3 s to start), for
     * {@link KubeRaySim#baseUrl()}, {@link KubeRaySim#kubeconfig()} and {@link KubeRaySim#fabric8()}.
     */
    boolean server() default false;
}
