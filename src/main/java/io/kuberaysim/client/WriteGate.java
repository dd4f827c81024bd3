package io.kuberaysim.client;

import io.kuberaysim.api.ResourceType;

/**
 * Decides whether a client's write reaches the API server: the simulation's API fault injection refuses some of the
 * operator's writes with 409 or 500, as an overloaded or conflicting API server would, without touching the HTTP
 * server or the store.
 */
@FunctionalInterface
public interface WriteGate {
    /** Lets every write through. */
    WriteGate OPEN = (verb, type, namespace, name) -> { };

    /**
     * Called before each write.
     *
     * @param verb create, update, patch or delete
     * @throws io.kuberaysim.apiserver.errors.ApiException to fail the write as the API server would
     */
    void admit(String verb, ResourceType type, String namespace, String name);
}
