package io.kuberaysim.apiserver.storage;

import tools.jackson.databind.JsonNode;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A stored JSON object of strings (labels, annotations) read as a {@code Map<String, String>}, without copying it:
 * a stored object's labels cost no map of their own (the stored tree already holds them, shared between objects that
 * carry the same ones). Read-only, in the object's field order; values that are not strings read as text.
 */
final class StringMapView extends AbstractMap<String, String> {
    private final JsonNode object;

    private StringMapView(JsonNode object) {
        this.object = object;
    }

    /**
     * The view of {@code node}; an empty map when it is absent, not an object or empty. A tree not in stored form
     * may still change, so it is read into a map of its own.
     */
    static Map<String, String> of(JsonNode node) {
        if (node == null || !node.isObject() || node.isEmpty()) {
            return Map.of();
        }
        if (FrozenTrees.isFrozen(node)) {
            return new StringMapView(node);
        }
        Map<String, String> copy = new LinkedHashMap<>();
        node.properties().forEach(e -> copy.put(e.getKey(), e.getValue().asString()));
        return Collections.unmodifiableMap(copy);
    }

    /** Whether two maps (views or not) hold the same entries; views of one stored (shared) node are at once. */
    static boolean same(Map<String, String> a, Map<String, String> b) {
        return a == b || a instanceof StringMapView x && b instanceof StringMapView y && x.object == y.object
                || a.equals(b);
    }

    @Override
    public String get(Object key) {
        if (!(key instanceof String k)) {
            return null;
        }
        JsonNode v = object.get(k);
        return v == null ? null : v.asString();
    }

    @Override
    public boolean containsKey(Object key) {
        return key instanceof String k && object.has(k);
    }

    @Override
    public int size() {
        return object.size();
    }

    @Override
    public boolean isEmpty() {
        return object.isEmpty();
    }

    @Override
    public Set<Map.Entry<String, String>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Map.Entry<String, String>> iterator() {
                Iterator<Map.Entry<String, JsonNode>> fields = object.properties().iterator();
                return new Iterator<>() {
                    @Override
                    public boolean hasNext() {
                        return fields.hasNext();
                    }

                    @Override
                    public Map.Entry<String, String> next() {
                        Map.Entry<String, JsonNode> f = fields.next();
                        return new AbstractMap.SimpleImmutableEntry<>(f.getKey(), f.getValue().asString());
                    }
                };
            }

            @Override
            public int size() {
                return object.size();
            }
        };
    }
}
