package io.kuberaysim.testing;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The real {@code kubectl} binary pointed at a server on a local port, with its own kubeconfig (namespace
 * {@code default}) and discovery cache under a directory of the test.
 */
public final class Kubectl {
    private final Path kubeconfig;
    private final Path cache;

    /** What one kubectl run printed and how it ended. */
    public record Result(int exit, String out, String err) {
        public String all() {
            return out + err;
        }
    }

    public Kubectl(int port, Path dir) {
        this.kubeconfig = dir.resolve("kubeconfig-" + port);
        this.cache = dir.resolve("cache-" + port);
        try {
            Files.writeString(kubeconfig, """
                    apiVersion: v1
                    kind: Config
                    clusters:
                    - name: kuberay-sim
                      cluster:
                        server: http://127.0.0.1:%d
                    contexts:
                    - name: kuberay-sim
                      context:
                        cluster: kuberay-sim
                        namespace: default
                        user: kuberay-sim
                    current-context: kuberay-sim
                    users:
                    - name: kuberay-sim
                      user: {}
                    """.formatted(port));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether kubectl is on PATH (tests skip themselves with a message otherwise). */
    public static boolean installed() {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String d : path.split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(d, "kubectl"))) {
                return true;
            }
        }
        return false;
    }

    private ProcessBuilder command(String... args) {
        List<String> cmd = new ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig.toString(),
                "--cache-dir", cache.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().remove("KUBECONFIG");
        return pb;
    }

    public Result run(String... args) throws Exception {
        return runWithInput(null, args);
    }

    public Result runWithInput(String stdin, String... args) throws Exception {
        Process p = command(args).start();
        if (stdin != null) {
            p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        p.getOutputStream().close();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("kubectl " + String.join(" ", args) + " did not finish");
        }
        return new Result(p.exitValue(), out.get(10, TimeUnit.SECONDS), err.get(10, TimeUnit.SECONDS));
    }

    /** Starts a kubectl that keeps running (get -w, logs -f, delete --wait) and collects its output lines. */
    public Background start(String... args) throws IOException {
        return new Background(command(args).redirectErrorStream(true).start());
    }

    private static String read(InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** A running kubectl: its output lines as they come. */
    public static final class Background implements AutoCloseable {
        public final Process process;
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

        Background(Process process) {
            this.process = process;
            Thread t = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    String l;
                    while ((l = r.readLine()) != null) {
                        lines.add(l);
                    }
                } catch (IOException ignored) {
                    // process ended
                }
            });
            t.setDaemon(true);
            t.start();
        }

        public String awaitLine(String containing) throws InterruptedException {
            List<String> seen = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (System.nanoTime() < deadline) {
                String l = lines.poll(1, TimeUnit.SECONDS);
                if (l != null) {
                    seen.add(l);
                    if (l.contains(containing)) {
                        return l;
                    }
                }
            }
            throw new AssertionError("no line containing '" + containing + "' in " + seen);
        }

        /** Lines printed so far, without waiting. */
        public List<String> linesSoFar() {
            List<String> out = new ArrayList<>();
            lines.drainTo(out);
            return out;
        }

        @Override
        public void close() {
            process.destroy();
        }
    }
}
