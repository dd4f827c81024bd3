package io.kuberaysim.apiserver.registry;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.apiserver.storage.WatchEvent;
import io.kuberaysim.controller.runtime.clock.Cancellable;
import io.kuberaysim.controller.runtime.clock.Clock;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Deletes objects whose strategy gives them a {@linkplain ResourceStrategy#timeToLive() time to live} once that
 * long has passed on the {@link Clock} since their last write, as etcd leases expire kube-apiserver's Events: every
 * create and update takes a new lease, and expiry removes the key whatever its finalizers, so watchers see
 * DELETED. The deletion is conditional on the object's resourceVersion, so a write that races the expiry wins.
 *
 * <p>Leases of one type all last the same, so in the order of their writes they also expire in order: each type
 * keeps them in one insertion-ordered map (a rewrite moves its key to the end), and one clock timer at the oldest
 * expiry removes everything due. Nothing is scanned, and the work per write is O(1). Expired objects are swept at
 * most every {@link #SWEEP_INTERVAL}, like etcd, which reuses a lease for writes close together, an object may live
 * up to that much beyond its TTL.
 */
public final class ObjectExpiry implements AutoCloseable {
    /** The shortest time between two sweeps. */
    static final Duration SWEEP_INTERVAL = Duration.ofSeconds(1);

    private final ObjectStore store;
    private final Clock clock;
    private final Map<ResourceType, Duration> ttls = new LinkedHashMap<>();
    /** type → store key → lease, oldest write first; guarded by {@code this}. */
    private final Map<ResourceType, LinkedHashMap<String, Lease>> leases = new LinkedHashMap<>();
    private final List<ObjectStore.Subscription> subscriptions = new ArrayList<>();
    /** The pending sweep, if any; guarded by {@code this}. */
    private Cancellable sweep;
    private Instant sweepAt;
    private boolean closed;

    private record Lease(String namespace, String name, long resourceVersion, Instant expires) {
    }

    public ObjectExpiry(GenericRegistry registry, Clock clock) {
        this.store = registry.store();
        this.clock = clock;
        registry.strategies().stream()
                .filter(s -> s.timeToLive() != null)
                .sorted(Comparator.comparing(s -> s.type().plural()))
                .forEach(s -> ttls.put(s.type(), s.timeToLive()));
    }

    /** Leases the objects already stored and every later write of the types that have a time to live. */
    public void start() {
        synchronized (this) {
            ttls.keySet().forEach(type -> leases.put(type, new LinkedHashMap<>()));
        }
        // not under this object's lock: the store calls onWrite under its own lock, so that order is the only one
        for (ResourceType type : ttls.keySet()) {
            ObjectStore.Snapshot existing = store.list(type, null);
            synchronized (this) {
                existing.items().forEach(o -> lease(type, o));
            }
            ObjectStore.Subscription s = store.watch(type, Math.max(1, existing.revision()), this::onWrite);
            synchronized (this) {
                subscriptions.add(s);
            }
        }
        synchronized (this) {
            scheduleSweep();
        }
    }

    /** Called by the store on the writing thread, in revision order: the lease starts now. */
    private synchronized void onWrite(WatchEvent event) {
        StoredObject o = event.object();
        LinkedHashMap<String, Lease> byKey = leases.get(o.type());
        String key = key(o);
        byKey.remove(key);
        if (event.type() != WatchEvent.Type.DELETED) {
            lease(o.type(), o);
            scheduleSweep();
        }
    }

    private void lease(ResourceType type, StoredObject o) {
        leases.get(type).put(key(o), new Lease(o.namespace(), o.name(), o.resourceVersion(),
                clock.now().plus(ttls.get(type))));
    }

    private static String key(StoredObject o) {
        return o.namespace() + "/" + o.name();
    }

    /** Makes sure a sweep is pending for the oldest lease (unless one is already due earlier). */
    private void scheduleSweep() {
        if (closed || sweep != null) {
            return;
        }
        Instant oldest = null;
        for (LinkedHashMap<String, Lease> byKey : leases.values()) {
            if (!byKey.isEmpty()) {
                Instant e = byKey.values().iterator().next().expires();
                if (oldest == null || e.isBefore(oldest)) {
                    oldest = e;
                }
            }
        }
        if (oldest == null) {
            return;
        }
        Instant now = clock.now();
        Instant at = oldest;
        if (sweepAt != null && at.isBefore(sweepAt.plus(SWEEP_INTERVAL))) {
            at = sweepAt.plus(SWEEP_INTERVAL);
        }
        sweep = clock.schedule(Duration.between(now, at), this::sweep);
    }

    /** On the control loop: removes every object whose lease has run out. */
    private void sweep() {
        Map<ResourceType, List<Lease>> due = new LinkedHashMap<>();
        synchronized (this) {
            sweep = null;
            if (closed) {
                return;
            }
            Instant now = clock.now();
            sweepAt = now;
            leases.forEach((type, byKey) -> {
                Iterator<Lease> it = byKey.values().iterator();
                while (it.hasNext()) {
                    Lease l = it.next();
                    if (l.expires().isAfter(now)) {
                        break;
                    }
                    it.remove();
                    due.computeIfAbsent(type, t -> new ArrayList<>()).add(l);
                }
            });
        }
        due.forEach((type, expired) -> {
            for (Lease l : expired) {
                expire(type, l);
            }
        });
        synchronized (this) {
            scheduleSweep();
        }
    }

    private void expire(ResourceType type, Lease lease) {
        try {
            store.delete(type, type.namespaced() ? lease.namespace() : null, lease.name(), current -> {
                if (current.resourceVersion() != lease.resourceVersion()) {
                    throw new Rewritten();
                }
            });
        } catch (ObjectStore.KeyNotFoundException | Rewritten e) {
            // deleted meanwhile, or written again (that write took a new lease)
        }
    }

    /** The object was written after its lease was taken. */
    private static final class Rewritten extends RuntimeException {
        Rewritten() {
            super(null, null, false, false);
        }
    }

    /** Objects currently leased (for tests and figures). */
    public synchronized int leased() {
        return leases.values().stream().mapToInt(Map::size).sum();
    }

    @Override
    public synchronized void close() {
        closed = true;
        subscriptions.forEach(ObjectStore.Subscription::close);
        subscriptions.clear();
        if (sweep != null) {
            sweep.cancel();
            sweep = null;
        }
    }
}
