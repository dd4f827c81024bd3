package io.kuberaysim.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The manifests as shipped in {@code http-examples/} (their only copy), so tests exercise exactly what users apply. */
public final class SeedManifests {
    private SeedManifests() {
    }

    /** {@code demo-raycluster} from the seed chapter (1 head, worker group small-wg with 2 replicas). */
    public static String demoRayCluster() {
        return read("demo-raycluster.yaml");
    }

    /** The demo's RayCluster {@code example-cluster}. */
    public static String exampleCluster() {
        return read("example-cluster.yaml");
    }

    /** The demo's RayJob {@code example-job}. */
    public static String exampleJob() {
        return read("example-job.yaml");
    }

    /** The sample RayService. */
    public static String rayService() {
        return read("rayservice.yaml");
    }

    private static String read(String fileName) {
        try {
            return Files.readString(Path.of("http-examples", fileName));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
