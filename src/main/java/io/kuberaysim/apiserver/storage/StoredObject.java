package io.kuberaysim.apiserver.storage;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * An immutable stored object. The tree must never be mutated once stored: readers share it, and its JSON
 * encoding is produced once and reused by GET, LIST and every watcher.
 */
public final class StoredObject {
    private final ResourceType type;
    private final ObjectNode object;
    private final long resourceVersion;
    private final String namespace;
    private final String name;
    private final String uid;
    private final Map<String, String> labels;
    private volatile byte[] json;
    private volatile Map<Object, Object> views;

    StoredObject(ResourceType type, ObjectNode object, long resourceVersion) {
        this.type = type;
        this.object = object;
        this.resourceVersion = resourceVersion;
        JsonNode meta = object.get("metadata");
        this.namespace = Json.text(meta, "namespace") == null ? "" : Json.text(meta, "namespace");
        this.name = Json.text(meta, "name");
        this.uid = Json.text(meta, "uid");
        this.labels = readLabels(meta);
    }

    /** An object that is not (or not yet) in the store, e.g. the answer to a dry run. */
    public static StoredObject unstored(ResourceType type, ObjectNode object) {
        String rv = Json.text(object, "metadata", "resourceVersion");
        long v = 0;
        try {
            v = rv == null || rv.isEmpty() ? 0 : Long.parseLong(rv);
        } catch (NumberFormatException ignored) {
            // a dry run may carry whatever the client sent; it is never compared
        }
        return new StoredObject(type, object, v);
    }

    private static Map<String, String> readLabels(JsonNode meta) {
        JsonNode l = Json.at(meta, "labels");
        if (l == null || !l.isObject() || l.isEmpty()) {
            return Map.of();
        }
        Map<String, String> m = new LinkedHashMap<>();
        l.properties().forEach(e -> m.put(e.getKey(), e.getValue().asString()));
        return Collections.unmodifiableMap(m);
    }

    public ResourceType type() {
        return type;
    }

    /** The stored tree: read-only by contract. Use {@link #copy()} to change it. */
    public ObjectNode object() {
        return object;
    }

    public ObjectNode copy() {
        return object.deepCopy();
    }

    public long resourceVersion() {
        return resourceVersion;
    }

    public String namespace() {
        return namespace;
    }

    public String name() {
        return name;
    }

    public String uid() {
        return uid;
    }

    public Map<String, String> labels() {
        return labels;
    }

    public JsonNode metadata() {
        return object.get("metadata");
    }

    public boolean isDeleting() {
        return Json.at(object, "metadata", "deletionTimestamp") != null;
    }

    /** The JSON encoding, computed once. */
    public byte[] json() {
        byte[] j = json;
        if (j == null) {
            j = Json.MAPPER.writeValueAsBytes(object);
            json = j;
        }
        return j;
    }

    /**
     * A value derived from this object (a typed view such as a parsed spec), computed once per stored version
     * and shared by every reader, like {@link #json()}. {@code key} names the derivation (use one constant per
     * {@code derive} function); the result must be treated as read-only, as the tree is.
     */
    @SuppressWarnings("unchecked")
    public <T> T view(Object key, Function<StoredObject, T> derive) {
        Map<Object, Object> m = views;
        if (m == null) {
            synchronized (this) {
                m = views;
                if (m == null) {
                    m = new ConcurrentHashMap<>(4);
                    views = m;
                }
            }
        }
        Object v = m.get(key);
        if (v == null) {
            v = derive.apply(this);
            if (v == null) {
                v = NULL_VIEW;
            }
            m.putIfAbsent(key, v);
        }
        return v == NULL_VIEW ? null : (T) v;
    }

    private static final Object NULL_VIEW = new Object();

    @Override
    public String toString() {
        return type.kind() + " " + (namespace.isEmpty() ? "" : namespace + "/") + name + "@" + resourceVersion;
    }
}
