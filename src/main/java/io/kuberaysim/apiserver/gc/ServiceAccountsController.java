package io.kuberaysim.apiserver.gc;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.apiserver.storage.WatchEvent;
import tools.jackson.databind.node.ObjectNode;

import java.util.concurrent.Executor;

/**
 * kube-controller-manager's {@code serviceaccount-controller}: every namespace that is not terminating has a
 * {@code default} ServiceAccount, made when the namespace appears and made again when it is deleted. Pods that name
 * no ServiceAccount run as it (the ServiceAccount admission on Pod create requires it to exist).
 */
public final class ServiceAccountsController implements AutoCloseable {
    /** The ServiceAccount every namespace has. */
    public static final String DEFAULT_ACCOUNT = "default";

    private final GenericRegistry registry;
    private final ObjectStore store;
    private final Executor loop;
    private ObjectStore.Subscription namespaces;
    private ObjectStore.Subscription accounts;

    public ServiceAccountsController(GenericRegistry registry, Executor loop) {
        this.registry = registry;
        this.store = registry.store();
        this.loop = loop;
    }

    /** Watches namespaces and ServiceAccounts, then makes the accounts of the namespaces that exist already. */
    public void start() {
        namespaces = store.watch(ResourceTypes.NAMESPACES, 0, event -> {
            if (event.type() != WatchEvent.Type.DELETED) {
                String ns = event.object().name();
                loop.execute(() -> sync(ns));
            }
        });
        accounts = store.watch(ResourceTypes.SERVICEACCOUNTS, 0, event -> {
            StoredObject o = event.object();
            if (event.type() == WatchEvent.Type.DELETED && DEFAULT_ACCOUNT.equals(o.name())) {
                String ns = o.namespace();
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
            accounts.close();
        }
    }

    private void sync(String ns) {
        StoredObject namespace = store.get(ResourceTypes.NAMESPACES, null, ns);
        if (namespace == null || namespace.isDeleting()
                || store.get(ResourceTypes.SERVICEACCOUNTS, ns, DEFAULT_ACCOUNT) != null) {
            return;
        }
        ObjectNode account = Json.object();
        account.putObject("metadata").put("name", DEFAULT_ACCOUNT);
        ControllerManagerWrites.create(registry, ResourceTypes.SERVICEACCOUNTS, ns, account);
    }
}
