package io.kuberaysim.apiserver.registry;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.apiserver.validation.TypedDecoding;
import io.kuberaysim.controller.runtime.clock.Timestamps;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code pods/binding} subresource as kube-apiserver's {@code BindingREST}: one storage write sets
 * {@code spec.nodeName} and the {@code PodScheduled=True} condition together, straight through storage, so neither
 * field management nor the Pod's update rules are involved (the Pod's managedFields are unchanged and its watchers see
 * one MODIFIED event). A Pod that is being deleted or is already assigned is a 409 Conflict on {@code pods/binding}.
 * {@link #create} takes a {@code v1 Binding} as {@code POST pods/{name}/binding} and {@code POST bindings} receive it.
 */
public final class PodBinding {
    private final GenericRegistry registry;

    public PodBinding(GenericRegistry registry) {
        this.registry = registry;
    }

    /** Assigns the Pod to {@code node}; answers the Pod as stored. */
    public StoredObject bind(String namespace, String name, String node) {
        return bind(namespace, name, node, Map.of(), null, null, false);
    }

    /**
     * A {@code v1 Binding} sent to {@code pods/{pathName}/binding} ({@code pathName} null for the {@code bindings}
     * collection, where the Binding names the Pod), checked as kube-apiserver's BindingREST checks it: the name must
     * match the path's (400), {@code target.kind} must be {@code Node} or empty and {@code target.name} set (422 here;
     * kube-apiserver answers these two with a 500, see the README), {@code metadata.uid} and
     * {@code resourceVersion} are preconditions on the Pod (409), and {@code metadata.annotations} are added to the
     * Pod's. A dry run checks everything and writes nothing.
     */
    public void create(String namespace, String pathName, ObjectNode binding, boolean dryRun) {
        checkTypeMeta(binding);
        JsonNode meta = binding.get("metadata");
        String name = text(meta, "name");
        String bodyNamespace = text(meta, "namespace");
        if (!bodyNamespace.isEmpty() && !bodyNamespace.equals(namespace)) {
            throw ApiException.badRequest(
                    "the namespace of the provided object does not match the namespace sent on the request");
        }
        StoredObject ns = registry.store().get(ResourceTypes.NAMESPACES, null, namespace);
        if (ns == null) {
            throw ApiException.namespaceNotFound(namespace);
        }
        if (pathName != null && !pathName.equals(name)) {
            throw ApiException.badRequest("name in URL does not match name in Binding object");
        }
        List<StatusCause> causes = new ArrayList<>();
        String kind = text(binding.get("target"), "kind");
        if (!kind.isEmpty() && !kind.equals("Node")) {
            causes.add(StatusCause.notSupported("target.kind", kind, List.of("Node", "<empty>")));
        }
        String node = text(binding.get("target"), "name");
        if (node.isEmpty()) {
            causes.add(StatusCause.required("target.name"));
        }
        if (!causes.isEmpty()) {
            throw ApiException.invalid("Binding", "Binding", "", name, causes);
        }
        if (name.isEmpty()) {
            throw ApiException.badRequest("Name parameter required.");
        }
        Map<String, String> annotations = new java.util.LinkedHashMap<>();
        JsonNode given = meta == null ? null : meta.get("annotations");
        if (given != null && given.isObject()) {
            given.properties().forEach(e -> annotations.put(e.getKey(), e.getValue().asString("")));
        }
        bind(namespace, name, node, annotations, emptyToNull(text(meta, "uid")),
                emptyToNull(text(meta, "resourceVersion")), dryRun);
    }

    private StoredObject bind(String namespace, String name, String node, Map<String, String> annotations,
                              String uid, String resourceVersion, boolean dryRun) {
        String now = Timestamps.seconds(registry.now());
        if (dryRun) {
            StoredObject current = registry.store().get(ResourceTypes.PODS, namespace, name);
            if (current == null) {
                throw ApiException.notFound(ResourceTypes.PODS, name);
            }
            checkPreconditions(current, uid, resourceVersion);
            bound(current, node, annotations, now);
            return current;
        }
        try {
            return registry.store().guaranteedUpdate(ResourceTypes.PODS, namespace, name, current -> {
                checkPreconditions(current, uid, resourceVersion);
                return ObjectStore.UpdateResult.replace(bound(current, node, annotations, now));
            });
        } catch (ObjectStore.KeyNotFoundException e) {
            throw ApiException.notFound(ResourceTypes.PODS, name);
        }
    }

    /** A Binding of another kind or version is refused as the decoder refuses it (400). */
    private static void checkTypeMeta(ObjectNode binding) {
        String kind = Json.text(binding, "kind");
        if (kind != null && !kind.isEmpty() && !kind.equals("Binding")) {
            throw ApiException.badRequest("Binding in version \"v1\" cannot be handled as a Binding: the kind in the "
                    + "body (" + kind + ") does not match the expected kind (Binding)");
        }
        String apiVersion = Json.text(binding, "apiVersion");
        if (apiVersion != null && !apiVersion.isEmpty() && !apiVersion.equals("v1")) {
            throw ApiException.badRequest("the API version in the data (" + apiVersion
                    + ") does not match the expected API version (v1)");
        }
        TypedDecoding.check(binding, io.fabric8.kubernetes.api.model.Binding.class).ifPresent(m -> {
            throw ApiException.badRequest("Binding in version \"v1\" cannot be handled as a Binding: " + m.goMessage());
        });
    }

    /** Storage's precondition failure as kube-apiserver words it: a 409 on pods. */
    private static void checkPreconditions(StoredObject current, String uid, String resourceVersion) {
        String failed = null;
        if (uid != null && !uid.equals(current.uid())) {
            failed = "UID in precondition: " + uid + ", UID in object meta: " + current.uid();
        } else if (resourceVersion != null && !resourceVersion.equals(Long.toString(current.resourceVersion()))) {
            failed = "ResourceVersion in precondition: " + resourceVersion + ", ResourceVersion in object meta: "
                    + current.resourceVersion();
        }
        if (failed != null) {
            throw ApiException.conflict(ResourceTypes.PODS, current.name(), "StorageError: invalid object, Code: 4, "
                    + "Key: /registry/pods/" + current.namespace() + "/" + current.name() + ", ResourceVersion: 0, "
                    + "AdditionalErrorMsg: Precondition failed: " + failed);
        }
    }

    private static String text(JsonNode node, String field) {
        String value = node == null ? null : Json.text(node, field);
        return value == null ? "" : value;
    }

    private static String emptyToNull(String s) {
        return s.isEmpty() ? null : s;
    }

    /** The Pod assigned to {@code node}: only the objects on the changed paths are new, the rest is shared. */
    private static ObjectNode bound(StoredObject current, String node, Map<String, String> annotations, String now) {
        if (current.isDeleting()) {
            throw conflict(current.name(), "pod " + current.name() + " is being deleted, cannot be assigned to a host");
        }
        String assigned = Json.text(current.object(), "spec", "nodeName");
        if (assigned != null && !assigned.isEmpty()) {
            throw conflict(current.name(), "pod " + current.name() + " is already assigned to node \"" + assigned + "\"");
        }
        ObjectNode next = shallowCopy(current.object());
        ObjectNode meta = shallowCopy(current.object().get("metadata")); // the store stamps it
        if (!annotations.isEmpty()) {
            ObjectNode merged = shallowCopy(meta.get("annotations"));
            annotations.forEach(merged::put);
            meta.set("annotations", merged);
        }
        next.set("metadata", meta);
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
