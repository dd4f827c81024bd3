package io.kuberaysim.scenario;

import io.kuberaysim.api.Json;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import java.util.HashMap;
import java.util.Map;

/**
 * A YAML document read into a JSON tree together with the line each value starts on (keyed by JSON Pointer), so a
 * scenario's errors can name the line of the field that is wrong. Built from Jackson's YAML parser token by token,
 * since a tree read in one go keeps no locations.
 */
public final class LocatedYaml {
    private final JsonNode root;
    private final Map<String, Integer> lines;

    private LocatedYaml(JsonNode root, Map<String, Integer> lines) {
        this.root = root;
        this.lines = lines;
    }

    /**
     * Reads one YAML document.
     *
     * @throws ScenarioException with the parser's line when the text is not YAML
     */
    public static LocatedYaml read(String text) {
        Map<String, Integer> lines = new HashMap<>();
        try (JsonParser p = Json.YAML.createParser(text)) {
            JsonToken t = p.nextToken();
            if (t == null) {
                throw ScenarioException.syntax(1, "the scenario is empty");
            }
            JsonNode root = value(p, "", lines);
            if (p.nextToken() != null) {
                throw ScenarioException.syntax(p.currentTokenLocation().getLineNr(),
                        "a scenario is one YAML document; found a second one");
            }
            return new LocatedYaml(root, lines);
        } catch (JacksonException e) {
            int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            throw ScenarioException.syntax(line, "not valid YAML: " + e.getOriginalMessage());
        }
    }

    private static JsonNode value(JsonParser p, String pointer, Map<String, Integer> lines) {
        // a field's key line was recorded already: that is where a reader looks for it
        lines.putIfAbsent(pointer, p.currentTokenLocation().getLineNr());
        JsonNodeFactory f = JsonNodeFactory.instance;
        JsonToken t = p.currentToken();
        switch (t) {
            case START_OBJECT -> {
                ObjectNode o = f.objectNode();
                while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                    String name = p.currentName();
                    String child = pointer + "/" + name.replace("~", "~0").replace("/", "~1");
                    lines.put(child, p.currentTokenLocation().getLineNr());
                    p.nextToken();
                    o.set(name, value(p, child, lines));
                }
                return o;
            }
            case START_ARRAY -> {
                ArrayNode a = f.arrayNode();
                int i = 0;
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    a.add(value(p, pointer + "/" + i++, lines));
                }
                return a;
            }
            case VALUE_STRING -> {
                return f.textNode(p.getString());
            }
            case VALUE_NUMBER_INT -> {
                return p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                        ? f.numberNode(p.getBigIntegerValue()) : f.numberNode(p.getLongValue());
            }
            case VALUE_NUMBER_FLOAT -> {
                return f.numberNode(p.getDoubleValue());
            }
            case VALUE_TRUE, VALUE_FALSE -> {
                return f.booleanNode(t == JsonToken.VALUE_TRUE);
            }
            case VALUE_NULL -> {
                return f.nullNode();
            }
            default -> throw new ScenarioException(p.currentTokenLocation().getLineNr(), null,
                    "unexpected YAML token " + t);
        }
    }

    public JsonNode root() {
        return root;
    }

    /** The line {@code pointer}'s value (or key) starts on; 0 when unknown. */
    public int line(String pointer) {
        return lines.getOrDefault(pointer, 0);
    }
}
