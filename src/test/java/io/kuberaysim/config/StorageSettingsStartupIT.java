package io.kuberaysim.config;

import io.kuberaysim.KuberaySimApplication;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.net.InetAddress;
import java.net.ServerSocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Storage settings that cannot work stop the start with Spring Boot's short failure report (non-zero exit from
 * {@code main}), one clear message and no stack trace: an unknown storage, etcd with the virtual clock, and etcd
 * not listening where {@code kuberay-sim.etcd.endpoints} says.
 */
@ExtendWith(OutputCaptureExtension.class)
class StorageSettingsStartupIT {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "--kuberay-sim.storage=disk| kuberay-sim.storage=disk is not a storage: use memory or etcd",
            "--kuberay-sim.storage=etcd --kuberay-sim.clock=virtual"
                    + "| kuberay-sim.storage=etcd does not work with kuberay-sim.clock=virtual",
            "--kuberay-sim.storage=etcd --kuberay-sim.etcd.endpoints=http://127.0.0.1:CLOSED_PORT"
                    + " --kuberay-sim.etcd.request-timeout=2s --kuberay-sim.clock=wall"
                    + "| etcd is not reachable at http://127.0.0.1:CLOSED_PORT: etcd at http://127.0.0.1:CLOSED_PORT"})
    void unusableStorageStopsTheStartWithOneMessage(String args, String message, CapturedOutput output)
            throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort(); // free once closed: nothing listens there
        }
        String port = Integer.toString(closed);
        String[] argv = (args.replace("CLOSED_PORT", port) + " --server.port=0 --kuberay-sim.controllers=false")
                .split(" ");

        assertThatThrownBy(() -> new SpringApplicationBuilder(KuberaySimApplication.class).run(argv))
                .hasRootCauseInstanceOf(InvalidStorageSettingsException.class);
        assertThat(output).contains("APPLICATION FAILED TO START", message.trim().replace("CLOSED_PORT", port),
                        "Action:")
                .doesNotContain("Tomcat started", "\tat io.kuberaysim", "\tat org.springframework");
    }
}
