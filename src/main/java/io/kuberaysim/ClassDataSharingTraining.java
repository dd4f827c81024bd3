package io.kuberaysim;

import io.kuberaysim.demo.DemoCommand;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.ClassPathResource;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Enumeration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The build's training run for the class data sharing archive (pom.xml, {@code package}; README "Run"): starts the
 * server as {@code java -jar} does, waits until it is ready, sends it the requests a user's first minute sends
 * (version, discovery, health, a missing object, a RayCluster created, listed as kubectl lists it, watched, patched
 * and deleted, {@code /metrics}, the OpenAPI documents, the console), then exits, and the JVM writes the classes all
 * that loaded to the archive. Training only to the end of the context refresh left out what a start still loads
 * after it (Tomcat's connector and request path, the operator and the simulated cluster installed once ready, the
 * first request's dispatch): ~780 classes read from the jars and verified at every start (BENCHMARKS.md, start). A
 * failed request is reported and skipped; a server that does not start fails the build.
 * <p>
 * Before that it runs the {@code demo} command in process (README's other jar command; without it ~445 classes of
 * the scenario runner, YAML and JSON path were read from the jars at every demo), and the server starts as a user's
 * does (banner, startup and request logging; this run's standard output is dropped). The JDK archives a lambda's
 * class only when the nest host of the class that made it was linked by then: Spring's generated
 * {@code __BeanDefinitions} classes are linked first, or the ~75 lambdas their nested classes make at every start
 * would be generated again each time.
 */
public final class ClassDataSharingTraining {
    private static final Duration READY_WITHIN = Duration.ofSeconds(120);
    private static final String RAYCLUSTERS = "/apis/ray.io/v1/namespaces/default/rayclusters";
    private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";

    private ClassDataSharingTraining() {
    }

    public static void main(String[] args) throws Exception {
        linkGeneratedBeanDefinitions();
        PrintStream out = System.out;
        PrintStream err = System.err;
        PrintStream dropped = new PrintStream(OutputStream.nullOutputStream());
        System.setOut(dropped);
        try {
            System.setErr(dropped); // the demo's own timing line
            DemoCommand.run(dropped);
            System.setErr(err);
            // as KuberaySimApplication.main starts the server from the jar; the generated definitions are looked up
            // by the main class's name
            KuberaySimApplication.useAheadOfTimeDefinitionsWhenPackaged();
            ConfigurableApplicationContext context = new SpringApplicationBuilder(KuberaySimApplication.class)
                    .main(KuberaySimApplication.class).run("--server.port=0");
            try {
                String port = context.getEnvironment().getProperty("local.server.port");
                train(HttpClient.newHttpClient(), "http://127.0.0.1:" + port);
            } finally {
                context.close();
            }
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        System.exit(0);
    }

    /**
     * Links every {@code __BeanDefinitions} class of the application's jar (Spring's generated code, no static
     * state), so that the lambdas their nested classes make during the start below are archived.
     */
    private static void linkGeneratedBeanDefinitions() throws IOException, ClassNotFoundException {
        ClassLoader loader = ClassDataSharingTraining.class.getClassLoader();
        File jar = new File(URI.create(ClassDataSharingTraining.class.getProtectionDomain().getCodeSource()
                .getLocation().toString()));
        if (!jar.isFile()) {
            return; // run from a class directory: nothing is archived
        }
        try (JarFile file = new JarFile(jar)) {
            for (Enumeration<JarEntry> entries = file.entries(); entries.hasMoreElements();) {
                String name = entries.nextElement().getName();
                if (name.endsWith("__BeanDefinitions.class")) {
                    Class.forName(name.substring(0, name.length() - ".class".length()).replace('/', '.'), true,
                            loader);
                }
            }
        }
    }

    private static void train(HttpClient http, String base) throws IOException, InterruptedException {
        if (send(http, get(base, "/version")) != 200) {
            // e.g. TLS set in the environment: the archive still holds what the start loaded
            System.err.println("class data sharing training: no 200 from GET /version, requests left out");
            return;
        }
        long deadline = System.nanoTime() + READY_WITHIN.toNanos();
        while (send(http, get(base, "/readyz")) != 200 && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
        }
        for (String path : new String[] {"/healthz", "/livez", "/api", "/apis", "/api/v1", "/apis/ray.io/v1",
                "/api/v1/namespaces", "/api/v1/nodes", "/api/v1/namespaces/default/pods/missing", "/openapi/v3",
                "/openapi/v3/apis/ray.io/v1"}) {
            send(http, get(base, path));
        }
        byte[] manifest;
        try (InputStream in = new ClassPathResource("http-examples/demo-raycluster.yaml").getInputStream()) {
            manifest = in.readAllBytes();
        }
        send(http, to(base, RAYCLUSTERS).header("Content-Type", "application/yaml")
                .POST(HttpRequest.BodyPublishers.ofByteArray(manifest)).build());
        send(http, to(base, RAYCLUSTERS).header("Accept", TABLE).GET().build());
        send(http, get(base, "/api/v1/namespaces/default/pods?watch=true&timeoutSeconds=1"));
        send(http, to(base, RAYCLUSTERS + "/demo-raycluster")
                .header("Content-Type", "application/merge-patch+json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"metadata\":{\"labels\":{\"a\":\"b\"}}}"))
                .build());
        send(http, to(base, RAYCLUSTERS + "/demo-raycluster").DELETE().build());
        for (String path : new String[] {"/api/v1/namespaces/default/events", "/metrics", "/v3/api-docs",
                "/console/", "/console/examples/"}) {
            send(http, get(base, path));
        }
    }

    private static HttpRequest get(String base, String path) {
        return to(base, path).GET().build();
    }

    private static HttpRequest.Builder to(String base, String path) {
        return HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
    }

    /** The answer's status code, the body read and dropped; -1 when none came (the training goes on). */
    private static int send(HttpClient http, HttpRequest request) throws InterruptedException {
        try {
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            System.err.println("class data sharing training: " + request.method() + " " + request.uri() + ": " + e);
            return -1;
        }
    }
}
