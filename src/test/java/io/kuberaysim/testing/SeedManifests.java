package io.kuberaysim.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The seed's manifests as shipped in {@code http-examples/}, so tests exercise exactly what users apply. */
public final class SeedManifests {
    private SeedManifests() {
    }

    /** {@code demo-raycluster} from the seed chapter (1 head, worker group small-wg with 2 replicas). */
    public static String demoRayCluster() {
        try {
            return Files.readString(Path.of("http-examples/demo-raycluster.yaml"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
