package io.kuberaysim.scenario;

import io.kuberaysim.api.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A step's value as a {@link StepKind} parses it: the YAML node with its location, and readers of required and
 * optional fields whose errors name the step index, the line and the field.
 */
public final class StepSource {
    private final LocatedYaml doc;
    private final String pointer;
    private final String path;
    private final int step;
    private final ScenarioFiles files;
    private final String namespace;

    StepSource(LocatedYaml doc, String pointer, String path, int step, ScenarioFiles files, String namespace) {
        this.doc = doc;
        this.pointer = pointer;
        this.path = path;
        this.step = step;
        this.files = files;
        this.namespace = namespace;
    }

    /** The scenario's namespace, for objects that name none. */
    public String namespace() {
        return namespace;
    }

    /** The value under the step kind's key. */
    public JsonNode node() {
        return doc.root().at(pointer);
    }

    /** 1-based index of the step. */
    public int step() {
        return step;
    }

    /** The line this value starts on. */
    public int line() {
        return doc.line(pointer);
    }

    /** The field path of this value, e.g. {@code steps[3].waitFor}. */
    public String path() {
        return path;
    }

    /** The source of a field of this (object) value. */
    public StepSource field(String name) {
        return new StepSource(doc, pointer + "/" + name.replace("~", "~0").replace("/", "~1"), path + "." + name, step,
                files, namespace);
    }

    /** The source of an element of this (array) value. */
    public StepSource element(int index) {
        return new StepSource(doc, pointer + "/" + index, path + "[" + index + "]", step, files, namespace);
    }

    public boolean has(String name) {
        JsonNode n = node();
        return n != null && n.isObject() && n.has(name) && !n.get(name).isNull();
    }

    /** A bad value here. */
    public ScenarioException error(String message) {
        return new ScenarioException(line(), path, step == 0 ? null : step, message);
    }

    /** This value must be an object with only these fields. */
    public ObjectNode object(Collection<String> allowed) {
        JsonNode n = node();
        if (n == null || !n.isObject()) {
            throw error("must be a map with " + String.join(", ", allowed) + "; got " + describe(n));
        }
        for (Map.Entry<String, JsonNode> e : n.properties()) {
            if (!allowed.contains(e.getKey())) {
                throw field(e.getKey()).error("unknown field; expected one of " + String.join(", ", allowed));
            }
        }
        return (ObjectNode) n;
    }

    /** A required text (a number or boolean is taken as its text, as YAML authors expect). */
    public String text(String name) {
        return optionalText(name).orElseThrow(() -> error("missing required field \"" + name + "\""));
    }

    public Optional<String> optionalText(String name) {
        if (!has(name)) {
            return Optional.empty();
        }
        JsonNode v = node().get(name);
        if (!v.isValueNode()) {
            throw field(name).error("must be a text; got " + describe(v));
        }
        return Optional.of(v.asString());
    }

    private static final Duration MAX_DURATION = Duration.ofDays(366);

    /** A duration field ({@code 30s}, {@code 1m30s}, a number of seconds), or {@code dflt} when absent. */
    public Duration duration(String name, Duration dflt) {
        Optional<String> t = optionalText(name);
        if (t.isEmpty()) {
            return dflt;
        }
        return field(name).asDuration();
    }

    /** This value as a duration. */
    public Duration asDuration() {
        JsonNode n = node();
        Duration d = n != null && n.isValueNode() ? ScenarioDurations.parse(n.asString()) : null;
        if (d == null) {
            throw error("must be a duration such as 30s, 1m30s, 500ms or a number of seconds; got " + describe(n));
        }
        if (d.compareTo(MAX_DURATION) > 0) {
            // as POST /sim/v1/clock/advance: a longer jump would keep the clock's loop (and a server) busy for hours
            throw error("must be at most 8784h (366 days); got " + describe(n));
        }
        return d;
    }

    /** Reads a manifest file the scenario refers to; every YAML document in it. */
    public List<ObjectNode> manifests(String file) {
        String text = files.read(file).orElseThrow(() -> error("no such manifest file: " + file));
        List<ObjectNode> out = new ArrayList<>();
        try (var it = Json.YAML.readerFor(JsonNode.class).<JsonNode>readValues(text)) {
            while (it.hasNext()) {
                JsonNode doc = it.next();
                if (doc == null || doc.isNull() || doc.isMissingNode()) {
                    continue;
                }
                if (!doc.isObject()) {
                    throw error(file + " holds a document that is not a Kubernetes object");
                }
                out.add((ObjectNode) doc);
            }
        } catch (tools.jackson.core.JacksonException e) {
            throw error(file + " is not valid YAML: " + e.getOriginalMessage());
        }
        if (out.isEmpty()) {
            throw error(file + " holds no object");
        }
        return out;
    }

    /** The source's set of allowed fields, for kinds that take a map: a readable constant. */
    public static Set<String> fields(String... names) {
        return new java.util.LinkedHashSet<>(List.of(names));
    }

    static String describe(JsonNode n) {
        if (n == null || n.isMissingNode() || n.isNull()) {
            return "nothing";
        }
        if (n.isObject()) {
            return "a map";
        }
        if (n.isArray()) {
            return "a list";
        }
        return "\"" + n.asString() + "\"";
    }
}
