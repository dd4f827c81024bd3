package io.kuberaysim;

import org.springframework.boot.Banner;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.ClassPathResource;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The build's training run for the class data sharing archive (pom.xml, {@code package}; README "Run"): starts the
 * server as {@code java -jar} does, waits until it is ready, sends it the requests a user's first minute sends
 * (version, discovery, health, a missing object, a RayCluster created, listed as kubectl lists it, watched, patched
 * and deleted, {@code /metrics}, the OpenAPI documents, the console), then exits, and the JVM writes the classes all
 * that loaded to the archive. Training only to the end of the context refresh left out what a start still loads
 * after it (Tomcat's connector and request path, the operator and the simulated cluster installed once ready, the
 * first request's dispatch): ~780 classes read from the jars and verified at every start (BENCHMARKS.md, start). A
 * failed request is reported and skipped; a server that does not start fails the build.
 */
public final class ClassDataSharingTraining {
    private static final Duration READY_WITHIN = Duration.ofSeconds(120);
    private static final String RAYCLUSTERS = "/apis/ray.io/v1/namespaces/default/rayclusters";
    private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";

    private ClassDataSharingTraining() {
    }

    public static void main(String[] args) throws Exception {
        // as KuberaySimApplication.main starts the server from the jar; the generated definitions are looked up by
        // the main class's name
        KuberaySimApplication.useAheadOfTimeDefinitionsWhenPackaged();
        ConfigurableApplicationContext context = new SpringApplicationBuilder(KuberaySimApplication.class)
                .main(KuberaySimApplication.class).bannerMode(Banner.Mode.OFF).logStartupInfo(false)
                .run("--server.port=0", "--logging.level.root=ERROR");
        try {
            String port = context.getEnvironment().getProperty("local.server.port");
            train(HttpClient.newHttpClient(), "http://127.0.0.1:" + port);
        } finally {
            context.close();
        }
        System.exit(0);
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
