package io.kuberaysim.scenario;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where an {@code apply: {file: ...}} path is read from: relative to the scenario file's folder on disk, or to its
 * folder in the jar (scenarios and {@code http-examples/} keep the repository's layout in the jar, so
 * {@code ../http-examples/example-cluster.yaml} works in both).
 */
public interface ScenarioFiles {
    /** The file's text, or empty when there is no such file. */
    Optional<String> read(String path);

    /** Files next to a scenario file on disk. */
    static ScenarioFiles directory(Path dir) {
        return path -> {
            Path p = dir.resolve(path).normalize();
            try {
                return Files.isRegularFile(p) ? Optional.of(Files.readString(p, StandardCharsets.UTF_8))
                        : Optional.empty();
            } catch (IOException e) {
                return Optional.empty();
            }
        };
    }

    /** YAML files in the jar, relative to the classpath folder {@code folder} (e.g. {@code scenarios}). */
    static ScenarioFiles classpath(String folder) {
        return path -> {
            if (!(path.endsWith(".yaml") || path.endsWith(".yml"))) {
                return Optional.empty();
            }
            String resolved = URI.create("x:/" + folder + "/").resolve(path).normalize().getPath().substring(1);
            if (resolved.startsWith("../") || resolved.startsWith("/")) {
                return Optional.empty();
            }
            try (InputStream in = ScenarioFiles.class.getClassLoader().getResourceAsStream(resolved)) {
                return in == null ? Optional.empty()
                        : Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                return Optional.empty();
            }
        };
    }
}
