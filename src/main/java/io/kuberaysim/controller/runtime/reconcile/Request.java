package io.kuberaysim.controller.runtime.reconcile;

import java.util.Objects;

/**
 * What to reconcile: the namespace and name of one object, never an event. Reconcilers are
 * level-based and read the current state themselves.
 *
 * @param namespace namespace of the object; empty for cluster-scoped objects
 * @param name      name of the object
 */
public record Request(String namespace, String name) {

    /** Normalizes a missing namespace to the empty string so cluster-scoped keys compare equal. */
    public Request {
        namespace = namespace == null ? "" : namespace;
        Objects.requireNonNull(name, "name");
    }

    /** A request for a cluster-scoped object. */
    public static Request clusterScoped(String name) {
        return new Request("", name);
    }

    /** {@code namespace/name}, or {@code name} when cluster-scoped, as Kubernetes prints object keys. */
    @Override
    public String toString() {
        return namespace.isEmpty() ? name : namespace + "/" + name;
    }
}
