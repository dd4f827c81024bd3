package io.kuberaysim.testing;

import io.kuberaysim.KuberaySimApplication;
import io.kuberaysim.api.Json;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * The server in its own JVM (the test's classpath), on a free port, so a test can kill it with SIGKILL as a crash
 * would and start it again. Speaks plain HTTP to it.
 */
public final class ServerProcess implements AutoCloseable {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String name;
    private final int port;
    private final Path log;
    private final Process process;

    private ServerProcess(String name, int port, Path log, Process process) {
        this.name = name;
        this.port = port;
        this.log = log;
        this.process = process;
    }

    /** Starts the server with {@code --name=value} arguments (a free {@code server.port} is added). */
    public static ServerProcess start(String name, List<String> args) {
        return start(name, List.of("-cp", System.getProperty("java.class.path"), KuberaySimApplication.class.getName()),
                args);
    }

    /**
     * Starts the server as {@code java -jar <jar>} starts it, e.g. the packaged jar with its ahead-of-time bean
     * definitions, with {@code --name=value} arguments (a free {@code server.port} is added).
     */
    public static ServerProcess startJar(String name, Path jar, List<String> args) {
        return start(name, List.of("-jar", jar.toString()), args);
    }

    private static ServerProcess start(String name, List<String> launch, List<String> args) {
        try {
            int port;
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = s.getLocalPort();
            }
            Path log = Files.createTempFile("server-" + name + "-", ".log");
            List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xshare:off", "-XX:TieredStopAtLevel=1", "-Xmx384m"));
            cmd.addAll(launch);
            cmd.addAll(List.of("--server.port=" + port, "--server.address=127.0.0.1"));
            cmd.addAll(args);
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            return new ServerProcess(name, port, log, p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return port;
    }

    /** Waits until {@code /readyz} answers 200. */
    public ServerProcess awaitReady(Duration timeout) {
        Awaiting.until(timeout, name + " ready", () -> {
            if (!process.isAlive()) {
                fail(name + " exited with " + process.exitValue() + ":\n" + log());
            }
            return get("/readyz").statusCode() == 200;
        });
        return this;
    }

    /** Waits until the process has exited (e.g. refused its settings) and returns its exit code. */
    public int awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                fail(name + " still running after " + timeout.toSeconds() + "s:\n" + log());
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Kills the JVM at once (SIGKILL): no shutdown hook, no Lease release. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    public JsonNode getJson(String path) {
        HttpResponse<String> r = get(path);
        if (r.statusCode() != 200) {
            fail(name + " GET " + path + " answered " + r.statusCode() + ": " + r.body());
        }
        return Json.MAPPER.readTree(r.body());
    }

    public HttpResponse<String> send(String method, String path, String contentType, String body) {
        return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", contentType)
                .method(method, HttpRequest.BodyPublishers.ofString(body)));
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return HTTP.send(request.timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(name + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Opens a watch and returns its lines as they come (the request ends after {@code timeoutSeconds}). */
    public java.util.stream.Stream<String> watch(String path) {
        try {
            return HTTP.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(60)).GET().build(),
                    HttpResponse.BodyHandlers.ofLines()).body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    public String log() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return e.toString();
        }
    }

    @Override
    public void close() {
        kill();
        try {
            Files.deleteIfExists(log);
        } catch (IOException ignored) {
            // a temporary log left behind is harmless
        }
    }

    /** Polling for conditions that another process brings about on the wall clock. */
    public static final class Awaiting {
        private Awaiting() {
        }

        /** Checks {@code condition} every 100 ms until it holds; fails after {@code timeout}. */
        public static void until(Duration timeout, String what, java.util.function.BooleanSupplier condition) {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                try {
                    if (condition.getAsBoolean()) {
                        return;
                    }
                } catch (UncheckedIOException notYet) {
                    // the server is not listening yet, or went away on purpose
                }
                if (System.nanoTime() > deadline) {
                    fail("timed out after " + timeout.toSeconds() + "s waiting for " + what);
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    fail("interrupted waiting for " + what);
                }
            }
        }
    }
}
