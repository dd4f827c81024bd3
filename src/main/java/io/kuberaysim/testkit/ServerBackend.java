package io.kuberaysim.testkit;

import io.kuberaysim.KuberaySimApplication;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.sim.SimulatedCluster;
import org.springframework.boot.Banner;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The application serving the API on a free loopback port, with the settings of the test; it writes a kubeconfig
 * for itself ({@code kuberay-sim.kubeconfig-out}) into a temporary directory removed on close.
 */
final class ServerBackend implements SimulatorBackend {
    private final ConfigurableApplicationContext context;
    private final Path dir;
    private final Path kubeconfig;
    private final String baseUrl;

    ServerBackend(KubeRaySimSettings settings) {
        try {
            dir = Files.createTempDirectory("kuberay-sim-test");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        kubeconfig = dir.resolve("kubeconfig");
        List<String> args = new ArrayList<>(settings.toArguments());
        args.add("--server.port=0");
        args.add("--server.address=127.0.0.1");
        args.add("--kuberay-sim.kubeconfig-out=" + kubeconfig);
        args.add("--logging.level.root=WARN");
        context = new SpringApplicationBuilder(KuberaySimApplication.class).bannerMode(Banner.Mode.OFF)
                .logStartupInfo(false).run(args.toArray(String[]::new));
        baseUrl = "http://127.0.0.1:" + context.getEnvironment().getProperty("local.server.port");
    }

    @Override
    public KubeClient client() {
        return context.getBean(KubeClient.class);
    }

    @Override
    public Clock clock() {
        return context.getBean(Clock.class);
    }

    @Override
    public SimulatedCluster cluster() {
        return context.getBeanProvider(SimulatedCluster.class).getIfAvailable();
    }

    @Override
    public String baseUrl() {
        return baseUrl;
    }

    @Override
    public Path kubeconfig() {
        return kubeconfig;
    }

    @Override
    public void close() {
        context.close();
        try {
            Files.deleteIfExists(kubeconfig);
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // a leftover temporary file is harmless
        }
    }
}
