package io.kuberaysim.testkit;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

import java.util.Optional;

/**
 * The JUnit 5 extension behind {@link KubeRaySimTest}: starts a {@link KubeRaySim} before each test method (or once
 * per class with {@code perClass}), injects it into parameters of that type, and closes it afterwards. Use the
 * annotation, or register it with settings of your own:
 *
 * <pre>{@code
 * @RegisterExtension
 * static KubeRaySimExtension sim = KubeRaySimExtension.builder().nodes(2).podStartupSeconds(5).build();
 * }</pre>
 */
public final class KubeRaySimExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback,
        AfterEachCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(KubeRaySimExtension.class);
    private static final String KEY = "simulator";

    private final KubeRaySimSettings fixed;

    /** The extension as {@link KubeRaySimTest} registers it: settings from the annotation. */
    public KubeRaySimExtension() {
        this(null);
    }

    private KubeRaySimExtension(KubeRaySimSettings settings) {
        this.fixed = settings;
    }

    /** Settings for {@code @RegisterExtension}, starting from the annotation's defaults. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        KubeRaySimSettings s = settings(context);
        if (s.perClass()) {
            context.getStore(NAMESPACE).put(KEY, start(s));
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        KubeRaySimSettings s = settings(context);
        if (!s.perClass()) {
            context.getStore(NAMESPACE).put(KEY, start(s));
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        close(context);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == KubeRaySim.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        for (Optional<ExtensionContext> c = Optional.of(context); c.isPresent(); c = c.get().getParent()) {
            KubeRaySim sim = c.get().getStore(NAMESPACE).get(KEY, KubeRaySim.class);
            if (sim != null) {
                return sim;
            }
        }
        throw new ParameterResolutionException("no simulator here: with a simulator per test method, ask for "
                + "KubeRaySim in test or @BeforeEach methods (perClass = true also allows @BeforeAll)");
    }

    private static KubeRaySim start(KubeRaySimSettings s) {
        return new KubeRaySim(s.server() ? new ServerBackend(s) : new InProcessBackend(s));
    }

    private static void close(ExtensionContext context) {
        KubeRaySim sim = context.getStore(NAMESPACE).remove(KEY, KubeRaySim.class);
        if (sim != null) {
            sim.close();
        }
    }

    private KubeRaySimSettings settings(ExtensionContext context) {
        if (fixed != null) {
            return fixed;
        }
        for (Class<?> c = context.getRequiredTestClass(); c != null; c = c.getEnclosingClass()) {
            Optional<KubeRaySimTest> a = AnnotationSupport.findAnnotation(c, KubeRaySimTest.class);
            if (a.isPresent()) {
                return KubeRaySimSettings.of(a.get());
            }
        }
        return KubeRaySimSettings.defaults();
    }

    /** Settings of a registered extension; each defaults to {@link KubeRaySimTest}'s. */
    public static final class Builder {
        private KubeRaySimSettings s = KubeRaySimSettings.defaults();

        private Builder() {
        }

        public Builder clock(String clock) {
            s = new KubeRaySimSettings(clock, s.nodes(), s.nodeCpu(), s.nodeMemory(), s.gpuNodes(), s.gpusPerNode(),
                    s.podStartupSeconds(), s.podTerminationSeconds(), s.seed(), s.perClass(), s.server());
            return this;
        }

        public Builder nodes(int count, String cpu, String memory) {
            s = new KubeRaySimSettings(s.clock(), count, cpu, memory, s.gpuNodes(), s.gpusPerNode(),
                    s.podStartupSeconds(), s.podTerminationSeconds(), s.seed(), s.perClass(), s.server());
            return this;
        }

        public Builder nodes(int count) {
            return nodes(count, s.nodeCpu(), s.nodeMemory());
        }

        public Builder gpuNodes(int count, int gpusPerNode) {
            s = new KubeRaySimSettings(s.clock(), s.nodes(), s.nodeCpu(), s.nodeMemory(), count, gpusPerNode,
                    s.podStartupSeconds(), s.podTerminationSeconds(), s.seed(), s.perClass(), s.server());
            return this;
        }

        public Builder podStartupSeconds(double seconds) {
            s = new KubeRaySimSettings(s.clock(), s.nodes(), s.nodeCpu(), s.nodeMemory(), s.gpuNodes(),
                    s.gpusPerNode(), seconds, s.podTerminationSeconds(), s.seed(), s.perClass(), s.server());
            return this;
        }

        public Builder podTerminationSeconds(double seconds) {
            s = new KubeRaySimSettings(s.clock(), s.nodes(), s.nodeCpu(), s.nodeMemory(), s.gpuNodes(),
                    s.gpusPerNode(), s.podStartupSeconds(), seconds, s.seed(), s.perClass(), s.server());
            return this;
        }

        public Builder seed(long seed) {
            s = new KubeRaySimSettings(s.clock(), s.nodes(), s.nodeCpu(), s.nodeMemory(), s.gpuNodes(),
                    s.gpusPerNode(), s.podStartupSeconds(), s.podTerminationSeconds(), seed, s.perClass(), s.server());
            return this;
        }

        /** One simulator for the whole class. */
        public Builder perClass() {
            s = new KubeRaySimSettings(s.clock(), s.nodes(), s.nodeCpu(), s.nodeMemory(), s.gpuNodes(),
                    s.gpusPerNode(), s.podStartupSeconds(), s.podTerminationSeconds(), s.seed(), true, s.server());
            return this;
        }

        /** Also serve HTTP on a loopback port (base URL, kubeconfig, fabric8). */
        public Builder server(boolean server) {
            s = new KubeRaySimSettings(s.clock(), s.nodes(), s.nodeCpu(), s.nodeMemory(), s.gpuNodes(),
                    s.gpusPerNode(), s.podStartupSeconds(), s.podTerminationSeconds(), s.seed(), s.perClass(), server);
            return this;
        }

        public KubeRaySimExtension build() {
            return new KubeRaySimExtension(s);
        }
    }
}
