package io.kuberaysim.apiserver.storage;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchResponse;
import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * {@link ObjectStore} on etcd v3, as kube-apiserver's etcd3 store with its watch cache in front:
 * <ul>
 *   <li>writes are etcd transactions: a create puts only if the key is absent (mod revision 0); an update or delete
 *   compares the mod revision it read and, when another writer got in first, recomputes from the newer state;</li>
 *   <li>resourceVersion is the object's etcd mod revision (kept out of the stored value, stamped on read);</li>
 *   <li>one etcd watch on the whole prefix feeds an {@link InMemoryObjectStore} (the watch cache), which answers
 *   every read, list at a past revision and watch; a write returns once its own change has come back through that
 *   watch, so a writer reads its writes and its watchers have heard of them, and every replica on the same etcd
 *   sees every change in etcd's order.</li>
 * </ul>
 * A watch from a revision older than the cache's history is refused with 410, as the watch cache refuses it; at start
 * the cache is loaded some revisions back (its history size, not past etcd's compaction) and replays the changes
 * since, so clients resume their watches across a restart.
 */
public final class EtcdObjectStore implements ObjectStore, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(EtcdObjectStore.class);
    private static final int PAGE = 1000;
    /** A key under the prefix that is no object (the watch cache skips it): written at start, see the constructor. */
    private static final String START_MARK = "kuberay-sim-start";
    /** How long a writer waits for its change before asking etcd for a progress notification. */
    private static final long PROGRESS_AFTER_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final Client client;
    private final KV kv;
    private final EtcdKeys keys;
    private final InMemoryObjectStore cache;
    private final Duration requestTimeout;
    private final String endpoints;
    private final ReentrantLock appliedLock = new ReentrantLock();
    private final Condition appliedMoved = appliedLock.newCondition();
    /** Every change up to this revision is in the cache and was handed to its listeners. */
    private volatile long applied;
    private volatile Thread watchThread;
    /** Why the cache stopped following etcd (the watch ended for good), or null. */
    private volatile String watchFailure;
    /** Why the watch is down while it reconnects, or null. */
    private volatile String watchDown;
    private volatile Watch.Watcher watcher;
    private volatile boolean closed;
    /**
     * While a (re)started watch replays history: progress notifications are not trusted then (etcd 3.4 may send one
     * before a replaying watch caught up). It ends when the mark written after the watch started comes back.
     */
    private volatile boolean replaying;
    private volatile long replayMark = Long.MAX_VALUE;
    private final ScheduledExecutorService rewatch = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "etcd-rewatch");
        t.setDaemon(true);
        return t;
    });

    private EtcdObjectStore(Client client, String endpoints, String prefix, List<ResourceType> types,
                            int historyLimit, Duration requestTimeout) {
        this.client = client;
        this.kv = client.getKVClient();
        this.endpoints = endpoints;
        this.keys = new EtcdKeys(prefix, types);
        this.cache = new InMemoryObjectStore(historyLimit);
        this.requestTimeout = requestTimeout;
        ByteSequence root = bytes(keys.root());
        long current = await(kv.get(root, GetOption.builder().withCountOnly(true).build()), "a first read")
                .getHeader().getRevision();
        long listRevision = loadWithHistory(current, historyLimit);
        cache.startAt(listRevision);
        applied = listRevision;
        replaying = true;
        this.watcher = watchFrom(listRevision + 1);
        // a mark under the prefix, after every change so far: once the watch brings it, the replay is complete
        // (progress notifications cannot tell: etcd 3.4 may send them before a replaying watch has caught up)
        long mark = await(kv.put(bytes(keys.root() + START_MARK), bytes(endpoints)), "the start mark")
                .getHeader().getRevision();
        replayMark = mark;
        if (!awaitApplied(mark)) {
            throw new StorageUnavailableException("etcd at " + endpoints + " did not replay its history up to revision "
                    + mark + " within " + requestTimeout.toMillis() / 1000.0 + "s", null);
        }
        cache.advanceTo(mark);
    }

    /**
     * Loads the state some revisions back (up to {@code historyLimit}, not before etcd's compaction), so the watch
     * replays the changes since into the cache's history: after a restart clients resume their watches from the
     * resourceVersions they saw before it. Returns the revision loaded at.
     */
    private long loadWithHistory(long current, int historyLimit) {
        long bad = Math.max(1, current - historyLimit) - 1;
        long good = current;
        // the oldest revision etcd still reads (compaction drops the older ones): a binary search of cheap probes
        if (readable(bad + 1)) {
            good = bad + 1;
        } else {
            bad++;
            while (good - bad > 1) {
                long mid = bad + (good - bad) / 2;
                if (readable(mid)) {
                    good = mid;
                } else {
                    bad = mid;
                }
            }
        }
        return loadAll(good);
    }

    /** Whether etcd can still read the prefix at {@code revision} (false once it is compacted). */
    private boolean readable(long revision) {
        try {
            await(kv.get(bytes(keys.root()), GetOption.builder().withRange(prefixEnd(bytes(keys.root())))
                    .withCountOnly(true).withRevision(revision).build()), "a read at revision " + revision);
            return true;
        } catch (StorageUnavailableException e) {
            if (String.valueOf(e.getMessage()).contains("compacted")) {
                return false;
            }
            throw e;
        }
    }

    /**
     * Connects to etcd at {@code endpoints}, reads every object under {@code prefix} into the cache and follows
     * later changes.
     *
     * @throws StorageUnavailableException when etcd does not answer within {@code requestTimeout}
     */
    public static EtcdObjectStore connect(List<String> endpoints, String prefix, List<ResourceType> types,
                                          int historyLimit, Duration requestTimeout) {
        Client client = Client.builder().endpoints(endpoints.toArray(String[]::new))
                .connectTimeout(requestTimeout).build();
        try {
            return new EtcdObjectStore(client, String.join(",", endpoints), prefix, types, historyLimit,
                    requestTimeout);
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
    }

    /** Reads the whole prefix at {@code revision}, page by page, into the cache; returns that revision. */
    private long loadAll(long revision) {
        ByteSequence root = bytes(keys.root());
        ByteSequence end = prefixEnd(root);
        ByteSequence from = root;
        while (true) {
            GetResponse page = await(kv.get(from, GetOption.builder().withRange(end).withLimit(PAGE)
                    .withRevision(revision).build()), "the initial list");
            for (KeyValue kv : page.getKvs()) {
                EtcdKeys.Parsed p = keys.parse(kv.getKey().toString(StandardCharsets.UTF_8));
                if (p != null) {
                    cache.load(p.type(), decode(kv), kv.getModRevision());
                }
            }
            if (!page.isMore() || page.getKvs().isEmpty()) {
                return revision;
            }
            byte[] last = page.getKvs().get(page.getKvs().size() - 1).getKey().getBytes();
            from = ByteSequence.from(Arrays.copyOf(last, last.length + 1)); // the next key after the last one
        }
    }

    private Watch.Watcher watchFrom(long revision) {
        ByteSequence root = bytes(keys.root());
        return client.getWatchClient().watch(root,
                WatchOption.builder().withRange(prefixEnd(root)).withRevision(revision).build(),
                Watch.listener(this::onWatch, this::onWatchError));
    }

    private void onWatch(WatchResponse response) {
        watchThread = Thread.currentThread();
        if (response.isProgressNotify()) {
            if (!replaying) {
                markApplied(response.getHeader().getRevision());
            }
            return;
        }
        for (io.etcd.jetcd.watch.WatchEvent e : response.getEvents()) {
            KeyValue kv = e.getKeyValue();
            long rev = kv.getModRevision();
            EtcdKeys.Parsed p = keys.parse(kv.getKey().toString(StandardCharsets.UTF_8));
            if (p != null) {
                try {
                    switch (e.getEventType()) {
                        case PUT -> cache.replicatePut(p.type(), decode(kv), rev);
                        case DELETE -> cache.replicateDelete(p.type(), p.namespace(), p.name(), rev);
                        default -> { }
                    }
                } catch (RuntimeException ex) {
                    log.error("skipped etcd change of {} at revision {}: {}", kv.getKey(), rev, ex.toString());
                }
            }
            markApplied(rev);
        }
    }

    /**
     * The watch broke (etcd went away, a leader change): watch again from the next revision not applied, so no
     * change is missed, every second until etcd answers. History compacted meanwhile cannot be replayed: then
     * this server stops following etcd and says so on /readyz (kube-apiserver's watch cache would re-list).
     */
    private void onWatchError(Throwable t) {
        if (closed) {
            return;
        }
        String why = String.valueOf(t.getMessage());
        if (why.contains("compacted")) {
            watchFailure = "the watch on etcd ended: " + why + "; restart the server to re-list";
            log.error("etcd watch on {} ended; this server no longer sees changes: {}", keys.root(), why);
            return;
        }
        watchDown = "the watch on etcd is reconnecting after: " + why;
        log.warn("etcd watch on {} broke at revision {} ({}); watching again", keys.root(), applied, why);
        rewatch.schedule(this::watchAgain, 1, TimeUnit.SECONDS);
    }

    private void watchAgain() {
        if (closed) {
            return;
        }
        Watch.Watcher old = watcher;
        try {
            old.close();
        } catch (RuntimeException ignored) {
            // already broken
        }
        replayMark = Long.MAX_VALUE;
        replaying = true;
        watcher = watchFrom(applied + 1);
        putReplayMark();
    }

    /** A mark after every change so far: when the watch brings it back, it has caught up (and is known to be back). */
    private void putReplayMark() {
        kv.put(bytes(keys.root() + START_MARK), bytes(endpoints)).thenAccept(r -> {
            replayMark = Math.min(replayMark, r.getHeader().getRevision());
            markApplied(0); // re-checks the mark against what is applied
        });
    }

    private void markApplied(long revision) {
        appliedLock.lock();
        try {
            if (revision > applied) {
                applied = revision;
                appliedMoved.signalAll();
            }
            if (replaying && applied >= replayMark) {
                replaying = false;
                watchDown = null;
            }
        } finally {
            appliedLock.unlock();
        }
    }

    /**
     * Waits until the cache has applied {@code revision}; false when it did not within the request timeout, or
     * when called from the watch itself (a listener writing: waiting would wait for itself).
     */
    private boolean awaitApplied(long revision) {
        if (applied >= revision) {
            return true;
        }
        if (Thread.currentThread() == watchThread) {
            return false;
        }
        long remaining = requestTimeout.toNanos();
        appliedLock.lock();
        try {
            while (applied < revision) {
                if (remaining <= 0) {
                    return false;
                }
                long slice = Math.min(remaining, PROGRESS_AFTER_NANOS);
                long left = appliedMoved.awaitNanos(slice);
                remaining -= slice - Math.max(left, 0);
                if (applied < revision && left <= 0 && !replaying) {
                    // the newest revision may belong to a key outside the prefix: ask where the watch stands
                    watcher.requestProgress();
                }
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            appliedLock.unlock();
        }
    }

    private <T> T await(CompletableFuture<T> future, String what) {
        try {
            return future.get(requestTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw new StorageUnavailableException("etcd at " + endpoints + " did not answer " + what + " within "
                    + requestTimeout.toMillis() / 1000.0 + "s", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new StorageUnavailableException("etcd at " + endpoints + " failed " + what + ": "
                    + cause.getMessage(), cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StorageUnavailableException("interrupted while waiting for etcd (" + what + ")", e);
        }
    }

    // ---- reads: the watch cache ----

    @Override
    public long revision() {
        return cache.revision();
    }

    @Override
    public StoredObject get(ResourceType type, String namespace, String name) {
        return cache.get(type, namespace, name);
    }

    @Override
    public StoredObject getByUid(String uid) {
        return cache.getByUid(uid);
    }

    @Override
    public long count(ResourceType type) {
        return cache.count(type);
    }

    @Override
    public Snapshot list(ResourceType type, String namespace) {
        return cache.list(type, namespace);
    }

    @Override
    public Snapshot listByLabels(ResourceType type, String namespace, Map<String, String> exactLabels) {
        return cache.listByLabels(type, namespace, exactLabels);
    }

    @Override
    public Snapshot listAt(ResourceType type, String namespace, Map<String, String> exactLabels, long revision) {
        return cache.listAt(type, namespace, exactLabels, revision);
    }

    @Override
    public Subscription watch(ResourceType type, long fromRevision, WatchListener listener) {
        return cache.watch(type, fromRevision, listener);
    }

    @Override
    public WatchCursor follow(ResourceType type, long fromRevision, Runnable wake) {
        return cache.follow(type, fromRevision, wake);
    }

    @Override
    public long oldestWatchableRevision() {
        return cache.oldestWatchableRevision();
    }

    // ---- writes: etcd transactions ----

    @Override
    public StoredObject create(ResourceType type, ObjectNode object) {
        String namespace = Json.text(object, "metadata", "namespace");
        String name = Json.text(object, "metadata", "name");
        ByteSequence key = bytes(keys.key(type, namespace, name));
        TxnResponse r = await(kv.txn()
                .If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.modRevision(0)))
                .Then(Op.put(key, encode(object), PutOption.DEFAULT))
                .commit(), "a create");
        if (!r.isSucceeded()) {
            throw new KeyExistsException();
        }
        return committed(type, namespace, name, object, r.getHeader().getRevision());
    }

    @Override
    public StoredObject guaranteedUpdate(ResourceType type, String namespace, String name, UpdateFunction update) {
        ByteSequence key = bytes(keys.key(type, namespace, name));
        StoredObject current = cache.get(type, namespace, name);
        while (true) {
            if (current == null && (current = readThrough(type, namespace, name, key)) == null) {
                throw new KeyNotFoundException();
            }
            UpdateResult result = update.apply(current);
            Cmp unchanged = new Cmp(key, Cmp.Op.EQUAL, CmpTarget.modRevision(current.resourceVersion()));
            TxnResponse r;
            if (result.delete()) {
                r = await(kv.txn().If(unchanged).Then(Op.delete(key, DeleteOption.DEFAULT))
                        .Else(Op.get(key, GetOption.DEFAULT)).commit(), "a delete");
                if (r.isSucceeded()) {
                    return deleted(current, r.getHeader().getRevision());
                }
            } else {
                ObjectNode next = result.next();
                if (next == current.object() || InMemoryObjectStore.sameExceptVersion(next, current)) {
                    return current;
                }
                r = await(kv.txn().If(unchanged).Then(Op.put(key, encode(next), PutOption.DEFAULT))
                        .Else(Op.get(key, GetOption.DEFAULT)).commit(), "an update");
                if (r.isSucceeded()) {
                    return committed(type, namespace, name, next, r.getHeader().getRevision());
                }
            }
            current = latest(type, namespace, name, r); // someone wrote in between: recompute from their state
        }
    }

    @Override
    public StoredObject delete(ResourceType type, String namespace, String name, Precondition precondition) {
        ByteSequence key = bytes(keys.key(type, namespace, name));
        StoredObject current = cache.get(type, namespace, name);
        while (true) {
            if (current == null && (current = readThrough(type, namespace, name, key)) == null) {
                throw new KeyNotFoundException();
            }
            if (precondition != null) {
                precondition.check(current);
            }
            TxnResponse r = await(kv.txn()
                    .If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.modRevision(current.resourceVersion())))
                    .Then(Op.delete(key, DeleteOption.DEFAULT))
                    .Else(Op.get(key, GetOption.DEFAULT)).commit(), "a delete");
            if (r.isSucceeded()) {
                return deleted(current, r.getHeader().getRevision());
            }
            current = latest(type, namespace, name, r);
        }
    }

    /** The object written at {@code rv}: the cache's copy once the change came back, so identities match. */
    private StoredObject committed(ResourceType type, String namespace, String name, ObjectNode written, long rv) {
        if (awaitApplied(rv)) {
            StoredObject cached = cache.get(type, namespace, name);
            if (cached != null && cached.resourceVersion() == rv) {
                return cached;
            }
        }
        Json.child(written, "metadata").put("resourceVersion", Long.toString(rv));
        return new StoredObject(type, written, rv);
    }

    /** The last state of a deleted object at the deletion's revision, as the DELETED event carries it. */
    private StoredObject deleted(StoredObject last, long rv) {
        awaitApplied(rv);
        ObjectNode o = last.copy();
        Json.child(o, "metadata").put("resourceVersion", Long.toString(rv));
        return new StoredObject(last.type(), o, rv);
    }

    /** The current state after a failed compare: the transaction's else-branch read it. */
    private StoredObject latest(ResourceType type, String namespace, String name, TxnResponse failed) {
        List<KeyValue> kvs = failed.getGetResponses().isEmpty() ? List.of()
                : failed.getGetResponses().get(0).getKvs();
        if (kvs.isEmpty()) {
            awaitApplied(failed.getHeader().getRevision());
            return null;
        }
        return fromEtcd(type, namespace, name, kvs.get(0));
    }

    /** A key the cache does not hold (yet): etcd decides whether it exists. */
    private StoredObject readThrough(ResourceType type, String namespace, String name, ByteSequence key) {
        List<KeyValue> kvs = await(kv.get(key), "a read").getKvs();
        return kvs.isEmpty() ? null : fromEtcd(type, namespace, name, kvs.get(0));
    }

    private StoredObject fromEtcd(ResourceType type, String namespace, String name, KeyValue kv) {
        long rv = kv.getModRevision();
        if (awaitApplied(rv)) {
            StoredObject cached = cache.get(type, namespace, name);
            if (cached != null && cached.resourceVersion() == rv) {
                return cached;
            }
        }
        ObjectNode o = decode(kv);
        Json.child(o, "metadata").put("resourceVersion", Long.toString(rv));
        return new StoredObject(type, o, rv);
    }

    // ---- compaction and health ----

    /**
     * Compacts etcd's history up to {@code revision}, as kube-apiserver's compactor does; asynchronous. A revision
     * another replica compacted already is not an error.
     */
    public CompletableFuture<Void> compact(long revision) {
        return kv.compact(revision).handle((r, e) -> {
            if (e != null && !String.valueOf(e.getMessage()).contains("compacted")) {
                log.warn("etcd compaction to revision {} failed: {}", revision, e.getMessage());
            }
            return null;
        });
    }

    /** Why etcd cannot serve this server now (empty when it can): one quick read, as kube-apiserver's etcd check. */
    public Optional<String> unavailable(Duration timeout) {
        if (watchFailure != null) {
            return Optional.of(watchFailure);
        }
        try {
            kv.get(bytes(keys.root()), GetOption.builder().withCountOnly(true).build())
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (watchDown != null) {
                putReplayMark(); // etcd answers again: the mark's return shows the watch has caught up
                return Optional.of(watchDown);
            }
            return Optional.empty();
        } catch (TimeoutException e) {
            return Optional.of("etcd at " + endpoints + " did not answer within " + timeout.toMillis() + "ms");
        } catch (ExecutionException e) {
            return Optional.of("etcd at " + endpoints + " failed: " + e.getCause().getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted");
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        rewatch.shutdownNow();
        watcher.close();
        client.close();
    }

    // ---- encoding ----

    /** The stored value: the object without its resourceVersion, which is the key's mod revision. */
    private static ByteSequence encode(ObjectNode object) {
        Json.child(object, "metadata").remove("resourceVersion");
        return ByteSequence.from(Json.MAPPER.writeValueAsBytes(object));
    }

    private static ObjectNode decode(KeyValue kv) {
        return (ObjectNode) Json.MAPPER.readTree(kv.getValue().getBytes());
    }

    private static ByteSequence bytes(String s) {
        return ByteSequence.from(s, StandardCharsets.UTF_8);
    }

    /** The first key after every key starting with {@code prefix}. */
    private static ByteSequence prefixEnd(ByteSequence prefix) {
        byte[] end = prefix.getBytes();
        end[end.length - 1]++;
        return ByteSequence.from(end);
    }
}
