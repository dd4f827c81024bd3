package io.kuberaysim.testkit;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Builds a fabric8 client from the server's kubeconfig; loaded only when a test asks for one. */
final class Fabric8Clients {
    private Fabric8Clients() {
    }

    static KubernetesClient fromKubeconfig(Path kubeconfig) {
        try {
            Config config = Config.fromKubeconfig(Files.readString(kubeconfig, StandardCharsets.UTF_8));
            return new KubernetesClientBuilder().withConfig(config).build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
