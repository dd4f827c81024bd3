package io.kuberaysim.apiserver.storage;

import io.kuberaysim.api.ResourceType;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * Storage with etcd's contract and no Kubernetes policy: one revision counter for every write, keys by
 * type/namespace/name, conditional writes, and a change history for watches. All writes go through
 * {@link #create}, {@link #guaranteedUpdate} and {@link #delete}; each bumps the revision once and emits
 * exactly one event, in revision order.
 */
public interface ObjectStore {

    /** The current revision: every stored object's resourceVersion is at most this. */
    long revision();

    StoredObject get(ResourceType type, String namespace, String name);

    StoredObject getByUid(String uid);

    /** How many objects of {@code type} are stored (kube-apiserver's {@code apiserver_storage_objects}). */
    default long count(ResourceType type) {
        return list(type, null).items().size();
    }

    /** A consistent snapshot of one type, optionally one namespace (null = all), sorted by namespace/name. */
    Snapshot list(ResourceType type, String namespace);

    /**
     * Like {@link #list}, narrowed through the label index: the objects that carry the rarest of the
     * {@code exactLabels} pairs (all of them when the map is empty). The result may still hold objects that
     * miss the other pairs, so callers apply their full selector to it.
     */
    default Snapshot listByLabels(ResourceType type, String namespace, java.util.Map<String, String> exactLabels) {
        Snapshot all = list(type, namespace);
        if (exactLabels.isEmpty()) {
            return all;
        }
        List<StoredObject> items = all.items().stream()
                .filter(o -> exactLabels.entrySet().stream()
                        .allMatch(e -> e.getValue().equals(o.labels().get(e.getKey()))))
                .toList();
        return new Snapshot(items, all.revision());
    }

    /**
     * The objects {@link #list} or {@link #listByLabels} (when {@code exactLabels} is not empty) answered at
     * {@code revision}, rebuilt from the change history: etcd's read at a past revision, which is how the pages of
     * one list stay one snapshot. A revision at or after the current one reads the current state.
     *
     * @throws TooOldResourceVersionException when the history no longer reaches back to {@code revision}
     */
    Snapshot listAt(ResourceType type, String namespace, java.util.Map<String, String> exactLabels, long revision);

    /** Stores a new object; fails with {@link KeyExistsException} when the key is taken. */
    StoredObject create(ResourceType type, ObjectNode object);

    /**
     * Reads the current object, asks {@code update} for the next state and writes it if nothing changed in
     * between (retrying otherwise). An unchanged result keeps the resourceVersion and emits nothing.
     */
    StoredObject guaranteedUpdate(ResourceType type, String namespace, String name, UpdateFunction update);

    /** Deletes the object if {@code precondition} accepts its current state; returns its last state. */
    StoredObject delete(ResourceType type, String namespace, String name, Precondition precondition);

    /**
     * Registers a listener for changes of {@code type} (null = every type) after {@code fromRevision}
     * (0 = from now). Retained history after {@code fromRevision} is replayed first; a revision the store has not
     * reached yet gets only the changes after it.
     * Listeners are called in revision order on the writing thread and must not block.
     *
     * @throws TooOldResourceVersionException when {@code fromRevision} is older than the retained history
     */
    Subscription watch(ResourceType type, long fromRevision, WatchListener listener);

    /**
     * Opens a cursor over changes of {@code type} after {@code fromRevision} (0 = from now) that its reader takes at
     * its own pace, starting with the retained history after {@code fromRevision}. Unlike a {@link #watch} listener,
     * nothing runs for it on the writing thread per change: {@code wake} runs there (it must not block) when a change
     * of the type arrives after the reader found none left.
     *
     * @throws TooOldResourceVersionException when {@code fromRevision} is older than the retained history
     */
    WatchCursor follow(ResourceType type, long fromRevision, Runnable wake);

    /** The oldest revision a watch can still start from. */
    long oldestWatchableRevision();

    /** Items and the revision they were read at. */
    record Snapshot(List<StoredObject> items, long revision) {
    }

    /** Computes the next state of an object from its current state; may throw to refuse the write. */
    @FunctionalInterface
    interface UpdateFunction {
        UpdateResult apply(StoredObject current);
    }

    /** The outcome of an update step: a next state (possibly unchanged), or deletion of the object. */
    record UpdateResult(ObjectNode next, boolean delete) {
        /** Write {@code next} (a fresh tree; stored trees are never mutated) unless it equals the current state. */
        public static UpdateResult replace(ObjectNode next) {
            return new UpdateResult(next, false);
        }

        /** Remove the object (the last finalizer of an object being deleted went away). */
        public static UpdateResult deleteObject() {
            return new UpdateResult(null, true);
        }
    }

    /** Checked against the current state inside the write; throws to refuse. */
    @FunctionalInterface
    interface Precondition {
        void check(StoredObject current);
    }

    /** Receives store events. */
    @FunctionalInterface
    interface WatchListener {
        void onEvent(WatchEvent event);
    }

    /** A registered watch listener. */
    interface Subscription extends AutoCloseable {
        @Override
        void close();
    }

    /** The key already exists. */
    final class KeyExistsException extends RuntimeException {
        public KeyExistsException() {
            super(null, null, false, false);
        }
    }

    /** The requested revision is older than the retained history. */
    final class TooOldResourceVersionException extends RuntimeException {
        private final long requested;
        private final long oldest;

        public TooOldResourceVersionException(long requested, long oldest) {
            super("too old resource version: " + requested + " (" + oldest + ")", null, false, false);
            this.requested = requested;
            this.oldest = oldest;
        }

        public long requested() {
            return requested;
        }

        public long oldest() {
            return oldest;
        }
    }

    /** The object does not exist. */
    final class KeyNotFoundException extends RuntimeException {
        public KeyNotFoundException() {
            super(null, null, false, false);
        }
    }
}
