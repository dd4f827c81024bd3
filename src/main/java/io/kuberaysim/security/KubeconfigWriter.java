package io.kuberaysim.security;

import io.kuberaysim.api.Json;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.CertificateEncodingException;
import java.util.Base64;

/**
 * Writes a kubeconfig for the running server ({@code kuberay-sim.kubeconfig-out}) with a cluster, user and
 * context named {@code kuberay-sim}: the real URL, the token when authentication is on, the server's trust anchor
 * for TLS, and {@code insecure-skip-tls-verify} for plain HTTP (which @kubernetes/client-node 1.x requires before
 * it talks to an {@code http://} server; kubectl ignores it there). The file is readable by its owner only and
 * appears whole (written aside, then moved), so a CI script may poll for it.
 */
final class KubeconfigWriter {
    static final String NAME = "kuberay-sim";

    private KubeconfigWriter() {
    }

    static void write(Path path, ServerEndpoint endpoint, String token) {
        try {
            Path dir = path.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, ".kubeconfig", ".tmp");
            try {
                if (Files.getFileStore(tmp).supportsFileAttributeView("posix")) {
                    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
                }
                Files.writeString(tmp, render(endpoint, token), StandardCharsets.UTF_8);
                try {
                    Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException | RuntimeException e) {
            throw new InvalidSecuritySettingsException("kuberay-sim.kubeconfig-out " + path + " cannot be written: "
                    + e, "Point kuberay-sim.kubeconfig-out at a writable path, or remove it.", e);
        }
    }

    static String render(ServerEndpoint endpoint, String token) {
        ObjectNode config = Json.object();
        config.put("apiVersion", "v1");
        config.put("kind", "Config");
        ObjectNode cluster = config.putArray("clusters").addObject().put("name", NAME).putObject("cluster");
        cluster.put("server", endpoint.url());
        if (endpoint.trustAnchor() != null) {
            cluster.put("certificate-authority-data", Base64.getEncoder().encodeToString(
                    pem(endpoint).getBytes(StandardCharsets.US_ASCII)));
        } else if (!endpoint.tls()) {
            cluster.put("insecure-skip-tls-verify", true);
        }
        ObjectNode context = config.putArray("contexts").addObject().put("name", NAME).putObject("context");
        context.put("cluster", NAME).put("namespace", "default").put("user", NAME);
        config.put("current-context", NAME);
        ObjectNode user = config.putArray("users").addObject().put("name", NAME).putObject("user");
        if (token != null) {
            user.put("token", token);
        }
        return "# kubeconfig for the kuberay-sim server at " + endpoint.url() + ", written at start\n"
                + Json.YAML.writeValueAsString(config).replaceFirst("^---\\s*\\n", "");
    }

    private static String pem(ServerEndpoint endpoint) {
        try {
            return "-----BEGIN CERTIFICATE-----\n"
                    + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                    .encodeToString(endpoint.trustAnchor().getEncoded())
                    + "\n-----END CERTIFICATE-----\n";
        } catch (CertificateEncodingException e) {
            throw new IllegalStateException("the server's certificate cannot be encoded", e);
        }
    }
}
