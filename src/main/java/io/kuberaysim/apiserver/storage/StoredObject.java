package io.kuberaysim.apiserver.storage;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
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
    /** This key's entry in the store's label index (see {@code InMemoryObjectStore}); set under its write lock. */
    LabelSlot labelSlot;
    /** Derived values as key, value pairs; replaced whole when one is added (there are one or two per object). */
    private volatile Object[] views;

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
        return StringMapView.of(Json.at(meta, "labels"));
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
        return StringMapView.of(Json.at(object, "metadata", "annotations"));
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

    /** The JSON encoding, computed once (stored parts it shares with recently encoded objects are not encoded again). */
    public byte[] json() {
        byte[] j = json;
        if (j == null) {
            j = StoredJson.encode(object);
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
        Object v = findView(views, key);
        if (v == null) {
            v = derive.apply(this);
            if (v == null) {
                v = NULL_VIEW;
            }
            synchronized (this) {
                Object[] current = views;
                Object raced = findView(current, key);
                if (raced != null) {
                    v = raced;
                } else {
                    Object[] next = current == null ? new Object[2] : Arrays.copyOf(current, current.length + 2);
                    next[next.length - 2] = key;
                    next[next.length - 1] = v;
                    views = next;
                }
            }
        }
        return v == NULL_VIEW ? null : (T) v;
    }

    private static Object findView(Object[] views, Object key) {
        if (views != null) {
            for (int i = 0; i < views.length; i += 2) {
                if (views[i].equals(key)) {
                    return views[i + 1];
                }
            }
        }
        return null;
    }

    private static final Object NULL_VIEW = new Object();

    @Override
    public String toString() {
        return type.kind() + " " + (namespace.isEmpty() ? "" : namespace + "/") + name + "@" + resourceVersion;
    }

    /**
     * What the store's label index holds for one key: the box stays while the key's objects keep their labels, so a
     * write that does not change them only changes what it holds.
     */
    static final class LabelSlot {
        /** Written under the store's write lock, read without it (lookups by key and by uid). */
        volatile StoredObject object;
    }
}
