package io.kuberaysim.bench;

import io.kuberaysim.KuberaySimApplication;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import org.apache.coyote.AbstractProtocol;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import java.util.Arrays;
import java.util.List;

/** This server, started as users start it (SpringApplication, embedded Tomcat) on a random loopback port. */
final class SimServer implements AutoCloseable {
    private final ConfigurableApplicationContext context;
    final int port;

    private SimServer(ConfigurableApplicationContext context) {
        this.context = context;
        this.port = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
    }

    /**
     * Starts a server; {@code controllers} switches the KubeRay operator and simulated cluster on or off;
     * {@code extra} settings ({@code key=value}) are passed as command-line arguments, so they win over the
     * defaults here and over the test classpath's application.properties (which picks the virtual clock).
     */
    static SimServer start(boolean controllers, String... extra) {
        List<String> props = List.of("server.port=0", "server.address=127.0.0.1",
                "kuberay-sim.controllers=" + controllers, "kuberay-sim.clock=virtual",
                "spring.main.banner-mode=off", "spring.jmx.enabled=false", "logging.level.root=WARN");
        ConfigurableApplicationContext ctx = new SpringApplicationBuilder(KuberaySimApplication.class)
                .properties(props.toArray(String[]::new))
                .run(Arrays.stream(extra).map(e -> "--" + e).toArray(String[]::new));
        return new SimServer(ctx);
    }

    /**
     * The start of the names of this server's Tomcat threads (request executor, poller, acceptor), e.g.
     * {@code http-nio-127.0.0.1-auto-1-}: several servers share this JVM, and the figures per request count only
     * the threads of the server measured. Null when the server is not Tomcat.
     */
    String threadPrefix() {
        if (context instanceof WebServerApplicationContext web && web.getWebServer() instanceof TomcatWebServer tomcat
                && tomcat.getTomcat().getConnector().getProtocolHandler() instanceof AbstractProtocol<?> protocol) {
            // an ObjectName-quoted value, once bound with the port it got: "http-nio-127.0.0.1-auto-1-39239"; the
            // threads were named before that: http-nio-127.0.0.1-auto-1-exec-1
            String name = protocol.getName().replace("\"", "");
            String bound = "-" + port;
            return (name.endsWith(bound) ? name.substring(0, name.length() - bound.length()) : name) + "-";
        }
        return null;
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
