package io.kuberaysim.security;

import io.kuberaysim.KuberaySimApplication;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Unusable security settings stop the start with Spring Boot's short failure report, one clear message and no
 * stack trace, before the server listens.
 */
@ExtendWith(OutputCaptureExtension.class)
class SecuritySettingsStartupIT {
    @TempDir
    static Path dir;

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "--kuberay-sim.auth.token=| kuberay-sim.auth.token is set but empty.",
            "--kuberay-sim.auth.token-file=BAD_FILE| BAD_FILE: line 1 has 2 columns",
            "--kuberay-sim.auth.token-file=MISSING_FILE| MISSING_FILE is not a readable file.",
            "--server.ssl.certificate=file:MISSING_FILE.crt --server.ssl.certificate-private-key=file:MISSING_FILE.key"
                    + "| The TLS settings (server.ssl.*) do not load: ",
            "--server.ssl.certificate=file:BAD_FILE --server.ssl.certificate-private-key=file:BAD_FILE"
                    + "| The TLS settings (server.ssl.*) do not load: ",
            "--server.ssl.key-store=file:MISSING_FILE.p12 --server.ssl.key-store-password=x"
                    + "| The TLS settings (server.ssl.*) do not load: "})
    void badSettingsStopTheStartWithOneMessage(String args, String message, CapturedOutput output) throws IOException {
        Path bad = Files.writeString(dir.resolve("bad.csv"), "only-token,user\n");
        String missing = dir.resolve("missing").toString();
        String[] argv = (args.replace("BAD_FILE", bad.toString()).replace("MISSING_FILE", missing)
                + " --server.port=0 --kuberay-sim.controllers=false").split(" ");

        assertThatThrownBy(() -> new SpringApplicationBuilder(KuberaySimApplication.class).run(argv))
                .isInstanceOf(InvalidSecuritySettingsException.class);
        String expected = message.trim().replace("BAD_FILE", bad.toString()).replace("MISSING_FILE", missing);
        assertThat(output).contains("APPLICATION FAILED TO START", expected, "Action:")
                .doesNotContain("Tomcat started", "\tat io.kuberaysim", "\tat org.springframework");
    }

    /** A kubeconfig that cannot be written stops the server: a CI script waiting for the file would wait forever. */
    @Test
    void anUnwritableKubeconfigStopsTheServer(CapturedOutput output) throws IOException {
        Path file = Files.writeString(dir.resolve("a-file"), "not a directory");
        String[] argv = {"--kuberay-sim.kubeconfig-out=" + file.resolve("kubeconfig"), "--server.port=0",
                "--kuberay-sim.controllers=false"};

        assertThatThrownBy(() -> new SpringApplicationBuilder(KuberaySimApplication.class).run(argv))
                .isInstanceOf(InvalidSecuritySettingsException.class);
        assertThat(output).contains("APPLICATION FAILED TO START",
                "kuberay-sim.kubeconfig-out " + file.resolve("kubeconfig") + " cannot be written");
    }
}
