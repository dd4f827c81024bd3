package io.kuberaysim.controller.runtime;

import io.kuberaysim.api.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * controller-runtime's {@code controllerutil.AddFinalizer}/{@code RemoveFinalizer} on an object's copy about to be
 * written back; {@link io.kuberaysim.apiserver.storage.StoredObject#hasFinalizer} is {@code ContainsFinalizer}.
 */
public final class Finalizers {
    private Finalizers() {
    }

    /** Appends {@code finalizer} to {@code metadata.finalizers} unless present; returns whether it changed. */
    public static boolean add(ObjectNode object, String finalizer) {
        ObjectNode meta = Json.child(object, "metadata");
        ArrayNode fins = meta.get("finalizers") instanceof ArrayNode a ? a : meta.putArray("finalizers");
        for (JsonNode f : fins) {
            if (finalizer.equals(f.asString(""))) {
                return false;
            }
        }
        fins.add(finalizer);
        return true;
    }

    /** Removes every {@code finalizer} from {@code metadata.finalizers}; returns whether it changed. */
    public static boolean remove(ObjectNode object, String finalizer) {
        if (!(Json.at(object, "metadata", "finalizers") instanceof ArrayNode fins)) {
            return false;
        }
        boolean changed = false;
        for (int i = fins.size() - 1; i >= 0; i--) {
            if (finalizer.equals(fins.get(i).asString(""))) {
                fins.remove(i);
                changed = true;
            }
        }
        return changed;
    }
}
