package io.kuberaysim.testkit;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.apiserver.registry.PatchType;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import io.kuberaysim.scenario.JsonPathQuery;
import io.kuberaysim.scenario.ObjectRef;
import io.kuberaysim.scenario.Scenario;
import io.kuberaysim.scenario.ScenarioFiles;
import io.kuberaysim.scenario.ScenarioReader;
import io.kuberaysim.scenario.ScenarioResult;
import io.kuberaysim.scenario.ScenarioTarget;
import io.kuberaysim.scenario.seeds.CheckedRun;
import io.kuberaysim.scenario.seeds.InvariantWatch;
import io.kuberaysim.sim.UntilIdle;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * A test's simulator, injected by {@link KubeRaySimExtension}: an in-process client of the API, the clock
 * ({@link #advance}, {@link #runUntilIdle}), waits in virtual time ({@link #awaitCondition}, {@link #await},
 * {@link #awaitJsonPath}), scenario files ({@link #run}), and with {@code server = true} the base URL, a kubeconfig
 * and a fabric8 client for code under test that talks HTTP.
 */
public final class KubeRaySim {
    private static final String NAMESPACE = "default";

    private final SimulatorBackend backend;
    private final Instant start;
    /** A KubernetesClient, typed loosely so this class loads without fabric8 on the class path. */
    private AutoCloseable fabric8;

    KubeRaySim(SimulatorBackend backend) {
        this.backend = backend;
        this.start = backend.clock().now();
    }

    /** A client of the API in process: same validation, defaults and events as HTTP, no serialisation. */
    public KubeClient client() {
        return backend.client();
    }

    /** The base URL of the server ({@code http://127.0.0.1:PORT}). Needs {@code server = true}. */
    public String baseUrl() {
        return requireServer(backend.baseUrl());
    }

    /** A kubeconfig for the server (kubectl, client-go, the Kubernetes Python client). Needs {@code server = true}. */
    public Path kubeconfig() {
        return requireServer(backend.kubeconfig());
    }

    /**
     * A fabric8 client of the server, closed with the simulator. Needs {@code server = true} and fabric8's
     * {@code kubernetes-client} on the test class path.
     */
    public synchronized KubernetesClient fabric8() {
        if (fabric8 == null) {
            fabric8 = Fabric8Clients.fromKubeconfig(kubeconfig());
        }
        return (KubernetesClient) fabric8;
    }

    /** The virtual clock. */
    public VirtualClock clock() {
        if (backend.clock() instanceof VirtualClock v) {
            return v;
        }
        throw new IllegalStateException("the simulator runs on the wall clock; use clock = \"virtual\" to move time");
    }

    /** Virtual time since the simulator started. */
    public Duration elapsed() {
        return Duration.between(start, backend.clock().now());
    }

    /** Runs everything due now to quiescence; time does not move. */
    public void settle() {
        clock().awaitIdle();
    }

    /** Moves virtual time, firing every timer due meanwhile, each to quiescence. */
    public void advance(Duration d) {
        clock().advance(d);
    }

    /**
     * Runs the cluster from timer to timer until it is idle: nothing written for 30 s of virtual time (periodic
     * resyncs aside), at most one hour (as {@code POST /sim/v1/clock/settle}).
     */
    public void runUntilIdle() {
        UntilIdle.run(clock(), client().registry().store());
    }

    /**
     * Runs the cluster from timer to timer until {@code condition} holds, at most {@code timeout} of virtual time.
     *
     * @throws AssertionError when it does not hold in time
     */
    public void awaitCondition(BooleanSupplier condition, Duration timeout) {
        if (!holdsWithin(condition, timeout)) {
            throw new AssertionError("condition not met within " + timeout.toMillis() / 1000.0 + " s of virtual time");
        }
    }

    /**
     * Waits (in virtual time) until the object of {@code kind} ({@code RayCluster}, {@code pods}, ...) named
     * {@code name} in namespace {@code default} exists and passes {@code test}; returns it.
     *
     * @throws AssertionError with the object's last state when it does not in time
     */
    public JsonNode await(String kind, String name, Predicate<JsonNode> test, Duration timeout) {
        ResourceType type = type(kind);
        String ns = type.namespaced() ? NAMESPACE : null;
        if (!holdsWithin(() -> {
            StoredObject o = client().get(type, ns, name);
            return o != null && test.test(o.object());
        }, timeout)) {
            StoredObject o = client().get(type, ns, name);
            throw new AssertionError(type.kind() + " " + name + " did not reach the expected state within "
                    + timeout.toMillis() / 1000.0 + " s of virtual time; last seen: "
                    + (o == null ? "absent" : o.object().path("status").toString()));
        }
        return client().get(type, ns, name).object();
    }

    /**
     * Waits until a JSONPath ({@code .status.state}, {@code $.status.conditions[?(@.type=='Ready')].status}) of the
     * object selects a value whose text is {@code expected}.
     */
    public JsonNode awaitJsonPath(String kind, String name, String jsonPath, String expected, Duration timeout) {
        JsonPathQuery path = JsonPathQuery.compile(jsonPath);
        return await(kind, name, o -> path.read(o).stream().anyMatch(v -> v != null
                && Objects.equals(JsonPathQuery.render(v), expected)), timeout);
    }

    /** Creates (or, when they exist, server-side applies) every object of a YAML text, then settles. */
    public List<StoredObject> apply(String yaml) {
        List<StoredObject> out = new ArrayList<>();
        try (var it = Json.YAML.readerFor(JsonNode.class).<JsonNode>readValues(yaml)) {
            while (it.hasNext()) {
                JsonNode doc = it.next();
                if (doc instanceof ObjectNode o) {
                    out.add(applyOne(o));
                }
            }
        } catch (tools.jackson.core.JacksonException e) {
            throw new IllegalArgumentException("not YAML: " + e.getOriginalMessage(), e);
        }
        if (backend.clock() instanceof VirtualClock v) {
            v.awaitIdle();
        }
        return out;
    }

    /** The object, or empty. */
    public Optional<JsonNode> get(String kind, String name) {
        ResourceType type = type(kind);
        StoredObject o = client().get(type, type.namespaced() ? NAMESPACE : null, name);
        return Optional.ofNullable(o).map(StoredObject::object);
    }

    /**
     * Runs a scenario file against this simulator (its {@code settings} aside, which are the test's), with KubeRay's
     * invariants checked during the run as {@code run} checks them.
     */
    public ScenarioResult run(Path scenarioFile) {
        String text;
        try {
            text = Files.readString(scenarioFile, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path dir = scenarioFile.toAbsolutePath().getParent();
        CheckedRun runs = new CheckedRun(new InvariantWatch());
        Scenario scenario = new ScenarioReader(runs.stepKinds()).read(text, scenarioFile.getFileName().toString(),
                ScenarioFiles.directory(dir));
        return runs.runOn(scenario, new ScenarioTarget(client(), clock(), backend.cluster()),
                client().registry().store(), clock(), line -> { });
    }

    private StoredObject applyOne(ObjectNode o) {
        String kind = Json.text(o, "kind");
        String name = Json.text(o, "metadata", "name");
        ResourceType type = type(kind == null ? "" : kind);
        String ns = type.namespaced() ? Optional.ofNullable(Json.text(o, "metadata", "namespace")).orElse(NAMESPACE)
                : null;
        KubeClient c = client().as("kuberay-sim-test");
        if (name != null && c.get(type, ns, name) != null) {
            return c.patch(type, ns, name, PatchType.APPLY, o);
        }
        return c.create(type, ns, o);
    }

    private boolean holdsWithin(BooleanSupplier condition, Duration timeout) {
        VirtualClock clock = clock();
        Instant deadline = clock.now().plus(timeout);
        while (true) {
            clock.awaitIdle();
            if (condition.getAsBoolean()) {
                return true;
            }
            Optional<Instant> next = clock.nextTimer();
            if (next.isEmpty() || next.get().isAfter(deadline)) {
                if (clock.now().isBefore(deadline)) {
                    clock.advance(Duration.between(clock.now(), deadline));
                }
                return condition.getAsBoolean();
            }
            clock.advance(Duration.between(clock.now(), next.get()));
        }
    }

    private static ResourceType type(String kind) {
        return ObjectRef.type(kind).orElseThrow(() -> new IllegalArgumentException("unknown kind " + kind));
    }

    private <T> T requireServer(T value) {
        if (value == null) {
            throw new IllegalStateException("no server: use @KubeRaySimTest(server = true) (or "
                    + "KubeRaySimExtension.builder().server(true)) for a base URL, kubeconfig or fabric8 client");
        }
        return value;
    }

    void close() {
        AutoCloseable c;
        synchronized (this) {
            c = fabric8;
            fabric8 = null;
        }
        try {
            if (c != null) {
                c.close();
            }
        } catch (Exception e) {
            // the client's connections die with the server below
        } finally {
            backend.close();
        }
    }
}
