package io.kuberaysim.apiserver.storage;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A change in the store. {@code previous} is the state before a MODIFIED or DELETED write, so watchers
 * with selectors can tell an object that stopped matching from one that never matched.
 * The wire line ({@code {"type":..,"object":..}\n}) is encoded once and shared by every HTTP watcher.
 */
public final class WatchEvent {
    /** Event types of the Kubernetes watch protocol. */
    public enum Type { ADDED, MODIFIED, DELETED, BOOKMARK, ERROR }

    private final Type type;
    private final StoredObject object;
    private final StoredObject previous;
    private volatile byte[] line;

    public WatchEvent(Type type, StoredObject object, StoredObject previous) {
        this.type = type;
        this.object = object;
        this.previous = previous;
    }

    public Type type() {
        return type;
    }

    public StoredObject object() {
        return object;
    }

    public StoredObject previous() {
        return previous;
    }

    public long resourceVersion() {
        return object.resourceVersion();
    }

    /** The watch-protocol line for this event with the given type (which may differ for selector transitions). */
    public byte[] line(Type as) {
        if (as == type) {
            byte[] l = line;
            if (l == null) {
                l = encode(type, object.json());
                line = l;
            }
            return l;
        }
        return encode(as, object.json());
    }

    public static byte[] encode(Type type, byte[] objectJson) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(objectJson.length + 32);
        out.writeBytes(("{\"type\":\"" + type.name() + "\",\"object\":").getBytes(StandardCharsets.UTF_8));
        out.writeBytes(objectJson);
        out.writeBytes("}\n".getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    @Override
    public String toString() {
        return type + " " + object;
    }
}
