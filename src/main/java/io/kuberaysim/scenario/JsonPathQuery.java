package io.kuberaysim.scenario;

import com.jayway.jsonpath.Configuration;
import com.jayway.jsonpath.InvalidPathException;
import com.jayway.jsonpath.JsonPath;
import com.jayway.jsonpath.Option;
import io.kuberaysim.api.Json;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A JSONPath over an object, in Jayway's syntax ({@code $.status.conditions[?(@.type=='Ready')].status}) or
 * kubectl's ({@code {.status.state}}, turned into the former). The result is every matched value, so a path that
 * selects nothing gives an empty list instead of an error.
 */
public final class JsonPathQuery {
    private static final Configuration CONFIG = Configuration.defaultConfiguration()
            .addOptions(Option.ALWAYS_RETURN_LIST, Option.SUPPRESS_EXCEPTIONS);

    private final String text;
    private final JsonPath path;

    private JsonPathQuery(String text, JsonPath path) {
        this.text = text;
        this.path = path;
    }

    /** @throws IllegalArgumentException with the library's reason when the path does not compile */
    public static JsonPathQuery compile(String text) {
        String t = text.trim();
        if (t.startsWith("{") && t.endsWith("}")) {
            t = t.substring(1, t.length() - 1).trim();
        }
        if (t.startsWith(".")) {
            t = "$" + t;
        } else if (!t.startsWith("$")) {
            t = "$." + t;
        }
        try {
            return new JsonPathQuery(text, JsonPath.compile(t));
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** The values the path selects in {@code object}, as plain Java values (maps, lists, strings, numbers). */
    public List<Object> read(JsonNode object) {
        Object doc = Json.MAPPER.convertValue(object, Map.class);
        Object result = path.read(doc, CONFIG);
        return result instanceof List<?> l ? new ArrayList<>(l) : result == null ? List.of() : List.of(result);
    }

    /** A value as an author writes it in a scenario (strings bare, other values as JSON). */
    public static String render(Object value) {
        return value instanceof String s ? s : Json.MAPPER.writeValueAsString(value);
    }

    @Override
    public String toString() {
        return text;
    }
}
