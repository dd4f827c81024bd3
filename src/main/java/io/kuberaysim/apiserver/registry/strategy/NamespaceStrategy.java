package io.kuberaysim.apiserver.registry.strategy;

import io.fabric8.kubernetes.api.model.Namespace;
import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.registry.ResourceStrategy;
import io.kuberaysim.apiserver.registry.SelectableFields;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.apiserver.validation.NameValidation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/** core/v1 Namespace: Active on create; Terminating on delete until its content is gone ({@code spec.finalizers}). */
public final class NamespaceStrategy implements ResourceStrategy {
    @Override
    public ResourceType type() {
        return ResourceTypes.NAMESPACES;
    }

    @Override
    public Class<?> model() {
        return Namespace.class;
    }

    @Override
    public List<String> validateName(String name) {
        return NameValidation.isDns1123Label(name);
    }

    @Override
    public boolean tracksGeneration() {
        return false;
    }

    /** kube-apiserver's store for this kind sets ReturnDeletedObject: a DELETE answers the object. */
    @Override
    public boolean returnDeletedObject() {
        return true;
    }

    @Override
    public void prepareForCreate(ObjectNode object, Instant now) {
        Json.child(object, "spec").putArray("finalizers").add("kubernetes");
        Json.child(object, "status").put("phase", "Active");
        Json.child(Json.child(object, "metadata"), "labels").put("kubernetes.io/metadata.name",
                Json.text(object, "metadata", "name"));
    }

    @Override
    public void prepareForUpdate(ObjectNode object, JsonNode old) {
        Json.child(Json.child(object, "metadata"), "labels").put("kubernetes.io/metadata.name",
                Json.text(old, "metadata", "name"));
    }

    /** kube-apiserver's NamespaceLifecycle admission keeps these namespaces forever. */
    private static final Set<String> IMMORTAL = Set.of("default", "kube-system", "kube-public");

    @Override
    public void checkDelete(StoredObject current) {
        if (IMMORTAL.contains(current.name())) {
            throw ApiException.forbidden(ResourceTypes.NAMESPACES, current.name(), "this namespace may not be deleted");
        }
    }

    @Override
    public void prepareForDelete(ObjectNode object) {
        Json.child(object, "status").put("phase", "Terminating");
    }

    @Override
    public boolean hasFinalizers(JsonNode object) {
        JsonNode spec = Json.at(object, "spec", "finalizers");
        return ResourceStrategy.super.hasFinalizers(object) || (spec != null && spec.isArray() && !spec.isEmpty());
    }

    /** kube-apiserver selects Namespaces by name and {@code status.phase} only. */
    @Override
    public Map<String, Function<JsonNode, String>> selectableFields() {
        return SelectableFields.with(SelectableFields.name(),
                Map.of("status.phase", SelectableFields.text("status", "phase")));
    }
}
