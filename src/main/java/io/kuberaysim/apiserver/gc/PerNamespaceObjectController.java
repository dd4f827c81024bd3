package io.kuberaysim.apiserver.gc;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.apiserver.storage.WatchEvent;

import java.util.concurrent.Executor;

/**
 * A kube-controller-manager controller that keeps one object in every namespace that is not terminating (the
 * {@code default} ServiceAccount, the root CA ConfigMap): on the control loop it syncs a namespace when the namespace
 * appears or changes, when the kept object changes as {@link #needsSync} says, and every namespace once at start.
 */
abstract class PerNamespaceObjectController implements AutoCloseable {
    protected final GenericRegistry registry;
    protected final ObjectStore store;
    private final Executor loop;
    private final ResourceType keptType;
    private ObjectStore.Subscription namespaces;
    private ObjectStore.Subscription kept;

    PerNamespaceObjectController(GenericRegistry registry, Executor loop, ResourceType keptType) {
        this.registry = registry;
        this.store = registry.store();
        this.loop = loop;
        this.keptType = keptType;
    }

    /** Watches namespaces and the kept objects' type, then syncs the namespaces that exist already. */
    public void start() {
        namespaces = store.watch(ResourceTypes.NAMESPACES, 0, event -> {
            if (event.type() != WatchEvent.Type.DELETED) {
                String ns = event.object().name();
                loop.execute(() -> sync(ns));
            }
        });
        kept = store.watch(keptType, 0, event -> {
            if (needsSync(event)) {
                String ns = event.object().namespace();
                loop.execute(() -> sync(ns));
            }
        });
        loop.execute(() -> {
            for (StoredObject ns : store.list(ResourceTypes.NAMESPACES, null).items()) {
                sync(ns.name());
            }
        });
    }

    @Override
    public void close() {
        if (namespaces != null) {
            namespaces.close();
            kept.close();
        }
    }

    /** Whether a change of an object of the kept type may need its namespace synced. */
    abstract boolean needsSync(WatchEvent event);

    /** Makes or puts back the kept object of {@code ns}, if the namespace exists and is not terminating. */
    abstract void sync(String ns);

    /** Whether {@code ns} exists and is not terminating. */
    boolean namespaceActive(String ns) {
        StoredObject namespace = store.get(ResourceTypes.NAMESPACES, null, ns);
        return namespace != null && !namespace.isDeleting();
    }
}
