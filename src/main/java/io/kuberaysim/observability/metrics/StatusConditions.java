package io.kuberaysim.observability.metrics;

import io.kuberaysim.apiserver.storage.StoredObject;
import tools.jackson.databind.JsonNode;

/** Reads {@code status.conditions} of a stored object as apimachinery's {@code meta.IsStatusConditionTrue} does. */
final class StatusConditions {
    private StatusConditions() {
    }

    /** Whether the condition of {@code type} is present with status {@code "True"}. */
    static boolean isTrue(StoredObject o, String type) {
        for (JsonNode c : o.object().path("status").path("conditions")) {
            if (type.equals(c.path("type").asString(""))) {
                return "True".equals(c.path("status").asString(""));
            }
        }
        return false;
    }
}
