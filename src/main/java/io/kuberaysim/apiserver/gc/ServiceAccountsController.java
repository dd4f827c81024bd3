package io.kuberaysim.apiserver.gc;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.storage.WatchEvent;
import tools.jackson.databind.node.ObjectNode;

import java.util.concurrent.Executor;

/**
 * kube-controller-manager's {@code serviceaccount-controller}: every namespace that is not terminating has a
 * {@code default} ServiceAccount, made when the namespace appears and made again when it is deleted. Pods that name
 * no ServiceAccount run as it (the ServiceAccount admission on Pod create requires it to exist).
 */
public final class ServiceAccountsController extends PerNamespaceObjectController {
    /** The ServiceAccount every namespace has. */
    public static final String DEFAULT_ACCOUNT = "default";

    public ServiceAccountsController(GenericRegistry registry, Executor loop) {
        super(registry, loop, ResourceTypes.SERVICEACCOUNTS);
    }

    @Override
    boolean needsSync(WatchEvent event) {
        return event.type() == WatchEvent.Type.DELETED && DEFAULT_ACCOUNT.equals(event.object().name());
    }

    @Override
    void sync(String ns) {
        if (!namespaceActive(ns) || store.get(ResourceTypes.SERVICEACCOUNTS, ns, DEFAULT_ACCOUNT) != null) {
            return;
        }
        ObjectNode account = Json.object();
        account.putObject("metadata").put("name", DEFAULT_ACCOUNT);
        ControllerManagerWrites.create(registry, ResourceTypes.SERVICEACCOUNTS, ns, account);
    }
}
