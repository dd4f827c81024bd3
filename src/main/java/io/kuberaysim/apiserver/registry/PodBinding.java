package io.kuberaysim.apiserver.registry;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.runtime.clock.Timestamps;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Map;

/**
 * The {@code pods/binding} subresource as kube-apiserver's {@code BindingREST}: one storage write sets
 * {@code spec.nodeName} and the {@code PodScheduled=True} condition together, straight through storage, so neither
 * field management nor the Pod's update rules are involved (the Pod's managedFields are unchanged and its watchers see
 * one MODIFIED event). A Pod that is being deleted or is already assigned is a 409 Conflict on {@code pods/binding}.
 */
public final class PodBinding {
    private final GenericRegistry registry;

    public PodBinding(GenericRegistry registry) {
        this.registry = registry;
    }

    /** Assigns the Pod to {@code node}; answers the Pod as stored. */
    public StoredObject bind(String namespace, String name, String node) {
        String now = Timestamps.seconds(registry.now());
        try {
            return registry.store().guaranteedUpdate(ResourceTypes.PODS, namespace, name,
                    current -> ObjectStore.UpdateResult.replace(bound(current, node, now)));
        } catch (ObjectStore.KeyNotFoundException e) {
            throw ApiException.notFound(ResourceTypes.PODS, name);
        }
    }

    /** The Pod assigned to {@code node}: only the objects on the changed paths are new, the rest is shared. */
    private static ObjectNode bound(StoredObject current, String node, String now) {
        if (current.isDeleting()) {
            throw conflict(current.name(), "pod " + current.name() + " is being deleted, cannot be assigned to a host");
        }
        String assigned = Json.text(current.object(), "spec", "nodeName");
        if (assigned != null && !assigned.isEmpty()) {
            throw conflict(current.name(), "pod " + current.name() + " is already assigned to node \"" + assigned + "\"");
        }
        ObjectNode next = shallowCopy(current.object());
        next.set("metadata", shallowCopy(current.object().get("metadata"))); // the store stamps it
        next.set("spec", shallowCopy(current.object().get("spec")).put("nodeName", node));
        ObjectNode status = shallowCopy(current.object().get("status"));
        status.set("conditions", withScheduled(status.get("conditions"), now));
        next.set("status", status);
        return next;
    }

    /**
     * The conditions with {@code PodScheduled=True} (podutil.UpdatePodCondition): a new condition is appended; an
     * existing one is replaced, keeping its transition time when its status was already True.
     */
    private static ArrayNode withScheduled(JsonNode conditions, String now) {
        ArrayNode out = Json.MAPPER.createArrayNode();
        boolean replaced = false;
        if (conditions != null && conditions.isArray()) {
            for (JsonNode c : conditions) {
                if ("PodScheduled".equals(Json.text(c, "type")) && !replaced) {
                    String since = "True".equals(Json.text(c, "status")) && Json.text(c, "lastTransitionTime") != null
                            ? Json.text(c, "lastTransitionTime") : now;
                    out.add(scheduled(since));
                    replaced = true;
                } else {
                    out.add(c);
                }
            }
        }
        if (!replaced) {
            out.add(scheduled(now));
        }
        return out;
    }

    private static ObjectNode scheduled(String since) {
        ObjectNode c = Json.object();
        c.put("type", "PodScheduled").put("status", "True").putNull("lastProbeTime").put("lastTransitionTime", since);
        return c;
    }

    private static ObjectNode shallowCopy(JsonNode node) {
        ObjectNode out = Json.object();
        if (node != null && node.isObject()) {
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                out.set(e.getKey(), e.getValue());
            }
        }
        return out;
    }

    private static ApiException conflict(String name, String why) {
        return new ApiException(409, "Conflict", "Operation cannot be fulfilled on pods/binding \"" + name + "\": " + why,
                new ApiException.StatusDetails(name, "", "pods/binding", null, List.of(), null));
    }
}
