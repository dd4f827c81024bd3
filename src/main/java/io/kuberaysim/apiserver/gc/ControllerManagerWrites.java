package io.kuberaysim.apiserver.gc;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.WriteOptions;
import tools.jackson.databind.node.ObjectNode;

/**
 * The writes of the controllers that keep every namespace's {@code default} ServiceAccount and
 * {@code kube-root-ca.crt}: made as kube-controller-manager (its field manager), and given up when they race with
 * another writer, since the next event of the namespace or object syncs it again.
 */
final class ControllerManagerWrites {
    static final String FIELD_MANAGER = "kube-controller-manager";
    private static final WriteOptions OPTIONS = WriteOptions.DEFAULT.withFieldManager(FIELD_MANAGER);

    private ControllerManagerWrites() {
    }

    /**
     * Creates {@code body}, leaving it be when another replica made it first (409), or the namespace went (404) or
     * began terminating (403) in the meantime.
     */
    static void create(GenericRegistry registry, ResourceType type, String ns, ObjectNode body) {
        try {
            registry.create(type, ns, body, OPTIONS);
        } catch (ApiException e) {
            if (e.code() != 409 && e.code() != 404 && e.code() != 403) {
                throw e;
            }
        }
    }

    /** Replaces the object with {@code body}, leaving it be when it changed (409) or went (404) in the meantime. */
    static void update(GenericRegistry registry, ResourceType type, String ns, String name, ObjectNode body) {
        try {
            registry.update(type, ns, name, body, false, OPTIONS);
        } catch (ApiException e) {
            if (e.code() != 409 && e.code() != 404) {
                throw e;
            }
        }
    }
}
