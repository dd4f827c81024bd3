package io.kuberaysim.client;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.registry.DeleteOptions;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.ListOptions;
import io.kuberaysim.apiserver.registry.PatchType;
import io.kuberaysim.apiserver.registry.PodBinding;
import io.kuberaysim.apiserver.registry.WriteOptions;
import io.kuberaysim.apiserver.storage.StoredObject;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * The in-process client used by controllers, the simulated cluster and the demo. It goes through the same
 * registry as HTTP requests, so it obeys the same validation, conflicts, finalizers and watch events.
 * Reads answer the latest stored state.
 */
public final class KubeClient {
    private final GenericRegistry registry;
    private final WriteOptions writes;
    private final WriteGate gate;

    public KubeClient(GenericRegistry registry) {
        this(registry, null);
    }

    /** @param fieldManager the manager of this client's writes in metadata.managedFields; null for none */
    public KubeClient(GenericRegistry registry, String fieldManager) {
        this(registry, WriteOptions.DEFAULT.withFieldManager(fieldManager), WriteGate.OPEN);
    }

    private KubeClient(GenericRegistry registry, WriteOptions writes, WriteGate gate) {
        this.registry = registry;
        this.writes = writes;
        this.gate = gate;
    }

    /** The same client writing as another field manager (the kubelet, the scheduler, ...), with no gate. */
    public KubeClient as(String fieldManager) {
        return new KubeClient(registry, fieldManager);
    }

    /** The same client whose writes first pass {@code gate} (reads are not gated). */
    public KubeClient gated(WriteGate gate) {
        return new KubeClient(registry, writes, gate);
    }

    public GenericRegistry registry() {
        return registry;
    }

    /** The object, or null when it does not exist. */
    public StoredObject get(ResourceType type, String namespace, String name) {
        return registry.store().get(type, type.namespaced() ? namespace : null, name);
    }

    /** Objects of a type in a namespace (null = all) matching a label selector (null = all). */
    public List<StoredObject> list(ResourceType type, String namespace, String labelSelector) {
        return registry.reader().list(type, namespace, ListOptions.labels(labelSelector)).items();
    }

    public StoredObject create(ResourceType type, String namespace, ObjectNode object) {
        gate.admit("create", type, namespace, Json.text(object, "metadata", "name"));
        return registry.create(type, namespace, object, writes).object();
    }

    /**
     * Creates from a tree built for this create alone, which becomes the new object's tree: not copied first (as
     * {@link #create} copies its argument), and changed by the create whether it succeeds or not. For controllers
     * that build an object, create it and let it go.
     */
    public StoredObject createBuilt(ResourceType type, String namespace, ObjectNode object) {
        gate.admit("create", type, namespace, Json.text(object, "metadata", "name"));
        return registry.createDecoded(type, namespace, object, writes).object();
    }

    /** PUT of the whole object; its metadata.resourceVersion is the precondition. */
    public StoredObject update(ResourceType type, ObjectNode object) {
        gate.admit("update", type, Json.text(object, "metadata", "namespace"), Json.text(object, "metadata", "name"));
        return registry.update(type, Json.text(object, "metadata", "namespace"), Json.text(object, "metadata", "name"),
                object, false, writes).object();
    }

    /** PUT of the status subresource. */
    public StoredObject updateStatus(ResourceType type, ObjectNode object) {
        gate.admit("update", type, Json.text(object, "metadata", "namespace"), Json.text(object, "metadata", "name"));
        return registry.update(type, Json.text(object, "metadata", "namespace"), Json.text(object, "metadata", "name"),
                object, true, writes).object();
    }

    /**
     * PUT of the status subresource from a body built for this write alone: its status is taken as it is, not
     * copied, and is changed by the write (pruned and defaulted in place) whether it succeeds or not.
     */
    public StoredObject updateStatusBuilt(ResourceType type, ObjectNode object) {
        gate.admit("update", type, Json.text(object, "metadata", "namespace"), Json.text(object, "metadata", "name"));
        return registry.updateDecoded(type, Json.text(object, "metadata", "namespace"),
                Json.text(object, "metadata", "name"), object, true, writes).object();
    }

    public StoredObject patch(ResourceType type, String namespace, String name, PatchType patchType, JsonNode patch) {
        gate.admit("patch", type, namespace, name);
        return registry.patch(type, namespace, name, patchType, patch, false, writes).object();
    }

    public StoredObject patchStatus(ResourceType type, String namespace, String name, JsonNode mergePatch) {
        gate.admit("patch", type, namespace, name);
        return registry.patch(type, namespace, name, PatchType.MERGE, mergePatch, true, writes).object();
    }

    /**
     * Binds a Pod to a node through {@code pods/binding}, as kube-scheduler does: one write of {@code spec.nodeName}
     * and the {@code PodScheduled} condition, outside field management.
     */
    public StoredObject bind(String namespace, String name, String node) {
        gate.admit("create", ResourceTypes.PODS, namespace, name);
        return new PodBinding(registry).bind(namespace, name, node);
    }

    /** Deletes with the given options; false when the object was already gone. */
    public boolean delete(ResourceType type, String namespace, String name, DeleteOptions options) {
        gate.admit("delete", type, namespace, name);
        try {
            registry.delete(type, namespace, name, options);
            return true;
        } catch (ApiException e) {
            if (e.code() == 404) {
                return false;
            }
            throw e;
        }
    }

    /** Background deletion, as KubeRay and kubectl do by default. */
    public boolean delete(ResourceType type, String namespace, String name) {
        return delete(type, namespace, name, DeleteOptions.propagation("Background"));
    }

    /** Binds a stored tree to a model type (e.g. a fabric8 Pod or a KubeRay spec record). */
    public static <T> T read(JsonNode node, Class<T> type) {
        return Json.MAPPER.treeToValue(node, type);
    }

    /** The tree of a model object, ready to be written. */
    public static ObjectNode tree(Object value) {
        return Json.MAPPER.valueToTree(value);
    }
}
