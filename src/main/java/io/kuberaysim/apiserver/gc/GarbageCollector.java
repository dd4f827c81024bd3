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
import io.kuberaysim.logging.LogValues;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * Garbage collection by ownerReferences, as kube-controller-manager's collector: dependents whose owners
 * (matched by uid) are all gone are deleted; an owner deleted in the foreground waits (finalizer
 * {@code foregroundDeletion}) until its blocking dependents are gone; an orphaning owner (finalizer
 * {@code orphan}) first strips itself from its dependents' ownerReferences. Works on store events, on the
 * control loop, and writes through the registry like any other client.
 */
public final class GarbageCollector implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(GarbageCollector.class);
    static final String FOREGROUND = "foregroundDeletion";
    static final String ORPHAN = "orphan";

    private final GenericRegistry registry;
    private final ObjectStore store;
    private final Executor loop;
    /** owner uid → dependents (by uid); only touched on the loop. */
    private final Map<String, Set<String>> dependents = new HashMap<>();
    private ObjectStore.Subscription subscription;

    public GarbageCollector(GenericRegistry registry, Executor loop) {
        this.registry = registry;
        this.store = registry.store();
        this.loop = loop;
    }

    public void start() {
        subscription = store.watch(null, 0, event -> loop.execute(() -> handle(event)));
    }

    @Override
    public void close() {
        if (subscription != null) {
            subscription.close();
        }
    }

    private void handle(WatchEvent event) {
        try {
            StoredObject obj = event.object();
            if (event.previous() != null) {
                unindex(event.previous());
            }
            if (event.type() == WatchEvent.Type.DELETED) {
                onGone(obj);
                return;
            }
            index(obj);
            checkOwners(obj);
            if (obj.isDeleting()) {
                processDeletingOwner(obj);
            }
        } catch (ApiException e) {
            log.debug("garbage collector: {} on {}", LogValues.escape(e.getMessage()), event);
        } catch (RuntimeException e) {
            log.warn("garbage collector: cannot handle {} {}: {}", event.type(), event.object(),
                    LogValues.escape(e.getMessage()));
        }
    }

    /**
     * Runs {@code work} for one dependent: a dependent the collector cannot handle (say, a write of it is refused
     * because its metadata is invalid) is logged and skipped, and its siblings are still collected.
     */
    private void forEachDependent(List<StoredObject> dependents, Consumer<StoredObject> work) {
        for (StoredObject d : dependents) {
            try {
                work.accept(d);
            } catch (RuntimeException e) {
                log.warn("garbage collector: skipping {} {}/{}: {}", d.type().kind(), d.namespace(), d.name(),
                        LogValues.escape(e.getMessage()));
            }
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
            forEachDependent(liveDependents(owner.uid()), d -> removeOwnerRef(d, owner.uid()));
            removeFinalizer(owner, ORPHAN);
            return;
        }
        if (hasFinalizer(owner.object(), FOREGROUND)) {
            boolean[] blocking = {false};
            forEachDependent(liveDependents(owner.uid()), d -> {
                if (blocksOwner(d, owner.uid())) {
                    blocking[0] = true;
                }
                if (!d.isDeleting()) {
                    deleteDependent(d, "Foreground");
                }
            });
            if (!blocking[0]) {
                removeFinalizer(owner, FOREGROUND);
            }
        }
    }

    private void onGone(StoredObject gone) {
        // its dependents may now be orphans; its owners waiting in the foreground may now be free
        forEachDependent(liveDependents(gone.uid()), this::checkOwners);
        dependents.remove(gone.uid());
        for (JsonNode ref : ownerRefs(gone.object())) {
            StoredObject owner = liveOwner(gone, ref);
            if (owner != null && owner.isDeleting()) {
                processDeletingOwner(owner);
            }
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

    private void removeOwnerRef(StoredObject d, String ownerUid) {
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
