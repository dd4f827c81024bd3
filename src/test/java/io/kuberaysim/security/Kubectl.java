package io.kuberaysim.security;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs the real kubectl binary with a given kubeconfig and a private discovery cache. */
record Kubectl(Path kubeconfig, Path cacheDir) {
    record Result(int exit, String out, String err) {
        String all() {
            return out + err;
        }
    }

    static boolean installed() {
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

    Result run(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig.toString(),
                "--cache-dir", cacheDir.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().remove("KUBECONFIG");
        Process p = pb.start();
        p.getOutputStream().close();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("kubectl " + String.join(" ", args) + " did not finish");
        }
        return new Result(p.exitValue(), out.get(10, TimeUnit.SECONDS), err.get(10, TimeUnit.SECONDS));
    }

    private static String read(InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
