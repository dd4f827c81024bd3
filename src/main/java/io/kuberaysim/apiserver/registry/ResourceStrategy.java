package io.kuberaysim.apiserver.registry;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.schema.Schema;
import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.patch.MergeKeys;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.apiserver.validation.NameValidation;
import io.kuberaysim.apiserver.validation.TypedDecoding;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Everything that differs between resources, as kube-apiserver's per-resource strategies: defaults and
 * server-set fields on create, rules on update, validation, selectable fields and deletion behaviour.
 * The {@link GenericRegistry} applies the rules common to all resources and calls these hooks.
 */
public interface ResourceStrategy {

    ResourceType type();

    /** Structural schema used to prune unknown fields, apply defaults and check types; null = not modelled. */
    default Schema schema() {
        return null;
    }

    /** Errors for {@code metadata.name}; DNS-1123 subdomain by default. */
    default List<String> validateName(String name) {
        return NameValidation.isDns1123Subdomain(name);
    }

    /**
     * The typed model kube-apiserver decodes this kind into (a fabric8 model class): a value of the wrong type
     * anywhere in a body is a decoding error, as in Go. Null for kinds without one (custom resources are checked
     * against their structural {@link #schema()}, with only their metadata typed).
     */
    default Class<?> model() {
        return null;
    }

    /**
     * Fields of {@code object} that its kind does not have, named as kube-apiserver's strict decoding names them
     * ({@code spec.containers[0].resorces}); {@code metadata} is checked for every kind elsewhere. {@code old} is the
     * stored version written over (null for a create): only what differs from it is looked at. By default the
     * fields the {@link #model()} does not declare.
     */
    default List<String> unknownFields(ObjectNode object, JsonNode old) {
        Class<?> model = model();
        return model == null ? List.of() : TypedDecoding.unknownFields(object, old, model);
    }

    /**
     * The admission plugins of this kind on create, after defaulting and before validation, with read access to what
     * is stored (e.g. a Pod's ServiceAccount must exist); refuses by throwing an {@code ApiException}.
     */
    default void admitCreate(ObjectNode object, String namespace, ObjectStore stored) {
    }

    /** Sets server-owned fields of a new object (status was already dropped if the type has a status subresource). */
    default void prepareForCreate(ObjectNode object, Instant now) {
    }

    /** Adjusts an update of the main resource; {@code old} is the stored state. */
    default void prepareForUpdate(ObjectNode object, JsonNode old) {
    }

    /** Resource-specific validation of a new object. */
    default List<StatusCause> validate(ObjectNode object) {
        return List.of();
    }

    /** Resource-specific validation of an update (immutable fields and the like). */
    default List<StatusCause> validateUpdate(ObjectNode object, JsonNode old) {
        return validate(object);
    }

    /** Resource-specific validation of a write of the status subresource; {@code old} is the stored state. */
    default List<StatusCause> validateStatusUpdate(ObjectNode object, JsonNode old) {
        return List.of();
    }

    /** Warnings about an accepted create or update (kube-apiserver's {@code WarningsOnCreate/OnUpdate}). */
    default List<String> warnings(ObjectNode object) {
        return List.of();
    }

    /** Whether metadata.generation is maintained (custom resources and most workload kinds). */
    default boolean tracksGeneration() {
        return true;
    }

    /** Built-ins accept a PUT without resourceVersion; custom resources do not. */
    default boolean allowUnconditionalUpdate() {
        return !type().isCustomResource();
    }

    /**
     * Whether a DELETE that removed the object answers the object (kube-apiserver's {@code ReturnDeletedObject}:
     * Pods, Services, Namespaces, ServiceAccounts) rather than a Success Status naming it (every other kind,
     * custom resources included).
     */
    default boolean returnDeletedObject() {
        return false;
    }

    /** Warnings a DELETE of one object or of a collection answers with, given its options. */
    default List<String> deleteWarnings(DeleteOptions options) {
        return List.of();
    }

    /** Policy used when a DELETE names none. */
    default String defaultPropagationPolicy() {
        return "Background";
    }

    /** Seconds the object lingers as terminating after a DELETE (null or 0 = removed at once). */
    default Long gracePeriodSeconds(StoredObject current, Long requested) {
        return null;
    }

    /** Refuses the DELETE of an existing object (admission), e.g. a namespace that may not be deleted. */
    default void checkDelete(StoredObject current) {
    }

    /** Marks an object as being deleted (e.g. a Namespace becomes Terminating). */
    default void prepareForDelete(ObjectNode object) {
    }

    /** Finalizers that still hold the object; a namespace also counts {@code spec.finalizers}. */
    default boolean hasFinalizers(JsonNode object) {
        JsonNode f = Json.at(object, "metadata", "finalizers");
        return f != null && f.isArray() && !f.isEmpty();
    }

    /** Whether strategic merge patch applies (built-ins only), and with which list merge keys. */
    default MergeKeys mergeKeys() {
        return type().isCustomResource() ? null : MergeKeys.builtins();
    }

    /**
     * How long an object lives after its last write before it is deleted (kube-apiserver's {@code TTLFunc}, an etcd
     * lease per write); null = for ever. Every create and update starts the time again.
     */
    default Duration timeToLive() {
        return null;
    }

    /**
     * The fields {@code ?fieldSelector=} accepts, with their extractors (see {@link SelectableFields}); by default
     * {@code metadata.name}, and {@code metadata.namespace} for namespaced types, as for custom resources.
     */
    default Map<String, Function<JsonNode, String>> selectableFields() {
        return type().namespaced() ? SelectableFields.nameAndNamespace() : SelectableFields.name();
    }
}
