package io.kuberaysim.apiserver.storage;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
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
        return readStringMap(Json.at(meta, "labels"));
    }

    private static Map<String, String> readStringMap(JsonNode l) {
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

    /** {@code apiVersion}. */
    public String apiVersion() {
        return Json.text(object, "apiVersion");
    }

    /** {@code kind}. */
    public String kind() {
        return Json.text(object, "kind");
    }

    /** {@code metadata.annotations} (read-only, empty when none); values that are not strings read as text. */
    public Map<String, String> annotations() {
        return view(ANNOTATIONS, o -> readStringMap(Json.at(o.metadata(), "annotations")));
    }

    /** {@code metadata.generation}, 0 when unset. */
    public long generation() {
        JsonNode g = Json.at(object, "metadata", "generation");
        return g == null ? 0 : g.asLong();
    }

    /** {@code metadata.finalizers} in order (read-only, empty when none). */
    public List<String> finalizers() {
        JsonNode f = Json.at(object, "metadata", "finalizers");
        if (f == null || !f.isArray() || f.isEmpty()) {
            return List.of();
        }
        List<String> out = new ArrayList<>(f.size());
        f.forEach(n -> out.add(n.asString()));
        return Collections.unmodifiableList(out);
    }

    /** Whether {@code metadata.finalizers} holds {@code finalizer}. */
    public boolean hasFinalizer(String finalizer) {
        return finalizers().contains(finalizer);
    }

    /** {@code metadata.ownerReferences} (read-only, empty when none). */
    public List<JsonNode> ownerReferences() {
        JsonNode refs = Json.at(object, "metadata", "ownerReferences");
        if (refs == null || !refs.isArray() || refs.isEmpty()) {
            return List.of();
        }
        List<JsonNode> out = new ArrayList<>(refs.size());
        refs.forEach(out::add);
        return Collections.unmodifiableList(out);
    }

    /** {@code metadata.deletionTimestamp}, or null when the object is not being deleted. */
    public String deletionTimestamp() {
        return Json.text(object, "metadata", "deletionTimestamp");
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
    private static final Object ANNOTATIONS = new Object();

    @Override
    public String toString() {
        return type.kind() + " " + (namespace.isEmpty() ? "" : namespace + "/") + name + "@" + resourceVersion;
    }
}
