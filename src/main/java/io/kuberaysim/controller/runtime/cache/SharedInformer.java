package io.kuberaysim.controller.runtime.cache;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.registry.ListOptions;
import io.kuberaysim.apiserver.registry.ListResult;
import io.kuberaysim.apiserver.registry.ResourceReader;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.apiserver.storage.WatchEvent;
import io.kuberaysim.controller.runtime.ReconcileFailures;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.logging.LogValues;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A cache of one resource type kept current by list-then-watch, as client-go's reflector and shared
 * informer do, shared by every controller that reads the type.
 *
 * <p>The watch goes through {@link ResourceReader#watch} (the same mechanism HTTP watches use). Its sink
 * runs on the writing thread under the store lock, so it only hands each event to the control loop with
 * {@link Clock#execute}; the cache is updated and the handlers are called there, in resourceVersion order.
 * When a watch cannot resume because its resourceVersion left the history (410 Expired), the informer
 * lists again and reconciles the cache against the list, reporting the differences as add/update/delete.
 *
 * <p>Reads ({@link #get}, {@link #list}, {@link #byOwner}) may come from any thread. The cache keeps
 * indexes on namespace (key order), owner uid and every label {@code key=value} pair, so a list by label
 * touches only the matching objects.
 */
public final class SharedInformer {
    private static final Logger log = LoggerFactory.getLogger(SharedInformer.class);

    private final ResourceType type;
    private final ResourceReader reader;
    private final Clock clock;
    private final List<InformerHandler> handlers = new CopyOnWriteArrayList<>();

    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    // Guarded by lock. Keys are namespace + '\0' + name, so key order is (namespace, name) order.
    private final TreeMap<String, StoredObject> items = new TreeMap<>();
    private final Map<String, TreeSet<String>> byLabel = new HashMap<>();
    private final Map<String, TreeSet<String>> byOwnerUid = new HashMap<>();

    // Touched only on the control loop.
    private ObjectStore.Subscription subscription;
    private long lastResourceVersion;
    private long generation; // bumps on every (re)watch so events of a dropped watch are ignored
    private boolean started;
    private volatile boolean stopped;
    private volatile boolean synced;

    /** An informer for {@code type}; nothing happens until {@link #start()}. */
    public SharedInformer(ResourceType type, ResourceReader reader, Clock clock) {
        this.type = Objects.requireNonNull(type, "type");
        this.reader = Objects.requireNonNull(reader, "reader");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The resource type this informer caches. */
    public ResourceType type() {
        return type;
    }

    /** The cached object, or null when absent. Cluster-scoped types ignore {@code namespace}. */
    public StoredObject get(String namespace, String name) {
        String ns = type.namespaced() && namespace != null ? namespace : "";
        lock.readLock().lock();
        try {
            return items.get(key(ns, name));
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Cached objects in {@code namespace} (null = all namespaces) carrying every label in
     * {@code matchLabels} (null or empty = no label filter), sorted by namespace and name.
     */
    public List<StoredObject> list(String namespace, Map<String, String> matchLabels) {
        String ns = type.namespaced() ? namespace : null;
        lock.readLock().lock();
        try {
            if (matchLabels == null || matchLabels.isEmpty()) {
                Map<String, StoredObject> source = ns == null ? items : namespaceRange(ns);
                return new ArrayList<>(source.values());
            }
            // Walk the smallest label index and check the rest of the selector on each candidate.
            TreeSet<String> smallest = null;
            for (Map.Entry<String, String> e : matchLabels.entrySet()) {
                TreeSet<String> keys = byLabel.get(labelKey(e.getKey(), e.getValue()));
                if (keys == null) {
                    return new ArrayList<>();
                }
                if (smallest == null || keys.size() < smallest.size()) {
                    smallest = keys;
                }
            }
            Set<String> candidates = ns == null ? smallest : smallest.subSet(ns + '\0', ns + '\1');
            List<StoredObject> out = new ArrayList<>();
            for (String k : candidates) {
                StoredObject o = items.get(k);
                if (o != null && hasLabels(o, matchLabels)) {
                    out.add(o);
                }
            }
            return out;
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Cached objects with an ownerReference to {@code ownerUid}, sorted by namespace and name. */
    public List<StoredObject> byOwner(String ownerUid) {
        lock.readLock().lock();
        try {
            TreeSet<String> keys = byOwnerUid.get(ownerUid);
            List<StoredObject> out = new ArrayList<>();
            if (keys != null) {
                for (String k : keys) {
                    out.add(items.get(k));
                }
            }
            return out;
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Number of cached objects. */
    public int size() {
        lock.readLock().lock();
        try {
            return items.size();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Whether the first list has been applied to the cache. */
    public boolean hasSynced() {
        return synced;
    }

    /**
     * Adds a handler. A handler added after the first list is told about every cached object with
     * {@code onAdd} first, as client-go does, and then receives changes.
     */
    public void addHandler(InformerHandler h) {
        Objects.requireNonNull(h, "handler");
        Runnable add = () -> {
            handlers.add(h);
            if (synced) {
                for (StoredObject o : list(null, null)) {
                    safely(() -> h.onAdd(o));
                }
            }
        };
        if (clock.inLoop()) {
            add.run();
        } else {
            clock.execute(add);
        }
    }

    /** Lists and starts watching, on the control loop. Calling it again has no effect. */
    public void start() {
        clock.execute(() -> {
            if (started || stopped) {
                return;
            }
            started = true;
            relist();
        });
    }

    /** Stops watching for good; the cache keeps its last state. */
    public void stop() {
        stopped = true;
        clock.execute(this::closeWatch);
    }

    /**
     * Drops the current watch and resumes it from the last seen resourceVersion, as a reflector does
     * after a watch timeout. If that resourceVersion has left the history meanwhile, the resume gets a
     * 410 and the informer relists. Must be called on the control loop; the resume is queued behind the
     * current task, so writes made in the same task happen while no watch is open.
     */
    public void dropWatch() {
        if (!clock.inLoop()) {
            throw new IllegalStateException("dropWatch must be called on the control loop");
        }
        closeWatch();
        clock.execute(() -> {
            if (!stopped && subscription == null) {
                watchFrom(lastResourceVersion);
            }
        });
    }

    private void closeWatch() {
        generation++;
        if (subscription != null) {
            subscription.close();
            subscription = null;
        }
    }

    /** Lists, replaces the cache (reporting the differences to handlers) and watches from the list's revision. */
    private void relist() {
        if (stopped) {
            return;
        }
        closeWatch();
        ListResult result = reader.list(type, null, ListOptions.ALL);
        Map<String, StoredObject> fresh = new HashMap<>();
        for (StoredObject o : result.items()) {
            fresh.put(key(o), o);
        }
        List<StoredObject> gone = new ArrayList<>();
        lock.readLock().lock();
        try {
            for (Map.Entry<String, StoredObject> e : items.entrySet()) {
                if (!fresh.containsKey(e.getKey())) {
                    gone.add(e.getValue());
                }
            }
        } finally {
            lock.readLock().unlock();
        }
        for (StoredObject o : gone) {
            apply(new WatchEvent(WatchEvent.Type.DELETED, o, o));
        }
        for (StoredObject o : result.items()) {
            StoredObject old = get(o.namespace(), o.name());
            if (old == null) {
                apply(new WatchEvent(WatchEvent.Type.ADDED, o, null));
            } else if (old.resourceVersion() != o.resourceVersion()) {
                apply(new WatchEvent(WatchEvent.Type.MODIFIED, o, old));
            }
        }
        lastResourceVersion = result.resourceVersion();
        synced = true;
        watchFrom(lastResourceVersion);
    }

    private void watchFrom(long resourceVersion) {
        long myGeneration = ++generation;
        ListOptions options = new ListOptions(null, null, null, null, Long.toString(resourceVersion), null, false,
                false);
        try {
            subscription = reader.watch(type, null, options, event -> clock.execute(() -> {
                if (myGeneration == generation && !stopped) {
                    lastResourceVersion = Math.max(lastResourceVersion, event.resourceVersion());
                    apply(event);
                }
            }));
        } catch (ApiException e) {
            if (e.code() == 410) {
                log.info("informer {}: watch from resourceVersion {} expired; relisting", type.plural(),
                        resourceVersion);
                relist();
            } else {
                throw e;
            }
        }
    }

    /** Applies one change to the cache and tells the handlers; runs on the control loop. */
    private void apply(WatchEvent event) {
        StoredObject obj = event.object();
        String k = key(obj);
        StoredObject old;
        lock.writeLock().lock();
        try {
            old = items.get(k);
            // most updates (status writes above all) keep the labels and owners: the indexes stay as they are
            boolean sameIndexKeys = old != null && event.type() != WatchEvent.Type.DELETED
                    && old.labels().equals(obj.labels()) && sameOwners(old, obj);
            if (old != null && !sameIndexKeys) {
                unindex(k, old);
            }
            if (event.type() == WatchEvent.Type.DELETED) {
                items.remove(k);
            } else {
                items.put(k, obj);
                if (!sameIndexKeys) {
                    index(k, obj);
                }
            }
        } finally {
            lock.writeLock().unlock();
        }
        for (InformerHandler h : handlers) {
            if (event.type() == WatchEvent.Type.DELETED) {
                StoredObject last = old != null ? old : obj;
                safely(() -> h.onDelete(last));
            } else if (old == null) {
                safely(() -> h.onAdd(obj));
            } else {
                StoredObject before = old;
                safely(() -> h.onUpdate(before, obj));
            }
        }
    }

    private void safely(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            // One faulty handler must not stop the others or corrupt the informer. An object the handler cannot
            // read is logged on one line; anything else is a bug and keeps its stack trace.
            if (ReconcileFailures.expected(e)) {
                log.warn("informer {}: handler failed: {}", type.plural(), LogValues.escape(e.getMessage()));
            } else {
                log.error("informer {}: handler failed", type.plural(), e);
            }
        }
    }

    private void index(String k, StoredObject o) {
        for (Map.Entry<String, String> l : o.labels().entrySet()) {
            byLabel.computeIfAbsent(labelKey(l.getKey(), l.getValue()), x -> new TreeSet<>()).add(k);
        }
        for (String uid : ownerUids(o)) {
            byOwnerUid.computeIfAbsent(uid, x -> new TreeSet<>()).add(k);
        }
    }

    private void unindex(String k, StoredObject o) {
        for (Map.Entry<String, String> l : o.labels().entrySet()) {
            removeFrom(byLabel, labelKey(l.getKey(), l.getValue()), k);
        }
        for (String uid : ownerUids(o)) {
            removeFrom(byOwnerUid, uid, k);
        }
    }

    private static void removeFrom(Map<String, TreeSet<String>> index, String indexKey, String k) {
        TreeSet<String> set = index.get(indexKey);
        if (set != null) {
            set.remove(k);
            if (set.isEmpty()) {
                index.remove(indexKey);
            }
        }
    }

    private static boolean sameOwners(StoredObject a, StoredObject b) {
        JsonNode x = a.metadata() == null ? null : a.metadata().get("ownerReferences");
        JsonNode y = b.metadata() == null ? null : b.metadata().get("ownerReferences");
        return x == y || x != null && x.equals(y) || ownerUids(a).equals(ownerUids(b));
    }

    private static Set<String> ownerUids(StoredObject o) {
        JsonNode refs = o.metadata() == null ? null : o.metadata().get("ownerReferences");
        if (refs == null || !refs.isArray() || refs.isEmpty()) {
            return Set.of();
        }
        Set<String> uids = new HashSet<>();
        for (JsonNode ref : refs) {
            JsonNode uid = ref.get("uid");
            if (uid != null && uid.isString()) {
                uids.add(uid.asString());
            }
        }
        return uids;
    }

    private static boolean hasLabels(StoredObject o, Map<String, String> matchLabels) {
        for (Map.Entry<String, String> e : matchLabels.entrySet()) {
            if (!e.getValue().equals(o.labels().get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    private NavigableMap<String, StoredObject> namespaceRange(String ns) {
        return items.subMap(ns + '\0', true, ns + '\1', false);
    }

    private static String labelKey(String k, String v) {
        return k + '=' + v;
    }

    private static String key(StoredObject o) {
        return key(o.namespace(), o.name());
    }

    private static String key(String namespace, String name) {
        return namespace + '\0' + name;
    }

    @Override
    public String toString() {
        return "SharedInformer[" + type.plural() + "]";
    }
}
