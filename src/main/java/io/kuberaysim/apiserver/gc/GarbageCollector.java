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
            log.debug("garbage collector: {} on {}", e.getMessage(), event);
        }
    }

    private void index(StoredObject o) {
        for (JsonNode ref : ownerRefs(o.object())) {
            dependents.computeIfAbsent(ref.path("uid").asString(), k -> new LinkedHashSet<>()).add(o.uid());
        }
    }

    private void unindex(StoredObject o) {
        for (JsonNode ref : ownerRefs(o.object())) {
            Set<String> s = dependents.get(ref.path("uid").asString());
            if (s != null) {
                s.remove(o.uid());
                if (s.isEmpty()) {
                    dependents.remove(ref.path("uid").asString());
                }
            }
        }
    }

    private static List<JsonNode> ownerRefs(JsonNode obj) {
        JsonNode refs = Json.at(obj, "metadata", "ownerReferences");
        List<JsonNode> out = new ArrayList<>();
        if (refs != null && refs.isArray()) {
            refs.forEach(out::add);
        }
        return out;
    }

    /** An owner is alive when an object with its uid exists in the dependent's namespace or cluster-wide. */
    private StoredObject liveOwner(StoredObject dependent, JsonNode ref) {
        StoredObject owner = store.getByUid(ref.path("uid").asString());
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
            for (StoredObject d : liveDependents(owner.uid())) {
                removeOwnerRef(d, owner.uid());
            }
            removeFinalizer(owner, ORPHAN);
            return;
        }
        if (hasFinalizer(owner.object(), FOREGROUND)) {
            boolean blocking = false;
            for (StoredObject d : liveDependents(owner.uid())) {
                if (!d.isDeleting()) {
                    deleteDependent(d, "Foreground");
                }
                if (blocksOwner(d, owner.uid())) {
                    blocking = true;
                }
            }
            if (!blocking) {
                removeFinalizer(owner, FOREGROUND);
            }
        }
    }

    private void onGone(StoredObject gone) {
        // its dependents may now be orphans; its owners waiting in the foreground may now be free
        for (StoredObject d : liveDependents(gone.uid())) {
            checkOwners(d);
        }
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
            if (ownerUid.equals(ref.path("uid").asString()) && ref.path("blockOwnerDeletion").asBoolean(false)) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasFinalizer(JsonNode obj, String name) {
        JsonNode fs = Json.at(obj, "metadata", "finalizers");
        if (fs != null) {
            for (JsonNode f : fs) {
                if (name.equals(f.asString())) {
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
            if (ownerUid.equals(refs.get(i).path("uid").asString())) {
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
            if (finalizer.equals(fs.get(i).asString())) {
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
