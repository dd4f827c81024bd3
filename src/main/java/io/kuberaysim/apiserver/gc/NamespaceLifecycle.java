package io.kuberaysim.apiserver.gc;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.registry.DeleteOptions;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.WriteOptions;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.apiserver.storage.WatchEvent;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * The namespace controller: a Terminating namespace has its content deleted, then its {@code kubernetes}
 * finalizer removed, which lets the registry remove it. Only changes of a Terminating namespace and of the objects in
 * one are handed to the loop (every other change would be a task that looks the namespace up and stops).
 */
public final class NamespaceLifecycle implements AutoCloseable {
    private final GenericRegistry registry;
    private final ObjectStore store;
    private final Executor loop;
    private final List<ResourceType> namespacedTypes;
    /** The namespaces seen Terminating and not yet removed, kept by the watch listener in revision order. */
    private final Set<String> terminating = ConcurrentHashMap.newKeySet();
    private ObjectStore.Subscription subscription;

    public NamespaceLifecycle(GenericRegistry registry, Executor loop, List<ResourceType> types) {
        this.registry = registry;
        this.store = registry.store();
        this.loop = loop;
        this.namespacedTypes = types.stream().filter(ResourceType::namespaced).toList();
    }

    public void start() {
        subscription = store.watch(null, 0, this::onEvent);
        // a store that outlived a server (etcd) may hold one already; watching first, so none is missed
        for (StoredObject ns : store.list(ResourceTypes.NAMESPACES, null).items()) {
            if (ns.isDeleting()) {
                terminating.add(ns.name());
            }
        }
    }

    @Override
    public void close() {
        if (subscription != null) {
            subscription.close();
        }
    }

    private void onEvent(WatchEvent event) {
        StoredObject o = event.object();
        String ns;
        if (o.type().equals(ResourceTypes.NAMESPACES)) {
            ns = o.name();
            if (event.type() == WatchEvent.Type.DELETED) {
                terminating.remove(ns);
                return;
            }
            if (!o.isDeleting()) {
                return; // a deletionTimestamp once set stays
            }
            terminating.add(ns);
        } else {
            ns = o.namespace();
            if (ns == null || !terminating.contains(ns)) {
                return;
            }
        }
        loop.execute(() -> handle(ns));
    }

    private void handle(String ns) {
        StoredObject namespace = store.get(ResourceTypes.NAMESPACES, null, ns);
        if (namespace == null || !namespace.isDeleting()) {
            return;
        }
        boolean empty = true;
        for (ResourceType type : namespacedTypes) {
            for (StoredObject item : store.list(type, ns).items()) {
                empty = false;
                if (!item.isDeleting()) {
                    try {
                        registry.delete(type, ns, item.name(), DeleteOptions.propagation("Background"));
                    } catch (ApiException e) {
                        if (e.code() != 404) {
                            throw e;
                        }
                    }
                }
            }
        }
        if (empty && Json.at(namespace.object(), "spec", "finalizers") != null) {
            ObjectNode next = namespace.copy();
            ((ObjectNode) next.get("spec")).remove("finalizers");
            try {
                registry.update(ResourceTypes.NAMESPACES, null, ns, next, false, WriteOptions.DEFAULT);
            } catch (ApiException e) {
                if (e.code() != 404 && e.code() != 409) {
                    throw e;
                }
            }
        }
    }
}
