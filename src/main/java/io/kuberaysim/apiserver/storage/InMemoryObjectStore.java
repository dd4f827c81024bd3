package io.kuberaysim.apiserver.storage;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;

/**
 * In-memory {@link ObjectStore}. Reads by key are lock-free; every write takes one lock only long enough to
 * check the current revision, swap the reference, append to the change log and hand the event to listeners,
 * so events leave in revision order. Cursors ({@link #follow}) read the log without the lock, each at its own
 * pace: nothing is done for them per event under the lock but waking the ones waiting for their type. Update
 * functions (validation, patching) and turning the new state into its stored form run outside the lock; under it
 * only the resourceVersion is filled in.
 * A label index (type → label pair → objects) serves selector lists without scanning the whole type,
 * which is how reconcilers find their pods ({@code ray.io/cluster=<name>}).
 */
public final class InMemoryObjectStore implements ObjectStore {
    private final Map<ResourceType, ConcurrentSkipListMap<String, StoredObject>> data = new ConcurrentHashMap<>();
    /**
     * uid → the key's slot (see {@link #indexLabels}), which follows the key's newest version: an update that keeps
     * the uid (all of them but a replicated re-create) leaves this map alone.
     */
    private final Map<String, StoredObject.LabelSlot> byUid = new ConcurrentHashMap<>();
    /**
     * type → store key → the key's slot, for reads of one key (a GET, an update's read, a create's check that the
     * key is free): a hash lookup instead of a walk down the type's skip list, ~30 comparisons of long keys with a
     * common prefix at 10,000 objects (a third of an HTTP GET's server time). Changes on creates and deletes only.
     */
    private final Map<ResourceType, ConcurrentHashMap<String, StoredObject.LabelSlot>> byKey = new ConcurrentHashMap<>();
    private final ReentrantLock writeLock = new ReentrantLock();
    /** type → "key\0value" → objects carrying that label, by store key; guarded by {@link #writeLock}. */
    private final Map<ResourceType, Map<String, TreeMap<String, StoredObject.LabelSlot>>> labelIndex = new HashMap<>();
    /** The history (watches and lists from a past revision) and the log HTTP watchers read at their own pace. */
    private final EventLog log;
    private final List<Registration> listeners = new CopyOnWriteArrayList<>();
    /** Each type's last creates: the next create of that type is compared with the likest as it is frozen. */
    private final Map<ResourceType, RecentCreates> recentCreates = new ConcurrentHashMap<>();
    private volatile long revision;

    public InMemoryObjectStore(int historyLimit) {
        this.log = new EventLog(historyLimit);
    }

    /** A listener for changes of {@code type} (null = all) with a revision above {@code after}. */
    private record Registration(ResourceType type, long after, WatchListener listener) {
    }

    private static String key(String namespace, String name) {
        return (namespace == null ? "" : namespace) + "/" + name;
    }

    private ConcurrentSkipListMap<String, StoredObject> table(ResourceType type) {
        return data.computeIfAbsent(type, t -> new ConcurrentSkipListMap<>());
    }

    @Override
    public long revision() {
        return revision;
    }

    private ConcurrentHashMap<String, StoredObject.LabelSlot> slots(ResourceType type) {
        ConcurrentHashMap<String, StoredObject.LabelSlot> s = byKey.get(type);
        return s != null ? s : byKey.computeIfAbsent(type, t -> new ConcurrentHashMap<>());
    }

    private static StoredObject current(ConcurrentHashMap<String, StoredObject.LabelSlot> slots, String k) {
        StoredObject.LabelSlot slot = slots.get(k);
        return slot == null ? null : slot.object;
    }

    @Override
    public StoredObject get(ResourceType type, String namespace, String name) {
        return current(slots(type), key(namespace, name));
    }

    @Override
    public StoredObject getByUid(String uid) {
        StoredObject.LabelSlot slot = uid == null ? null : byUid.get(uid);
        return slot == null ? null : slot.object;
    }

    /** Without the write lock or a copy: a count that may be one write behind is fine for a gauge. */
    @Override
    public long count(ResourceType type) {
        return table(type).size();
    }

    @Override
    public Snapshot list(ResourceType type, String namespace) {
        ConcurrentSkipListMap<String, StoredObject> t = table(type);
        writeLock.lock();
        try {
            NavigableMap<String, StoredObject> range = namespace == null ? t
                    : t.subMap(namespace + "/", true, namespace + "0", false);
            return new Snapshot(new ArrayList<>(range.values()), revision);
        } finally {
            writeLock.unlock();
        }
    }

    @Override
    public Snapshot listByLabels(ResourceType type, String namespace, Map<String, String> exactLabels) {
        if (exactLabels.isEmpty()) {
            return list(type, namespace);
        }
        writeLock.lock();
        try {
            Map<String, TreeMap<String, StoredObject.LabelSlot>> idx = labelIndex.get(type);
            TreeMap<String, StoredObject.LabelSlot> rarest = null;
            for (Map.Entry<String, String> e : exactLabels.entrySet()) {
                TreeMap<String, StoredObject.LabelSlot> posting = idx == null ? null
                        : idx.get(labelKey(e.getKey(), e.getValue()));
                if (posting == null) {
                    return new Snapshot(List.of(), revision);
                }
                if (rarest == null || posting.size() < rarest.size()) {
                    rarest = posting;
                }
            }
            NavigableMap<String, StoredObject.LabelSlot> range = namespace == null ? rarest
                    : rarest.subMap(namespace + "/", true, namespace + "0", false);
            List<StoredObject> items = new ArrayList<>(range.size());
            for (StoredObject.LabelSlot slot : range.values()) {
                items.add(slot.object);
            }
            return new Snapshot(items, revision);
        } finally {
            writeLock.unlock();
        }
    }

    @Override
    public Snapshot listAt(ResourceType type, String namespace, Map<String, String> exactLabels, long revision) {
        List<StoredObject> current;
        List<WatchEvent> later = new ArrayList<>();
        writeLock.lock();
        try {
            current = exactLabels.isEmpty() ? list(type, namespace).items()
                    : listByLabels(type, namespace, exactLabels).items();
            if (revision >= this.revision) {
                return new Snapshot(current, this.revision);
            }
            if (revision < log.evictedUpTo()) {
                throw new TooOldResourceVersionException(revision, log.evictedUpTo() + 1);
            }
            log.forEachAfterNewestFirst(type, revision, e -> {
                if (namespace == null || namespace.equals(e.object().namespace())) {
                    later.add(e);
                }
            });
        } finally {
            writeLock.unlock();
        }
        return new Snapshot(undo(current, later), revision);
    }

    /**
     * The state before {@code later} (newest first): each key those events touched goes back to its state before
     * the oldest of them (absent if that one created it); the other keys are as {@code current} has them. Only the
     * touched keys are sorted, the rest is one merge.
     */
    private static List<StoredObject> undo(List<StoredObject> current, List<WatchEvent> later) {
        if (later.isEmpty()) {
            return current;
        }
        TreeMap<String, StoredObject> before = new TreeMap<>(); // null value: did not exist
        for (WatchEvent e : later) {
            before.put(key(e.object().namespace(), e.object().name()),
                    e.type() == WatchEvent.Type.ADDED ? null : e.previous());
        }
        List<StoredObject> result = new ArrayList<>(current.size() + before.size());
        Iterator<Map.Entry<String, StoredObject>> restored = before.entrySet().iterator();
        Map.Entry<String, StoredObject> next = restored.hasNext() ? restored.next() : null;
        for (StoredObject o : current) {
            String k = key(o.namespace(), o.name());
            while (next != null && next.getKey().compareTo(k) <= 0) {
                if (next.getValue() != null) {
                    result.add(next.getValue());
                }
                next = restored.hasNext() ? restored.next() : null;
            }
            if (!before.containsKey(k)) {
                result.add(o);
            }
        }
        while (next != null) {
            if (next.getValue() != null) {
                result.add(next.getValue());
            }
            next = restored.hasNext() ? restored.next() : null;
        }
        return result;
    }

    private static String labelKey(String key, String value) {
        return key + '\0' + value;
    }

    /**
     * Moves the label index from {@code previous} to {@code next} (either may be null); under the write lock. The
     * postings hold a key's slot, not its object: labels a write keeps stay where they are (most writes keep all of
     * them, and putting a key again into a posting of all Pods is a walk down a tree of long keys).
     */
    private void indexLabels(ResourceType type, String k, StoredObject previous, StoredObject next) {
        Map<String, TreeMap<String, StoredObject.LabelSlot>> idx = labelIndex.computeIfAbsent(type, t -> new HashMap<>());
        StoredObject.LabelSlot slot = previous == null ? null : previous.labelSlot;
        if (slot == null) {
            slot = new StoredObject.LabelSlot();
            previous = null; // not indexed through a slot: index the next object's labels afresh
        }
        if (next != null) {
            slot.object = next;
            next.labelSlot = slot;
            if (previous != null && StringMapView.same(previous.labels(), next.labels())) {
                return;
            }
        }
        if (previous != null) {
            for (Map.Entry<String, String> e : previous.labels().entrySet()) {
                if (next != null && e.getValue().equals(next.labels().get(e.getKey()))) {
                    continue; // kept
                }
                String lk = labelKey(e.getKey(), e.getValue());
                TreeMap<String, StoredObject.LabelSlot> posting = idx.get(lk);
                if (posting != null) {
                    posting.remove(k);
                    if (posting.isEmpty()) {
                        idx.remove(lk);
                    }
                }
            }
        }
        if (next != null) {
            for (Map.Entry<String, String> e : next.labels().entrySet()) {
                if (previous != null && e.getValue().equals(previous.labels().get(e.getKey()))) {
                    continue; // kept: its posting holds the slot already
                }
                idx.computeIfAbsent(labelKey(e.getKey(), e.getValue()), x -> new TreeMap<>()).put(k, slot);
            }
        }
    }

    @Override
    public StoredObject create(ResourceType type, ObjectNode object) {
        ConcurrentSkipListMap<String, StoredObject> t = table(type);
        String k = key(Json.text(object, "metadata", "namespace"), Json.text(object, "metadata", "name"));
        RecentCreates recent = recentCreates.computeIfAbsent(type, x -> new RecentCreates());
        ObjectNode frozen = FrozenTrees.freezeObject(object, recent.likest(object));
        writeLock.lock();
        try {
            if (slots(type).containsKey(k)) {
                throw new KeyExistsException();
            }
            recent.add(frozen);
            return commit(type, t, k, null, frozen);
        } finally {
            writeLock.unlock();
        }
    }

    @Override
    public StoredObject guaranteedUpdate(ResourceType type, String namespace, String name, UpdateFunction update) {
        ConcurrentSkipListMap<String, StoredObject> t = table(type);
        ConcurrentHashMap<String, StoredObject.LabelSlot> slots = slots(type);
        String k = key(namespace, name);
        while (true) {
            StoredObject current = current(slots, k);
            if (current == null) {
                throw new KeyNotFoundException();
            }
            UpdateResult result = update.apply(current);
            ObjectNode next = result.delete() ? null : result.next();
            boolean unchanged = next != null && (next == current.object() || sameExceptVersion(next, current));
            ObjectNode frozen = next == null || unchanged ? null : FrozenTrees.freezeObject(next, current.object());
            writeLock.lock();
            try {
                if (current(slots, k) != current) {
                    continue; // someone wrote in between: recompute from the new state
                }
                if (result.delete()) {
                    return remove(type, t, k, current);
                }
                if (unchanged) {
                    return current;
                }
                return commit(type, t, k, current, frozen);
            } finally {
                writeLock.unlock();
            }
        }
    }

    /**
     * Stores {@code frozen} (the new state in stored form) at the next revision, updates the indexes and publishes
     * ADDED or MODIFIED; under the lock.
     */
    private StoredObject commit(ResourceType type, ConcurrentSkipListMap<String, StoredObject> t, String k,
                                StoredObject previous, ObjectNode frozen) {
        return commitAt(type, t, k, previous, frozen, revision + 1);
    }

    private StoredObject commitAt(ResourceType type, ConcurrentSkipListMap<String, StoredObject> t, String k,
                                  StoredObject previous, ObjectNode frozen, long rv) {
        StoredObject stored = stamp(type, frozen, rv);
        t.put(k, stored);
        indexLabels(type, k, previous, stored);
        indexKey(type, k, previous, stored);
        indexUid(previous, stored);
        revision = rv;
        publish(new WatchEvent(previous == null ? WatchEvent.Type.ADDED : WatchEvent.Type.MODIFIED, stored, previous));
        return stored;
    }

    /** Whether {@code next} is {@code current} but for the resourceVersion; stamps {@code next} with current's. */
    static boolean sameExceptVersion(ObjectNode next, StoredObject current) {
        ObjectNode meta = (ObjectNode) next.get("metadata");
        if (meta == null) {
            return false;
        }
        meta.put("resourceVersion", Long.toString(current.resourceVersion()));
        return next.equals(current.object());
    }

    @Override
    public StoredObject delete(ResourceType type, String namespace, String name, Precondition precondition) {
        ConcurrentSkipListMap<String, StoredObject> t = table(type);
        String k = key(namespace, name);
        writeLock.lock();
        try {
            StoredObject current = t.get(k);
            if (current == null) {
                throw new KeyNotFoundException();
            }
            if (precondition != null) {
                precondition.check(current);
            }
            return remove(type, t, k, current);
        } finally {
            writeLock.unlock();
        }
    }

    private StoredObject remove(ResourceType type, ConcurrentSkipListMap<String, StoredObject> t, String k,
                                StoredObject current) {
        return removeAt(type, t, k, current, revision + 1);
    }

    private StoredObject removeAt(ResourceType type, ConcurrentSkipListMap<String, StoredObject> t, String k,
                                  StoredObject current, long rv) {
        t.remove(k);
        indexLabels(type, k, current, null);
        slots(type).remove(k, current.labelSlot);
        if (current.uid() != null) {
            byUid.remove(current.uid(), current.labelSlot);
        }
        // the DELETED event carries the last state at the deletion's revision, as etcd watches do
        StoredObject last = stamp(type, current.object(), rv);
        revision = rv;
        publish(new WatchEvent(WatchEvent.Type.DELETED, last, current));
        return last;
    }

    /*
     * Replication: the etcd store keeps one of these as its watch cache and feeds it etcd's state and changes at
     * etcd's revisions (which may skip numbers) instead of counting its own.
     */

    /** Adds an object read at {@code rv} without an event: the cache's initial list. */
    void load(ResourceType type, ObjectNode object, long rv) {
        ConcurrentSkipListMap<String, StoredObject> t = table(type);
        String k = key(Json.text(object, "metadata", "namespace"), Json.text(object, "metadata", "name"));
        ObjectNode frozen = FrozenTrees.freezeObject(object);
        writeLock.lock();
        try {
            StoredObject stored = stamp(type, frozen, rv);
            StoredObject previous = t.put(k, stored);
            indexLabels(type, k, previous, stored);
            indexKey(type, k, previous, stored);
            indexUid(previous, stored);
        } finally {
            writeLock.unlock();
        }
    }

    /** After the initial list: the state is the one at {@code listRevision}, with no history before it. */
    void startAt(long listRevision) {
        writeLock.lock();
        try {
            revision = listRevision;
            log.startAt(listRevision);
        } finally {
            writeLock.unlock();
        }
    }

    /** Moves the revision to {@code rv} (changes of keys this store does not hold): no event. */
    void advanceTo(long rv) {
        writeLock.lock();
        try {
            revision = Math.max(revision, rv);
        } finally {
            writeLock.unlock();
        }
    }

    /** A put that another store committed at {@code rv}: ADDED or MODIFIED. */
    StoredObject replicatePut(ResourceType type, ObjectNode object, long rv) {
        ConcurrentSkipListMap<String, StoredObject> t = table(type);
        String k = key(Json.text(object, "metadata", "namespace"), Json.text(object, "metadata", "name"));
        StoredObject previous = t.get(k);
        ObjectNode frozen = FrozenTrees.freezeObject(object, previous == null ? null : previous.object());
        writeLock.lock();
        try {
            return commitAt(type, t, k, t.get(k), frozen, rv);
        } finally {
            writeLock.unlock();
        }
    }

    /** A delete that another store committed at {@code rv}; null when the key was not there. */
    StoredObject replicateDelete(ResourceType type, String namespace, String name, long rv) {
        ConcurrentSkipListMap<String, StoredObject> t = table(type);
        String k = key(namespace, name);
        writeLock.lock();
        try {
            StoredObject current = t.get(k);
            if (current == null) {
                revision = Math.max(revision, rv);
                return null;
            }
            return removeAt(type, t, k, current, rv);
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * The stored version of {@code frozen} (already in stored form) at {@code rv}: only its root and metadata are
     * new, which is all that is left to do under the lock.
     */
    private static StoredObject stamp(ResourceType type, ObjectNode frozen, long rv) {
        return new StoredObject(type, FrozenTrees.withResourceVersion(frozen, Long.toString(rv)), rv);
    }

    /** After {@link #indexLabels}, which gave {@code stored} its key's slot: kept by an update of the key. */
    private void indexKey(ResourceType type, String k, StoredObject previous, StoredObject stored) {
        if (previous == null || previous.labelSlot != stored.labelSlot) {
            slots(type).put(k, stored.labelSlot);
        }
    }

    /** After {@link #indexLabels}, which gave {@code stored} its key's slot. */
    private void indexUid(StoredObject previous, StoredObject stored) {
        boolean sameUid = previous != null && Objects.equals(previous.uid(), stored.uid());
        if (sameUid && previous.labelSlot == stored.labelSlot) {
            return; // the slot the uid maps to holds the new version already
        }
        if (previous != null && previous.uid() != null && !sameUid) {
            byUid.remove(previous.uid(), previous.labelSlot);
        }
        if (stored.uid() != null) {
            byUid.put(stored.uid(), stored.labelSlot);
        }
    }

    private void publish(WatchEvent event) {
        log.append(event);
        ResourceType type = event.object().type();
        for (Registration r : listeners) {
            // identity first: the types are shared constants, and a record's equals compares every component
            if ((r.type == null || r.type == type || r.type.equals(type)) && event.resourceVersion() > r.after) {
                r.listener.onEvent(event);
            }
        }
    }

    @Override
    public long oldestWatchableRevision() {
        return log.evictedUpTo();
    }

    @Override
    public Subscription watch(ResourceType type, long fromRevision, WatchListener listener) {
        writeLock.lock();
        try {
            checkWatchable(fromRevision);
            if (fromRevision > 0) {
                log.forEachAfter(type, fromRevision, listener::onEvent);
            }
            Registration reg = new Registration(type, fromRevision, listener);
            listeners.add(reg);
            return () -> listeners.remove(reg);
        } finally {
            writeLock.unlock();
        }
    }

    @Override
    public WatchCursor follow(ResourceType type, long fromRevision, Runnable wake) {
        writeLock.lock();
        try {
            checkWatchable(fromRevision);
            return log.follow(type, fromRevision > 0 ? fromRevision : revision, wake);
        } finally {
            writeLock.unlock();
        }
    }

    /** Under the write lock. */
    private void checkWatchable(long fromRevision) {
        if (fromRevision > 0 && fromRevision < log.evictedUpTo()) {
            throw new TooOldResourceVersionException(fromRevision, log.evictedUpTo() + 1);
        }
    }
}
