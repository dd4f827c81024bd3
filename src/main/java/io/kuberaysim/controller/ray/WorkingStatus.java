package io.kuberaysim.controller.ray;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import tools.jackson.databind.node.ObjectNode;

import java.time.Instant;

/**
 * The one status pattern of the three reconcilers, KubeRay's: a pass computes the new status from the old one
 * ({@code calculateStatus}, or the RayJob state machine editing a copy), and it is written only when KubeRay's
 * {@code inconsistentRay*Status} comparison says it changed; fields KubeRay sets only on a write
 * ({@code lastUpdateTime}, the RayJob's {@code endTime}) are filled in then.
 *
 * @param <S> the kind's status record
 */
public interface WorkingStatus<S> {

    /** KubeRay's {@code inconsistentRay*Status}: whether writing this status over {@code old} is a change. */
    boolean inconsistentWith(S old);

    /** The status record written at {@code writeTime}. */
    S toStatus(Instant writeTime);

    /**
     * Writes {@code next} over {@code current}'s status when it is inconsistent with {@code old}.
     *
     * @return the object as stored afterwards ({@code current} when nothing was written)
     */
    static <S> StoredObject write(KubeClient client, ResourceType type, StoredObject current, S old,
            WorkingStatus<S> next, Instant now) {
        if (!next.inconsistentWith(old)) {
            return current;
        }
        // a status write takes only status and the resourceVersion precondition from the body: no copy of the rest
        ObjectNode body = Json.object();
        body.put("apiVersion", current.apiVersion()).put("kind", current.kind());
        ObjectNode meta = body.putObject("metadata").put("name", current.name());
        if (!current.namespace().isEmpty()) {
            meta.put("namespace", current.namespace());
        }
        meta.put("resourceVersion", Long.toString(current.resourceVersion()));
        body.set("status", KubeClient.tree(next.toStatus(now)));
        return client.updateStatusBuilt(type, body);
    }
}
