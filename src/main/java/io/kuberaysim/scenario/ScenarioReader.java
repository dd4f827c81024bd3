package io.kuberaysim.scenario;

import io.kuberaysim.sim.SimulationSettings;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a scenario file: {@code name}, {@code description}, {@code settings} and {@code steps}, each step a map with
 * one step kind's key (see {@link StepKinds}) and optionally {@code at} and {@code description}. Every error is a
 * {@link ScenarioException} naming the line and the field (and the step's index), never a parser's stack trace.
 */
public final class ScenarioReader {
    private static final Set<String> TOP = StepSource.fields("name", "description", "settings", "steps");
    private static final Set<String> SETTINGS = StepSource.fields("nodes", "kubelet", "seed", "namespace");
    private static final Set<String> NODES = StepSource.fields("count", "cpu", "memory", "pods", "gpuCount",
            "gpusPerNode");
    private static final Set<String> KUBELET = StepSource.fields("startup", "termination");
    private static final Set<String> ENVELOPE = Set.of("at", "description");

    private final StepKinds kinds;

    public ScenarioReader(StepKinds kinds) {
        this.kinds = kinds;
    }

    /** A reader of the built-in step kinds. */
    public ScenarioReader() {
        this(StepKinds.defaults());
    }

    /**
     * @param text         the YAML
     * @param defaultName  the name when the file has none (its file name)
     * @param files        where {@code apply: {file: ...}} paths are read from
     */
    public Scenario read(String text, String defaultName, ScenarioFiles files) {
        LocatedYaml doc = LocatedYaml.read(text);
        if (!doc.root().isObject()) {
            throw new ScenarioException(1, null, "a scenario is a map with name, settings and steps; got "
                    + StepSource.describe(doc.root()));
        }
        for (Map.Entry<String, JsonNode> e : doc.root().properties()) {
            if (!TOP.contains(e.getKey())) {
                throw new ScenarioException(doc.line("/" + e.getKey()), e.getKey(),
                        "unknown field; expected one of " + String.join(", ", TOP));
            }
        }
        String name = text(doc, "name").orElse(defaultName);
        String description = text(doc, "description").orElse("");
        ScenarioSettings settings = settings(top(doc, files, "settings"));
        String namespace = settings.namespace();
        JsonNode steps = doc.root().get("steps");
        if (steps == null || steps.isNull()) {
            throw new ScenarioException(1, "steps", "missing required field: a scenario needs a list of steps");
        }
        if (!steps.isArray() || steps.isEmpty()) {
            throw new ScenarioException(doc.line("/steps"), "steps", "must be a non-empty list of steps");
        }
        List<Scenario.ScenarioStep> out = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            out.add(step(new StepSource(doc, "/steps/" + i, "steps[" + i + "]", i + 1, files, namespace)));
        }
        return new Scenario(name, description, settings, List.copyOf(out));
    }

    private Scenario.ScenarioStep step(StepSource s) {
        JsonNode n = s.node();
        if (!n.isObject()) {
            throw s.error("a step is a map with one of " + String.join(", ", kinds.all().keySet()) + "; got "
                    + StepSource.describe(n));
        }
        String kindName = null;
        for (Map.Entry<String, JsonNode> e : n.properties()) {
            if (ENVELOPE.contains(e.getKey())) {
                continue;
            }
            if (kinds.find(e.getKey()).isEmpty()) {
                throw s.field(e.getKey()).error("unknown step type \"" + e.getKey() + "\"; known: "
                        + String.join(", ", kinds.all().keySet()) + " (and at, description)");
            }
            if (kindName != null) {
                throw s.field(e.getKey()).error("a step has one type; this one already is \"" + kindName + "\"");
            }
            kindName = e.getKey();
        }
        if (kindName == null) {
            throw s.error("a step needs one of " + String.join(", ", kinds.all().keySet()));
        }
        Duration at = s.has("at") ? s.field("at").asDuration() : null;
        StepSource value = s.field(kindName);
        Step step = kinds.find(kindName).orElseThrow().parse(value);
        return new Scenario.ScenarioStep(s.step(), s.line(), at, kindName, step);
    }

    private ScenarioSettings settings(StepSource s) {
        ScenarioSettings d = ScenarioSettings.defaults();
        JsonNode n = s.node();
        if (n == null || n.isMissingNode() || n.isNull()) {
            return d;
        }
        s.object(SETTINGS);
        SimulationSettings sim = d.simulation();
        int count = sim.nodeCount();
        String cpu = sim.nodeCpu();
        String memory = sim.nodeMemory();
        int pods = sim.nodePods();
        int gpuCount = sim.gpuNodeCount();
        int gpusPerNode = sim.gpusPerNode();
        if (s.has("nodes")) {
            StepSource nodes = s.field("nodes");
            nodes.object(NODES);
            count = integer(nodes, "count", count, 0, 1000);
            cpu = nodes.optionalText("cpu").orElse(cpu);
            memory = nodes.optionalText("memory").orElse(memory);
            pods = integer(nodes, "pods", pods, 1, 10_000);
            gpuCount = integer(nodes, "gpuCount", gpuCount, 0, 1000);
            gpusPerNode = integer(nodes, "gpusPerNode", gpusPerNode, 0, 64);
        }
        Duration startup = sim.startup();
        Duration termination = sim.termination();
        if (s.has("kubelet")) {
            StepSource kubelet = s.field("kubelet");
            kubelet.object(KUBELET);
            startup = kubelet.duration("startup", startup);
            termination = kubelet.duration("termination", termination);
        }
        long seed = d.seed();
        if (s.has("seed")) {
            JsonNode v = s.node().get("seed");
            if (!v.canConvertToLong()) {
                throw s.field("seed").error("must be a whole number; got " + StepSource.describe(v));
            }
            seed = v.asLong();
        }
        String namespace = s.optionalText("namespace").orElse(d.namespace());
        return new ScenarioSettings(new SimulationSettings(count, cpu, memory, pods, gpuCount, gpusPerNode, startup,
                termination), seed, namespace);
    }

    private static int integer(StepSource s, String field, int dflt, int min, int max) {
        if (!s.has(field)) {
            return dflt;
        }
        JsonNode v = s.node().get(field);
        if (!v.isIntegralNumber() || v.asLong() < min || v.asLong() > max) {
            throw s.field(field).error("must be a whole number from " + min + " to " + max + "; got "
                    + StepSource.describe(v));
        }
        return v.asInt();
    }

    private static StepSource top(LocatedYaml doc, ScenarioFiles files, String field) {
        return new StepSource(doc, "/" + field, field, 0, files, null);
    }

    private static java.util.Optional<String> text(LocatedYaml doc, String field) {
        JsonNode v = doc.root().get(field);
        if (v == null || v.isNull()) {
            return java.util.Optional.empty();
        }
        if (!v.isValueNode()) {
            throw new ScenarioException(doc.line("/" + field), field, "must be a text");
        }
        return java.util.Optional.of(v.asString());
    }
}
