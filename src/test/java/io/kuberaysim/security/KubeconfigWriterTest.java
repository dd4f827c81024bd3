package io.kuberaysim.security;

import io.kuberaysim.api.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;

/** The kubeconfig's cluster entry follows the server: HTTP gets client-node's skip flag, TLS the trust anchor. */
class KubeconfigWriterTest {
    @TempDir
    Path dir;

    @Test
    void plainHttpWithoutToken() {
        JsonNode c = Json.YAML.readTree(KubeconfigWriter.render(
                new ServerEndpoint("http://127.0.0.1:41234", "127.0.0.1", false, null), null));

        assertThat(c.at("/clusters/0/cluster/server").asString()).isEqualTo("http://127.0.0.1:41234");
        assertThat(c.at("/clusters/0/cluster/insecure-skip-tls-verify").asBoolean()).isTrue();
        assertThat(c.at("/users/0/user").isEmpty()).isTrue();
        assertThat(c.at("/current-context").asString()).isEqualTo("kuberay-sim");
        assertThat(c.at("/contexts/0/context/cluster").asString()).isEqualTo("kuberay-sim");
        assertThat(c.at("/contexts/0/context/user").asString()).isEqualTo("kuberay-sim");
    }

    @Test
    void tlsCarriesTheTrustAnchorAndNoSkipFlag() {
        TestCertificates certs = TestCertificates.create(dir);
        JsonNode c = Json.YAML.readTree(KubeconfigWriter.render(
                new ServerEndpoint("https://[::1]:8443", "::1", false, certs.caCertificate()), "tok"));

        assertThat(c.at("/clusters/0/cluster/server").asString()).isEqualTo("https://[::1]:8443");
        assertThat(c.at("/clusters/0/cluster/insecure-skip-tls-verify").isMissingNode()).isTrue();
        String pem = new String(Base64.getDecoder().decode(
                c.at("/clusters/0/cluster/certificate-authority-data").asString()));
        assertThat(pem).startsWith("-----BEGIN CERTIFICATE-----\n").endsWith("-----END CERTIFICATE-----\n");
        assertThat(c.at("/users/0/user/token").asString()).isEqualTo("tok");
    }

    @Test
    void writesWholeFilesReadableByTheOwnerOnlyAndReplacesOldOnes() throws Exception {
        Path target = dir.resolve("nested/dir/kc");
        ServerEndpoint endpoint = new ServerEndpoint("http://127.0.0.1:1", "127.0.0.1", false, null);
        KubeconfigWriter.write(target, endpoint, null);
        KubeconfigWriter.write(target, new ServerEndpoint("http://127.0.0.1:2", "127.0.0.1", false, null), null);

        assertThat(Files.readString(target)).contains("http://127.0.0.1:2").doesNotContain("127.0.0.1:1\"");
        try (var files = Files.list(target.getParent())) {
            assertThat(files).containsExactly(target);
        }
    }
}
