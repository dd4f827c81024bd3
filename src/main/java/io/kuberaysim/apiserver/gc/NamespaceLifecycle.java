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
import java.util.concurrent.Executor;

/**
 * The namespace controller: a Terminating namespace has its content deleted, then its {@code kubernetes}
 * finalizer removed, which lets the registry remove it.
 */
public final class NamespaceLifecycle implements AutoCloseable {
    private final GenericRegistry registry;
    private final ObjectStore store;
    private final Executor loop;
    private final List<ResourceType> namespacedTypes;
    private ObjectStore.Subscription subscription;

    public NamespaceLifecycle(GenericRegistry registry, Executor loop, List<ResourceType> types) {
        this.registry = registry;
        this.store = registry.store();
        this.loop = loop;
        this.namespacedTypes = types.stream().filter(ResourceType::namespaced).toList();
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
        StoredObject o = event.object();
        String ns = o.type().equals(ResourceTypes.NAMESPACES) ? o.name() : o.namespace();
        if (ns == null || ns.isEmpty()) {
            return;
        }
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
