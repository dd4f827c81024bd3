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
        return "Running".equals(Json.text(pod.object(), "status", "phase")) && isReady(pod);
    }

    /** Condition Ready=True, whatever the phase (kube's {@code podutil.IsPodReady}). */
    public static boolean isReady(StoredObject pod) {
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
