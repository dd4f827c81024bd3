package io.kuberaysim.controller.runtime;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.storage.StoredObject;
import tools.jackson.databind.JsonNode;

/** Readings of a Pod's status that controllers share. */
public final class PodConditions {
    private PodConditions() {
    }

    /** Phase Running and condition Ready=True (KubeRay's {@code IsRunningAndReady}). */
    public static boolean isRunningAndReady(StoredObject pod) {
        if (!"Running".equals(Json.text(pod.object(), "status", "phase"))) {
            return false;
        }
        JsonNode conds = Json.at(pod.object(), "status", "conditions");
        if (conds != null && conds.isArray()) {
            for (JsonNode c : conds) {
                if ("Ready".equals(Json.text(c, "type"))) {
                    return "True".equals(Json.text(c, "status"));
                }
            }
        }
        return false;
    }
}
