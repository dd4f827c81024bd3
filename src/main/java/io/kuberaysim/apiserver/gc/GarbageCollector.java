package io.kuberaysim.apiserver.gc;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.registry.DeleteOptions;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.WriteOptions;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.apiserver.storage.WatchEvent;
import io.kuberaysim.controller.runtime.EventRecorder;
import io.kuberaysim.controller.runtime.clock.Cancellable;
import io.kuberaysim.controller.runtime.clock.ControlLoop;
import io.kuberaysim.logging.LogValues;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Garbage collection by ownerReferences, as kube-controller-manager's collector: dependents whose owners
 * (matched by uid) are all gone are deleted; an owner deleted in the foreground waits (finalizer
 * {@code foregroundDeletion}) until its blocking dependents are gone; an orphaning owner (finalizer
 * {@code orphan}) first strips itself from its dependents' ownerReferences. Works on store events, on the
 * control loop, and writes through the registry like any other client.
 *
 * <p>One object it cannot handle never stops it: an object whose owner references cannot be read gets one Warning
 * Event {@value #OWNER_REF_INVALID} (in the family of kube's {@code OwnerRefInvalidNamespace}, which it records
 * for an owner in another namespace), a write the API refuses is retried for that object alone with the
 * workqueue's backoff (5 ms doubling, at most 1,000 s) and logged once per cause, and every other object is
 * collected as usual.
 */
public final class GarbageCollector implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(GarbageCollector.class);
    static final String FOREGROUND = "foregroundDeletion";
    static final String ORPHAN = "orphan";
    /** The component its Events name, as kube-controller-manager's collector. */
    public static final String COMPONENT = "garbage-collector-controller";
    /** The field manager of its Events: the collector is one of kube-controller-manager's controllers. */
    public static final String FIELD_MANAGER = ControllerManagerWrites.FIELD_MANAGER;
    /** Event reason on an object with an owner reference the collector cannot read (kube's API refuses those). */
    static final String OWNER_REF_INVALID = "OwnerRefInvalid";
    /** kube's reason for an owner reference naming a namespaced owner of another namespace. */
    static final String OWNER_REF_INVALID_NAMESPACE = "OwnerRefInvalidNamespace";
    /** Event reason on an object the collector failed to update or delete. */
    static final String FAILED = "GarbageCollectionFailed";
    private static final Duration FIRST_RETRY = Duration.ofMillis(5);
    private static final Duration MAX_RETRY = Duration.ofSeconds(1000);

    private final GenericRegistry registry;
    private final ObjectStore store;
    private final ControlLoop loop;
    private final EventRecorder events;
    /** owner uid → dependents (by uid); only touched on the loop. */
    private final Map<String, Set<String>> dependents = new HashMap<>();
    /** Work that failed, by object uid and what was tried; only touched on the loop. */
    private final Map<String, Retry> retries = new HashMap<>();
    /** Objects already given a Warning about their owner references, by uid; only touched on the loop. */
    private final Set<String> warned = new HashSet<>();
    private ObjectStore.Subscription subscription;

    /** A failed piece of work: the cause last seen, failures in a row, the pending retry. */
    private record Retry(String cause, int failures, Cancellable timer) {
    }

    /**
     * @param events where Warning Events about objects the collector cannot handle go (kube-controller-manager's
     *               {@code garbage-collector-controller}); null = the log only (no controllers to record them)
     */
    public GarbageCollector(GenericRegistry registry, ControlLoop loop, EventRecorder events) {
        this.registry = registry;
        this.store = registry.store();
        this.loop = loop;
        this.events = events;
    }

    public void start() {
        subscription = store.watch(null, 0, event -> {
            if (mayGiveWork(event)) {
                loop.execute(() -> handle(event));
            }
        });
    }

    /**
     * Whether a store event can give the collector work. A write that keeps the object's owner references (the very
     * stored node) and neither is nor follows a deletion changes neither the ownership graph nor what it decides, as
     * for kube-controller-manager's collector, which acts on changes of that graph and on deletions. Nearly every
     * write (status writes above all) is one, and a loop task each was a fiftieth of the control loop at scale.
     */
    static boolean mayGiveWork(WatchEvent event) {
        StoredObject previous = event.previous();
        return event.type() != WatchEvent.Type.MODIFIED || !sameOwnerRefs(previous, event.object())
                || event.object().isDeleting() || previous.isDeleting();
    }

    @Override
    public void close() {
        if (subscription != null) {
            subscription.close();
        }
    }

    private void handle(WatchEvent event) {
        StoredObject obj = event.object();
        StoredObject previous = event.previous();
        if (event.type() == WatchEvent.Type.MODIFIED && sameOwnerRefs(previous, obj)) {
            reportInvalidOwnerRefs(obj); // the index holds these references already: only the owners may have moved
        } else {
            if (previous != null) {
                unindex(previous);
            }
            if (event.type() == WatchEvent.Type.DELETED) {
                forget(obj.uid());
                onGone(obj);
                return;
            }
            index(obj);
        }
        attempt(obj, "sync", o -> {
            checkOwners(o);
            if (o.isDeleting()) {
                processDeletingOwner(o);
            }
        });
    }

    /**
     * Runs {@code work} for one dependent each: one the collector cannot handle does not stop its siblings.
     *
     * @return whether it succeeded for every one
     */
    private boolean forEachDependent(List<StoredObject> dependents, String what, Consumer<StoredObject> work,
                                     Runnable afterRetry) {
        boolean all = true;
        for (StoredObject d : dependents) {
            all &= attempt(d, what, work, afterRetry);
        }
        return all;
    }

    private void attempt(StoredObject obj, String what, Consumer<StoredObject> work) {
        attempt(obj, what, work, null);
    }

    /**
     * Runs {@code work} on {@code obj}. If it fails (say, a write of it is refused because its metadata is invalid),
     * it is retried on the object's newest version after a backoff, for this object and this work alone; the first
     * failure with a new cause is logged and recorded as a Warning Event on the object.
     *
     * @param afterRetry runs when a retry of the work succeeds (null = nothing)
     * @return whether the work succeeded now
     */
    private boolean attempt(StoredObject obj, String what, Consumer<StoredObject> work, Runnable afterRetry) {
        String key = obj.uid() + '\0' + what;
        try {
            work.accept(obj);
        } catch (RuntimeException e) {
            failed(obj, key, what, work, afterRetry, e);
            return false;
        }
        Retry done = retries.remove(key);
        if (done != null) {
            done.timer().cancel();
        }
        return true;
    }

    private void failed(StoredObject obj, String key, String what, Consumer<StoredObject> work, Runnable afterRetry,
                        RuntimeException e) {
        String cause = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        Retry previous = retries.remove(key);
        if (previous != null) {
            previous.timer().cancel();
        }
        int failures = previous == null ? 1 : previous.failures() + 1;
        if (previous == null || !previous.cause().equals(cause)) {
            log.warn("garbage collector: {} of {} {}/{} failed, retrying with backoff: {}", what,
                    obj.type().kind(), obj.namespace(), obj.name(), LogValues.escape(cause));
            if (!warned.contains(obj.uid())) {
                warn(obj, FAILED, "garbage collection (" + what + ") failed and is retried with backoff: " + cause);
            }
        }
        Duration delay = backoff(failures);
        Cancellable timer = loop.schedule(delay, () -> retry(obj.uid(), key, what, work, afterRetry));
        retries.put(key, new Retry(cause, failures, timer));
    }

    private void retry(String uid, String key, String what, Consumer<StoredObject> work, Runnable afterRetry) {
        if (!retries.containsKey(key)) {
            return;
        }
        StoredObject current = store.getByUid(uid);
        if (current == null) {
            retries.remove(key);
            return;
        }
        if (attempt(current, what, work, afterRetry) && afterRetry != null) {
            afterRetry.run();
        }
    }

    /** client-go's default controller rate limiter per item: 5 ms doubling per failure, at most 1,000 s. */
    static Duration backoff(int failures) {
        int shift = Math.min(failures - 1, 30);
        long millis = FIRST_RETRY.toMillis() << shift;
        return millis >= MAX_RETRY.toMillis() ? MAX_RETRY : Duration.ofMillis(millis);
    }

    /** The object is gone: nothing of it is retried or remembered. */
    private void forget(String uid) {
        warned.remove(uid);
        retries.entrySet().removeIf(entry -> {
            if (entry.getKey().startsWith(uid + '\0')) {
                entry.getValue().timer().cancel();
                return true;
            }
            return false;
        });
    }

    private void warn(StoredObject obj, String reason, String message) {
        if (events != null) {
            events.event(obj, EventRecorder.WARNING, reason, "GarbageCollect", message);
        }
    }

    /** The uid an owner reference names; null for a reference whose uid is missing or not a string. */
    private static String uid(JsonNode ref) {
        JsonNode uid = ref.get("uid");
        return uid != null && uid.isString() && !uid.asString().isEmpty() ? uid.asString() : null;
    }

    private void index(StoredObject o) {
        for (JsonNode ref : ownerRefs(o.object())) {
            dependents.computeIfAbsent(uid(ref), k -> new LinkedHashSet<>()).add(o.uid());
        }
        reportInvalidOwnerRefs(o);
    }

    /**
     * One Warning per object whose owner references the collector cannot follow: a reference it cannot read
     * (ignored, as if absent) or one naming an owner in another namespace (kube's {@code OwnerRefInvalidNamespace};
     * such an owner counts as absent in the dependent's namespace).
     */
    private void reportInvalidOwnerRefs(StoredObject o) {
        if (warned.contains(o.uid())) {
            return;
        }
        JsonNode refs = Json.at(o.object(), "metadata", "ownerReferences");
        if (refs == null || !refs.isArray()) {
            return;
        }
        for (int i = 0; i < refs.size(); i++) {
            JsonNode ref = refs.get(i);
            if (!ref.isObject() || uid(ref) == null) {
                warned.add(o.uid());
                warn(o, OWNER_REF_INVALID, "ownerReferences[" + i + "] " + ref
                        + " cannot be read (" + (ref.isObject() ? "uid must be a non-empty string" : "not an object")
                        + "): the garbage collector ignores it");
                return;
            }
            StoredObject owner = store.getByUid(uid(ref));
            if (owner != null && owner.type().namespaced() && !owner.namespace().equals(o.namespace())) {
                warned.add(o.uid());
                warn(o, OWNER_REF_INVALID_NAMESPACE, "ownerRef [%s/%s, namespace: %s, name: %s, uid: %s] does not "
                        .formatted(ref.path("apiVersion").asString(""), ref.path("kind").asString(""),
                                o.namespace(), ref.path("name").asString(""), uid(ref))
                        + "exist in namespace \"" + o.namespace() + "\"");
                return;
            }
        }
    }

    private void unindex(StoredObject o) {
        for (JsonNode ref : ownerRefs(o.object())) {
            Set<String> s = dependents.get(uid(ref));
            if (s != null) {
                s.remove(o.uid());
                if (s.isEmpty()) {
                    dependents.remove(uid(ref));
                }
            }
        }
    }

    /**
     * Whether a write kept the object's owner references as they were: the very stored node (stored trees share
     * unchanged parts), which is what nearly every write (status writes above all) does, so the index is left alone.
     */
    private static boolean sameOwnerRefs(StoredObject previous, StoredObject next) {
        return previous != null && java.util.Objects.equals(previous.uid(), next.uid())
                && Json.at(previous.object(), "metadata", "ownerReferences")
                == Json.at(next.object(), "metadata", "ownerReferences");
    }

    /** The owner references that name an owner by uid; malformed ones (the API refuses them) name nobody. */
    private static List<JsonNode> ownerRefs(JsonNode obj) {
        JsonNode refs = Json.at(obj, "metadata", "ownerReferences");
        List<JsonNode> out = new ArrayList<>();
        if (refs != null && refs.isArray()) {
            refs.forEach(ref -> {
                if (ref.isObject() && uid(ref) != null) {
                    out.add(ref);
                }
            });
        }
        return out;
    }

    /** An owner is alive when an object with its uid exists in the dependent's namespace or cluster-wide. */
    private StoredObject liveOwner(StoredObject dependent, JsonNode ref) {
        StoredObject owner = store.getByUid(uid(ref));
        if (owner == null) {
            return null;
        }
        if (owner.type().namespaced() && !owner.namespace().equals(dependent.namespace())) {
            return null;
        }
        return owner;
    }

    /** A dependent whose owners are all gone follows them. */
    private void checkOwners(StoredObject o) {
        List<JsonNode> refs = ownerRefs(o.object());
        if (refs.isEmpty() || o.isDeleting()) {
            return;
        }
        boolean anyAlive = false;
        boolean ownerForeground = false;
        for (JsonNode ref : refs) {
            StoredObject owner = liveOwner(o, ref);
            if (owner != null) {
                anyAlive = true;
                if (owner.isDeleting() && hasFinalizer(owner.object(), FOREGROUND)) {
                    ownerForeground = true;
                }
            }
        }
        if (!anyAlive) {
            deleteDependent(o, "Background");
        } else if (ownerForeground) {
            deleteDependent(o, "Foreground");
        }
    }

    private void deleteDependent(StoredObject o, String policy) {
        try {
            registry.delete(o.type(), o.namespace(), o.name(),
                    new DeleteOptions(policy, null, o.uid(), null, false, null));
        } catch (ApiException e) {
            if (e.code() != 404 && e.code() != 409) {
                throw e;
            }
        }
    }

    private void processDeletingOwner(StoredObject owner) {
        if (hasFinalizer(owner.object(), ORPHAN)) {
            // as kube's collector: the owner stays (finalizer kept) until every dependent is orphaned
            String ownerUid = owner.uid();
            if (forEachDependent(liveDependents(ownerUid), "orphan " + ownerUid, d -> removeOwnerRef(d, ownerUid),
                    () -> ownerMayBeDone(ownerUid))) {
                removeFinalizer(owner, ORPHAN);
            }
            return;
        }
        if (hasFinalizer(owner.object(), FOREGROUND)) {
            boolean[] blocking = {false};
            forEachDependent(liveDependents(owner.uid()), "foreground " + owner.uid(), d -> {
                if (blocksOwner(d, owner.uid())) {
                    blocking[0] = true;
                }
                if (!d.isDeleting()) {
                    deleteDependent(d, "Foreground");
                }
            }, null);
            if (!blocking[0]) {
                removeFinalizer(owner, FOREGROUND);
            }
        }
    }

    private void onGone(StoredObject gone) {
        // its dependents may now be orphans; its owners waiting in the foreground may now be free
        forEachDependent(liveDependents(gone.uid()), "sync", this::checkOwners, null);
        dependents.remove(gone.uid());
        for (JsonNode ref : ownerRefs(gone.object())) {
            StoredObject owner = liveOwner(gone, ref);
            if (owner != null && owner.isDeleting()) {
                attempt(owner, "dependent gone", this::processDeletingOwner);
            }
        }
    }

    /** A dependent that could not be orphaned before now is: its deleting owner may be free to go. */
    private void ownerMayBeDone(String ownerUid) {
        StoredObject owner = store.getByUid(ownerUid);
        if (owner != null && owner.isDeleting()) {
            attempt(owner, "dependent orphaned", this::processDeletingOwner);
        }
    }

    private List<StoredObject> liveDependents(String ownerUid) {
        List<StoredObject> out = new ArrayList<>();
        Set<String> uids = dependents.get(ownerUid);
        if (uids != null) {
            for (String uid : List.copyOf(uids)) {
                StoredObject d = store.getByUid(uid);
                if (d != null) {
                    out.add(d);
                }
            }
        }
        return out;
    }

    private static boolean blocksOwner(StoredObject dependent, String ownerUid) {
        for (JsonNode ref : ownerRefs(dependent.object())) {
            if (ownerUid.equals(uid(ref)) && ref.path("blockOwnerDeletion").asBoolean(false)) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasFinalizer(JsonNode obj, String name) {
        JsonNode fs = Json.at(obj, "metadata", "finalizers");
        if (fs != null) {
            for (JsonNode f : fs) {
                if (f.isString() && name.equals(f.asString())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Removes the references to {@code ownerUid}; nothing to write if there are none (any more). */
    private void removeOwnerRef(StoredObject d, String ownerUid) {
        if (ownerRefs(d.object()).stream().noneMatch(ref -> ownerUid.equals(uid(ref)))) {
            return;
        }
        ObjectNode next = d.copy();
        ArrayNode refs = (ArrayNode) next.get("metadata").get("ownerReferences");
        for (int i = refs.size() - 1; i >= 0; i--) {
            if (ownerUid.equals(uid(refs.get(i)))) {
                refs.remove(i);
            }
        }
        if (refs.isEmpty()) {
            ((ObjectNode) next.get("metadata")).remove("ownerReferences");
        }
        update(d.type(), next);
    }

    private void removeFinalizer(StoredObject owner, String finalizer) {
        ObjectNode next = owner.copy();
        ArrayNode fs = (ArrayNode) next.get("metadata").get("finalizers");
        for (int i = fs.size() - 1; i >= 0; i--) {
            if (fs.get(i).isString() && finalizer.equals(fs.get(i).asString())) {
                fs.remove(i);
            }
        }
        update(owner.type(), next);
    }

    private void update(ResourceType type, ObjectNode next) {
        try {
            registry.update(type, Json.text(next, "metadata", "namespace"), Json.text(next, "metadata", "name"),
                    next, false, WriteOptions.DEFAULT);
        } catch (ApiException e) {
            if (e.code() != 404 && e.code() != 409) {
                throw e;
            }
        }
    }
}
