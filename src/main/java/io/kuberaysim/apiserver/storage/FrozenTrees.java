package io.kuberaysim.apiserver.storage;

import io.kuberaysim.api.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

import java.lang.ref.WeakReference;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.function.BiConsumer;

/**
 * The stored form of an object's tree: the same Jackson tree, read-only and compact. Objects are backed by arrays
 * sized to their content instead of {@code LinkedHashMap}s (an entry, a table slot and a cached entry-set view per
 * field), arrays by immutable lists, and equal strings by one shared node. Stored trees were never to be changed in
 * place; now a change fails at once ({@link UnsupportedOperationException}) instead of silently altering what
 * readers share. {@link JsonNode#deepCopy()} still gives an ordinary, changeable tree.
 */
public final class FrozenTrees {
    /** Objects with more fields than this keep a hashed (read-only) map: lookups by scanning stay short. */
    private static final int MAX_SCANNED = 16;
    private static final JsonNodeFactory NODES = Json.MAPPER.getNodeFactory();
    private static final Map<String, WeakReference<StringNode>> STRINGS = new WeakHashMap<>();

    private FrozenTrees() {
    }

    /** {@code node} in stored form; parts already in stored form are kept as they are (and shared). */
    public static JsonNode freeze(JsonNode node) {
        if (node instanceof FrozenObject || node instanceof FrozenArray) {
            return node;
        }
        if (node instanceof ObjectNode o) {
            return freezeObject(o);
        }
        if (node instanceof ArrayNode a) {
            JsonNode[] items = new JsonNode[a.size()];
            for (int i = 0; i < items.length; i++) {
                items[i] = freeze(a.get(i));
            }
            return new FrozenArray(List.of(items));
        }
        if (node instanceof StringNode s) {
            return shared(s);
        }
        return node;
    }

    static ObjectNode freezeObject(ObjectNode o) {
        if (o instanceof FrozenObject) {
            return o;
        }
        int n = o.size();
        String[] keys = new String[n];
        JsonNode[] values = new JsonNode[n];
        int i = 0;
        for (Map.Entry<String, JsonNode> e : o.properties()) {
            keys[i] = e.getKey();
            values[i] = freeze(e.getValue());
            i++;
        }
        if (n <= MAX_SCANNED) {
            return new FrozenObject(new ArrayMap(keys, values));
        }
        Map<String, JsonNode> m = new LinkedHashMap<>(n * 4 / 3 + 1);
        for (int k = 0; k < n; k++) {
            m.put(keys[k], values[k]);
        }
        return new FrozenObject(Collections.unmodifiableMap(m));
    }

    private static StringNode shared(StringNode s) {
        String value = s.stringValue();
        synchronized (STRINGS) {
            WeakReference<StringNode> ref = STRINGS.get(value);
            StringNode canonical = ref == null ? null : ref.get();
            if (canonical == null) {
                STRINGS.put(value, new WeakReference<>(s));
                return s;
            }
            return canonical;
        }
    }

    /** A stored object node. */
    private static final class FrozenObject extends ObjectNode {
        private static final long serialVersionUID = 1L;

        FrozenObject(Map<String, JsonNode> children) {
            super(NODES, children);
        }
    }

    /** A stored array node. */
    private static final class FrozenArray extends ArrayNode {
        private static final long serialVersionUID = 1L;

        FrozenArray(List<JsonNode> children) {
            super(NODES, children);
        }
    }

    /** A read-only map in insertion order over two arrays; lookups scan (it is only used for small objects). */
    private static final class ArrayMap extends AbstractMap<String, JsonNode> {
        private final String[] keys;
        private final JsonNode[] values;

        ArrayMap(String[] keys, JsonNode[] values) {
            this.keys = keys;
            this.values = values;
        }

        private int indexOf(Object key) {
            for (int i = 0; i < keys.length; i++) {
                if (keys[i].equals(key)) {
                    return i;
                }
            }
            return -1;
        }

        @Override
        public JsonNode get(Object key) {
            int i = indexOf(key);
            return i < 0 ? null : values[i];
        }

        @Override
        public boolean containsKey(Object key) {
            return indexOf(key) >= 0;
        }

        @Override
        public int size() {
            return keys.length;
        }

        @Override
        public boolean isEmpty() {
            return keys.length == 0;
        }

        @Override
        public void forEach(BiConsumer<? super String, ? super JsonNode> action) {
            for (int i = 0; i < keys.length; i++) {
                action.accept(keys[i], values[i]);
            }
        }

        @Override
        public Set<Map.Entry<String, JsonNode>> entrySet() {
            return new AbstractSet<>() {
                @Override
                public Iterator<Map.Entry<String, JsonNode>> iterator() {
                    return new Iterator<>() {
                        private int next;

                        @Override
                        public boolean hasNext() {
                            return next < keys.length;
                        }

                        @Override
                        public Map.Entry<String, JsonNode> next() {
                            if (next >= keys.length) {
                                throw new NoSuchElementException();
                            }
                            int i = next++;
                            return new AbstractMap.SimpleImmutableEntry<>(keys[i], values[i]);
                        }
                    };
                }

                @Override
                public int size() {
                    return keys.length;
                }
            };
        }
    }
}
