package io.kuberaysim.bench;

import io.kuberaysim.KuberaySimApplication;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.util.ArrayList;
import java.util.List;

/** This server, started as users start it (SpringApplication, embedded Tomcat) on a random loopback port. */
final class SimServer implements AutoCloseable {
    private final ConfigurableApplicationContext context;
    final int port;

    private SimServer(ConfigurableApplicationContext context) {
        this.context = context;
        this.port = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
    }

    /** Starts a server; {@code controllers} switches the KubeRay operator and simulated cluster on or off. */
    static SimServer start(boolean controllers, String... extra) {
        List<String> props = new ArrayList<>(List.of("server.port=0", "server.address=127.0.0.1",
                "kuberay-sim.controllers=" + controllers, "kuberay-sim.clock=virtual",
                "spring.main.banner-mode=off", "spring.jmx.enabled=false", "logging.level.root=WARN"));
        props.addAll(List.of(extra));
        ConfigurableApplicationContext ctx = new SpringApplicationBuilder(KuberaySimApplication.class)
                .properties(props.toArray(String[]::new))
                .run();
        return new SimServer(ctx);
    }

    GenericRegistry registry() {
        return context.getBean(GenericRegistry.class);
    }

    <T> T bean(Class<T> type) {
        return context.getBean(type);
    }

    @Override
    public void close() {
        context.close();
    }
}
