package io.kuberaysim.controller.runtime;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.storage.StoredObject;
import tools.jackson.databind.node.ObjectNode;

/**
 * The controller ownerReference controller-runtime's {@code controllerutil.SetControllerReference} writes: the owner
 * link the garbage collector follows.
 */
public final class OwnerReferences {
    private OwnerReferences() {
    }

    /** A controller ownerReference to {@code owner} ({@code controller} and {@code blockOwnerDeletion} true). */
    public static ObjectNode controllerReference(StoredObject owner) {
        ObjectNode ref = Json.object();
        ref.put("apiVersion", owner.type().apiVersion());
        ref.put("kind", owner.type().kind());
        ref.put("name", owner.name());
        ref.put("uid", owner.uid());
        ref.put("controller", true);
        ref.put("blockOwnerDeletion", true);
        return ref;
    }
}
