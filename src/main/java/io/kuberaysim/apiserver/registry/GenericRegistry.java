package io.kuberaysim.apiserver.registry;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.fieldmanager.FieldManager;
import io.kuberaysim.apiserver.patch.JsonPatch;
import io.kuberaysim.apiserver.patch.MergeKeys;
import io.kuberaysim.apiserver.patch.MergePatch;
import io.kuberaysim.apiserver.patch.PatchException;
import io.kuberaysim.apiserver.patch.StrategicMergePatch;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.apiserver.storage.ObjectStore.UpdateResult;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.apiserver.validation.NameValidation;
import io.kuberaysim.apiserver.validation.TypedDecoding;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.clock.Timestamps;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The create/update/patch/delete pipeline shared by every resource, as kube-apiserver's generic registry
 * store: namespace checks, schema pruning and defaulting, server-set metadata, generation, the status
 * subresource split, optimistic concurrency, finalizers, graceful deletion and dry runs. Per-resource rules
 * come from {@link ResourceStrategy}; reads and watches are in {@link ResourceReader}.
 */
public final class GenericRegistry {

    private final ObjectStore store;
    private final Map<ResourceType, ResourceStrategy> strategies;
    private final Clock clock;
    private final IdentityStreams random;
    private final SchemaCheck schemaCheck = new SchemaCheck();
    private final UpdateStrategy mainUpdates = new MainUpdateStrategy(schemaCheck);
    private final UpdateStrategy statusUpdates = new StatusUpdateStrategy(schemaCheck);
    private final ResourceReader reader;
    private final Map<ResourceType, FieldManager> fieldManagers;
    /** Types whose strategy leaves an update as it is (the default prepareForUpdate): see {@link #patch}. */
    private final java.util.Set<ResourceType> updatesKeptAsWritten;

    public GenericRegistry(ObjectStore store, List<ResourceStrategy> strategies, Clock clock,
                           IdentityStreams random) {
        this.store = store;
        Map<ResourceType, ResourceStrategy> m = new java.util.LinkedHashMap<>();
        strategies.forEach(s -> m.put(s.type(), s));
        this.strategies = Map.copyOf(m);
        this.clock = clock;
        this.random = random;
        this.reader = new ResourceReader(store, this.strategies, clock);
        Map<ResourceType, FieldManager> f = new java.util.HashMap<>();
        this.strategies.forEach((t, s) -> f.put(t, new FieldManager(t, s.mergeKeys())));
        this.fieldManagers = Map.copyOf(f);
        this.updatesKeptAsWritten = this.strategies.values().stream().filter(GenericRegistry::leavesUpdatesAlone)
                .map(ResourceStrategy::type).collect(java.util.stream.Collectors.toUnmodifiableSet());
    }

    /** Whether {@code s} keeps the default {@code prepareForUpdate}, which changes nothing. */
    private static boolean leavesUpdatesAlone(ResourceStrategy s) {
        try {
            return s.getClass().getMethod("prepareForUpdate", ObjectNode.class, JsonNode.class).getDeclaringClass()
                    == ResourceStrategy.class;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    public ObjectStore store() {
        return store;
    }

    public ResourceReader reader() {
        return reader;
    }

    /** Every served resource's strategy. */
    public java.util.Collection<ResourceStrategy> strategies() {
        return strategies.values();
    }

    public ResourceStrategy strategy(ResourceType type) {
        ResourceStrategy s = strategies.get(type);
        if (s == null) {
            throw ApiException.pathNotFound();
        }
        return s;
    }

    public Instant now() {
        return clock.now().truncatedTo(ChronoUnit.SECONDS);
    }

    // ---------------------------------------------------------------- create

    /** Creates an object from {@code body}, which is left as it is (the caller may still hold it). */
    public WriteResult create(ResourceType type, String namespace, ObjectNode body, WriteOptions options) {
        return createFrom(type, namespace, body.deepCopy(), null, options);
    }

    /**
     * Creates an object from a body decoded for this create alone (a request's), which becomes the new object's
     * tree: not copied first (~3 % of an HTTP create's server time), and changed whether the create succeeds or not.
     */
    public WriteResult createDecoded(ResourceType type, String namespace, ObjectNode decoded, WriteOptions options) {
        return createFrom(type, namespace, decoded, null, options);
    }

    /**
     * @param obj     the new object's tree, owned by this create
     * @param applied the server-side apply configuration {@code obj} was copied from (its manager gets an Apply
     *                entry), or null
     */
    private WriteResult createFrom(ResourceType type, String namespace, ObjectNode obj, ObjectNode applied,
                                   WriteOptions options) {
        refuseReadOnly(type);
        ResourceStrategy strategy = strategy(type);
        boolean namedInBody = Json.text(obj, "metadata", "name") != null;
        checkTypeMeta(type, obj);
        decode(strategy, obj, null);
        ObjectNode meta = Json.child(obj, "metadata");
        String ns = resolveNamespace(type, namespace, meta);
        List<String> warnings = new ArrayList<>();
        obj = schemaCheck.apply(strategy, obj, true, null, options, warnings, nameForErrors(meta));
        meta = Json.child(obj, "metadata");

        String name = Json.text(meta, "name");
        String generateName = Json.text(meta, "generateName");
        if ((name == null || name.isEmpty()) && generateName != null && !generateName.isEmpty()) {
            name = generateName(generateName);
            meta.put("name", name);
        }
        List<StatusCause> causes = new ArrayList<>(validateMetadata(strategy, meta, name, generateName));
        if (!causes.isEmpty()) {
            throw ApiException.invalid(type, name == null ? "" : name, causes);
        }
        if (type.namespaced()) {
            meta.put("namespace", ns);
        } else {
            meta.remove("namespace");
        }
        meta.put("uid", newUid(random.uidsOf(type, name)));
        meta.put("creationTimestamp", Timestamps.seconds(clock.now()));
        meta.remove("resourceVersion");
        meta.remove("deletionTimestamp");
        meta.remove("deletionGracePeriodSeconds");
        meta.remove("managedFields");
        meta.remove("selfLink");
        if (strategy.tracksGeneration()) {
            meta.put("generation", 1);
        } else {
            meta.remove("generation");
        }
        if (type.statusSubresource()) {
            obj.remove("status");
        }
        strategy.prepareForCreate(obj, now());
        // what admission adds belongs to no manager: kube-apiserver records the request's fields before admission
        FieldManager fields = fieldManagers.get(type);
        ArrayNode managed = applied != null
                ? fields.apply(null, (ObjectNode) withoutNulls(applied), options.fieldManager(), true, now()).managedFields()
                : fields.update(null, obj, options.fieldManager(), false, now());
        strategy.admitCreate(obj, ns, store);
        causes.addAll(strategy.validate(obj));
        if (!causes.isEmpty()) {
            throw ApiException.invalid(type, name, causes);
        }
        warnings.addAll(MetadataValidation.warnings(meta, type));
        warnings.addAll(strategy.warnings(obj));
        if (!managed.isEmpty()) {
            meta.set("managedFields", managed);
        }
        if (options.dryRun()) {
            return new WriteResult(ResourceReader.unstored(type, obj), warnings, true);
        }
        try {
            StoredObject stored = store.create(type, obj);
            fields.stored(stored.object());
            return new WriteResult(stored, warnings, true);
        } catch (ObjectStore.KeyExistsException e) {
            if (!namedInBody && generateName != null) {
                throw ApiException.generateNameConflict(type, name);
            }
            throw ApiException.alreadyExists(type, name);
        }
    }

    /**
     * kube-apiserver decodes a request body into its Go type before anything else: a value of the wrong type
     * (a string for an integer, a malformed quantity) is a 400 naming the Go field, e.g. {@code Pod in version
     * "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field
     * PodSpec.spec.terminationGracePeriodSeconds of type int64}. Custom resources have only their metadata typed.
     */
    private static void decode(ResourceStrategy strategy, ObjectNode obj, ObjectNode stored) {
        mismatch(strategy, obj, stored).ifPresent(m -> {
            ResourceType type = strategy.type();
            throw ApiException.badRequest(type.kind() + " in version \"" + type.version() + "\" cannot be handled as a "
                    + type.kind() + ": " + m.goMessage());
        });
    }

    /** The same decoding after a patch: kube-apiserver answers 422 with the patched object as the value. */
    private static void decodePatched(ResourceStrategy strategy, ObjectNode patched, ObjectNode stored) {
        mismatch(strategy, patched, stored).ifPresent(m -> {
            throw ApiException.invalid("", "", "", "",
                    List.of(StatusCause.invalid("patch", patched.toString(), m.goMessage())));
        });
    }

    /**
     * Why {@code obj} does not decode, if it does not. {@code stored} is the version it is written over (null for a
     * create): every stored version decoded when it was written, so only what differs from it is decoded again.
     */
    private static Optional<TypedDecoding.Mismatch> mismatch(ResourceStrategy strategy, ObjectNode obj,
                                                             ObjectNode stored) {
        Class<?> model = strategy.model();
        if (model != null) {
            return TypedDecoding.check(obj, stored, model);
        }
        JsonNode meta = obj.get("metadata");
        if (meta == null) {
            return Optional.empty();
        }
        return TypedDecoding.check(metadataOnly(meta), stored == null ? null : metadataOnly(stored.get("metadata")),
                GenericKubernetesResource.class);
    }

    private static ObjectNode metadataOnly(JsonNode meta) {
        ObjectNode out = Json.object();
        if (meta != null) {
            out.set("metadata", meta);
        }
        return out;
    }

    private static String nameForErrors(JsonNode meta) {
        String n = Json.text(meta, "name");
        return n == null ? "" : n;
    }

    private void checkTypeMeta(ResourceType type, ObjectNode obj) {
        String apiVersion = Json.text(obj, "apiVersion");
        String kind = Json.text(obj, "kind");
        if (kind != null && !kind.equals(type.kind())) {
            throw ApiException.badRequest(type.kind() + " in version \"" + type.version()
                    + "\" cannot be handled as a " + type.kind() + ": the kind in the body (" + kind
                    + ") does not match the expected kind (" + type.kind() + ")");
        }
        if (apiVersion != null && !apiVersion.equals(type.apiVersion())) {
            throw ApiException.badRequest("the API version in the data (" + apiVersion
                    + ") does not match the expected API version (" + type.apiVersion() + ")");
        }
        if (apiVersion == null || kind == null || !startsWithTypeMeta(obj)) {
            ObjectNode ordered = Json.object();
            ordered.put("apiVersion", type.apiVersion());
            ordered.put("kind", type.kind());
            obj.properties().forEach(e -> {
                if (!e.getKey().equals("apiVersion") && !e.getKey().equals("kind")) {
                    ordered.set(e.getKey(), e.getValue());
                }
            });
            obj.removeAll();
            obj.setAll(ordered);
        }
        JsonNode meta = obj.get("metadata");
        if (meta != null && !meta.isObject()) {
            throw ApiException.badRequest(type.kind() + " in version \"" + type.version() + "\" cannot be handled as a "
                    + type.kind() + ": metadata must be an object");
        }
    }

    /**
     * Whether {@code obj}'s first fields are {@code apiVersion} then {@code kind}, as clients send them: with their
     * texts checked, it is then in the stored order and form as it is, without being rebuilt.
     */
    private static boolean startsWithTypeMeta(ObjectNode obj) {
        java.util.Iterator<String> names = obj.propertyNames().iterator();
        return names.hasNext() && names.next().equals("apiVersion") && names.hasNext() && names.next().equals("kind");
    }

    private String resolveNamespace(ResourceType type, String namespace, ObjectNode meta) {
        if (!type.namespaced()) {
            return null;
        }
        String bodyNs = Json.text(meta, "namespace");
        if (bodyNs != null && !bodyNs.isEmpty() && !bodyNs.equals(namespace)) {
            throw ApiException.badRequest(
                    "the namespace of the provided object does not match the namespace sent on the request");
        }
        StoredObject nsObj = store.get(ResourceTypes.NAMESPACES, null, namespace);
        if (nsObj == null) {
            throw ApiException.namespaceNotFound(namespace);
        }
        if (nsObj.isDeleting()) {
            throw ApiException.forbidden(type, Json.text(meta, "name"),
                    "unable to create new content in namespace " + namespace + " because it is being terminated");
        }
        return namespace;
    }

    private String generateName(String prefix) {
        java.util.random.RandomGenerator r = random.names();
        synchronized (r) {
            return NameValidation.generateName(prefix, r);
        }
    }

    private static String newUid(java.util.random.RandomGenerator r) {
        long hi;
        long lo;
        synchronized (r) {
            hi = r.nextLong();
            lo = r.nextLong();
        }
        hi = (hi & 0xffffffffffff0fffL) | 0x0000000000004000L; // version 4
        lo = (lo & 0x3fffffffffffffffL) | 0x8000000000000000L; // IETF variant
        return new java.util.UUID(hi, lo).toString();
    }

    /** A write of a read-only type (the CRDs) is a verb the resource does not serve. */
    private static void refuseReadOnly(ResourceType type) {
        if (ResourceTypes.isReadOnly(type)) {
            throw ApiException.methodNotAllowed();
        }
    }

    private List<StatusCause> validateMetadata(ResourceStrategy strategy, ObjectNode meta, String name,
                                               String generateName) {
        List<StatusCause> causes = new ArrayList<>();
        if (name == null || name.isEmpty()) {
            causes.add(new StatusCause("FieldValueRequired", "Required value: name or generateName is required",
                    "metadata.name"));
        } else {
            for (String msg : strategy.validateName(name)) {
                causes.add(StatusCause.invalid("metadata.name", name, msg));
            }
        }
        causes.addAll(MetadataValidation.validate(meta, strategy.type()));
        return causes;
    }

    // ---------------------------------------------------------------- update and patch

    /** PUT of the main resource ({@code status=false}) or of its status subresource. */
    public WriteResult update(ResourceType type, String namespace, String name, ObjectNode body, boolean status,
                              WriteOptions options) {
        return update(type, namespace, name, body, false, status, options);
    }

    /**
     * As {@link #update}, from a body decoded or built for this write alone, which the write may take as its own:
     * a status write takes its status as it is instead of copying it (it is pruned and defaulted in place), so the
     * body is changed whether the write succeeds or not.
     */
    public WriteResult updateDecoded(ResourceType type, String namespace, String name, ObjectNode decoded,
                                     boolean status, WriteOptions options) {
        return update(type, namespace, name, decoded, true, status, options);
    }

    private WriteResult update(ResourceType type, String namespace, String name, ObjectNode body, boolean ownBody,
                               boolean status, WriteOptions options) {
        refuseReadOnly(type);
        ResourceStrategy strategy = strategy(type);
        // only the top level is changed here (type meta first); each attempt's update strategy copies what it takes
        ObjectNode input = body.objectNode().setAll(body);
        checkTypeMeta(type, input);
        StoredObject stored = store.get(type, type.namespaced() ? namespace : null, name);
        decode(strategy, input, stored == null ? null : stored.object());
        ObjectNode meta = Json.child(input, "metadata");
        String bodyName = Json.text(meta, "name");
        if (bodyName != null && !bodyName.equals(name)) {
            throw ApiException.badRequest("the name of the object (" + bodyName
                    + ") does not match the name on the URL (" + name + ")");
        }
        if (type.namespaced()) {
            String bodyNs = Json.text(meta, "namespace");
            if (bodyNs != null && !bodyNs.isEmpty() && !bodyNs.equals(namespace)) {
                throw ApiException.badRequest(
                        "the namespace of the provided object does not match the namespace sent on the request");
            }
        }
        String rv = Json.text(meta, "resourceVersion");
        if ((rv == null || rv.isEmpty()) && !strategy.allowUnconditionalUpdate()) {
            throw ApiException.invalid(type.groupResource(), type.kind(), type.group(), name,
                    List.of(new StatusCause("FieldValueInvalid", "Invalid value: 0x0: must be specified for an update",
                            "metadata.resourceVersion")));
        }
        List<String> warnings = new ArrayList<>();
        UpdateStrategy updates = updateStrategy(status);
        return write(type, namespace, name, options,
                current -> ownBody ? updates.fromOwnBody(strategy, current, input, options, warnings)
                        : updates.fromBody(strategy, current, input, options, warnings), updates, warnings,
                updateEntries(type, options, status));
    }

    /** PATCH of the main resource or of its status subresource; apply patches create absent objects. */
    public WriteResult patch(ResourceType type, String namespace, String name, PatchType patchType, JsonNode patch,
                             boolean status, WriteOptions options) {
        refuseReadOnly(type);
        ResourceStrategy strategy = strategy(type);
        MergeKeys mergeKeys = strategy.mergeKeys();
        checkPatch(patchType, patch, options, mergeKeys);
        UpdateStrategy updates = updateStrategy(status);
        if (patchType == PatchType.APPLY && updates.applyCreates() && store.get(type, namespace, name) == null) {
            ObjectNode obj = ((ObjectNode) patch).deepCopy();
            Json.child(obj, "metadata").put("name", name);
            try {
                return createFrom(type, namespace, obj.deepCopy(), obj, options);
            } catch (ApiException e) {
                if (!"AlreadyExists".equals(e.reason())) {
                    throw e;
                }
            }
        }
        List<String> warnings = new ArrayList<>();
        if (patchType == PatchType.APPLY && !status) {
            // server-side apply: the merge and the managedFields come from the field manager
            ArrayNode[] managed = new ArrayNode[1];
            return write(type, namespace, name, options, current -> {
                FieldManager.Applied applied = fieldManagers.get(type).apply(current.object(),
                        (ObjectNode) withoutNulls(patch), options.fieldManager(), Boolean.TRUE.equals(options.force()),
                        now());
                managed[0] = applied.managedFields();
                ObjectNode merged = applied.object();
                checkPatchedTypeMeta(type, merged);
                decodePatched(strategy, merged, current.object());
                return updates.fromPatched(strategy, current, merged, false, options, warnings);
            }, updates, warnings, (current, next) -> managed[0]);
        }
        return write(type, namespace, name, options, current -> {
            // a merge patch shares what it does not reach with its target; a /status write only reads the patched
            // tree (its status is copied), so the stored tree will do. So does a merge patch of the main resource
            // when nothing after it changes the tree below its root and metadata (the resource's strategy leaves
            // updates as written): the stored parts it keeps were checked when stored, are not copied, checked or
            // frozen again. Other writes change the tree and need a copy.
            boolean readOnly = status && (patchType == PatchType.MERGE || patchType == PatchType.APPLY);
            boolean keepsStored = !status && patchType == PatchType.MERGE && updatesKeptAsWritten.contains(type);
            ObjectNode patched = applyPatch(type, readOnly || keepsStored ? current.object() : current.copy(),
                    patchType, patch, mergeKeys);
            if (keepsStored) {
                ownMetadata(patched);
            }
            decodePatched(strategy, patched, current.object());
            checkPatchedIdentity(type, namespace, name, patched);
            // new nodes where the patch reaches, each once; elsewhere the copy's, or the stored object's parts
            boolean ownTree = patchType == PatchType.MERGE && !readOnly;
            return updates.fromPatched(strategy, current, patched, ownTree, options, warnings);
        }, updates, warnings, updateEntries(type, options, status));
    }

    /**
     * Checks a patch request and applies it to {@code current} (left unchanged; the result is wholly new): for a
     * version served from another version's storage, whose patches apply to the served form.
     */
    public ObjectNode applyPatch(ResourceType type, ObjectNode current, PatchType patchType, JsonNode patch,
                                 WriteOptions options, MergeKeys mergeKeys) {
        checkPatch(patchType, patch, options, mergeKeys);
        // the caller changes the result further: none of it may be shared with a stored tree
        return applyPatch(type, current.deepCopy(), patchType, patch, mergeKeys);
    }

    private static void checkPatch(PatchType patchType, JsonNode patch, WriteOptions options, MergeKeys mergeKeys) {
        if (patchType == PatchType.APPLY && (options.fieldManager() == null || options.fieldManager().isEmpty())) {
            throw ApiException.invalid("PatchOptions.meta.k8s.io", "PatchOptions", "meta.k8s.io", "",
                    List.of(new StatusCause("FieldValueRequired", "Required value: is required for apply patch",
                            "fieldManager")));
        }
        if (patchType != PatchType.APPLY && options.force() != null) {
            throw ApiException.invalid("PatchOptions.meta.k8s.io", "PatchOptions", "meta.k8s.io", "",
                    List.of(StatusCause.forbidden("force", "may not be specified for non-apply patch")));
        }
        if (patchType == PatchType.STRATEGIC && mergeKeys == null) {
            throw ApiException.unsupportedMediaType(List.of(PatchType.JSON.contentType(),
                    PatchType.MERGE.contentType(), PatchType.APPLY.contentType()));
        }
        if (patchType == PatchType.MERGE && !patch.isObject()) {
            // kube-apiserver decodes a merge patch into a map first (the words a client's user searches for when
            // a JSON patch list went out as a merge patch); null decodes, and then json-patch refuses it
            throw ApiException.badRequest(patch.isNull() ? "Invalid JSON Patch"
                    : "error decoding patch: json: cannot unmarshal " + goJsonType(patch)
                            + " into Go value of type map[string]interface {}");
        }
        if (patchType == PatchType.JSON ? !patch.isArray() : !patch.isObject()) {
            throw ApiException.badRequest(patchType == PatchType.JSON
                    ? "json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp"
                    : "the body of the request must be a JSON object for " + patchType.contentType());
        }
        if (patchType == PatchType.JSON) {
            for (JsonNode op : patch) {
                if (!op.isObject()) {
                    // jsonpatch.DecodePatch fails on it before anything is applied
                    throw ApiException.badRequest("json: cannot unmarshal " + goJsonType(op)
                            + " into Go value of type jsonpatch.Operation");
                }
            }
        }
    }

    /** How Go's encoding/json names a JSON value's type in an UnmarshalTypeError. */
    private static String goJsonType(JsonNode value) {
        return value.isArray() ? "array" : value.isObject() ? "object" : value.isString() ? "string"
                : value.isNumber() ? "number" : value.isBoolean() ? "bool" : "null";
    }

    private ObjectNode applyPatch(ResourceType type, ObjectNode current, PatchType patchType, JsonNode patch,
                                  MergeKeys mergeKeys) {
        JsonNode result;
        try {
            result = switch (patchType) {
                case JSON -> JsonPatch.apply(current, patch);
                case MERGE -> MergePatch.apply(current, patch);
                case APPLY -> MergePatch.apply(current, withoutNulls(patch));
                case STRATEGIC -> StrategicMergePatch.apply(current, patch, mergeKeys);
            };
        } catch (PatchException e) {
            throw new ApiException(422, "Invalid", e.getMessage(), null);
        }
        if (!(result instanceof ObjectNode o)) {
            throw ApiException.badRequest("the patch turned the object into something that is not an object");
        }
        checkPatchedTypeMeta(type, o);
        return o;
    }

    /**
     * A patch may not move an object to another kind or version: 422 as apiextensions-apiserver's
     * {@code ValidateTypeMeta} answers ({@code apiVersion: Invalid value: "ray.io/v2": must be ray.io/v1}).
     * Removing either field is refused for custom resources too; a built-in gets them back from the URL, as
     * kube-apiserver's typed decoding fills them in.
     */
    private static void checkPatchedTypeMeta(ResourceType type, ObjectNode patched) {
        List<StatusCause> causes = new ArrayList<>();
        String kind = Json.text(patched, "kind");
        String apiVersion = Json.text(patched, "apiVersion");
        boolean restore = !type.isCustomResource();
        if (kind == null ? !restore : !kind.equals(type.kind())) {
            causes.add(StatusCause.invalid("kind", typeMetaValue(patched.get("kind")), "must be " + type.kind()));
        }
        if (apiVersion == null ? !restore : !apiVersion.equals(type.apiVersion())) {
            causes.add(StatusCause.invalid("apiVersion", typeMetaValue(patched.get("apiVersion")),
                    "must be " + type.apiVersion()));
        }
        if (!causes.isEmpty()) {
            throw ApiException.invalid(type, nameForErrors(Json.child(patched, "metadata")), causes);
        }
        if (kind == null || apiVersion == null) {
            ObjectNode rest = patched.deepCopy();
            rest.remove(List.of("apiVersion", "kind"));
            patched.removeAll();
            patched.put("apiVersion", type.apiVersion());
            patched.put("kind", type.kind());
            patched.setAll(rest);
        }
    }

    /**
     * Gives {@code patched} a metadata object of its own, sharing the stored one's fields: the update sets the
     * server-owned fields (resourceVersion, generation, managedFields) in it, and a patch that did not reach the
     * metadata left the stored, read-only one in place.
     */
    private static void ownMetadata(ObjectNode patched) {
        JsonNode meta = patched.get("metadata");
        if (meta instanceof ObjectNode m && m.getClass() != ObjectNode.class) {
            ObjectNode own = Json.object();
            m.properties().forEach(e -> own.set(e.getKey(), e.getValue()));
            patched.set("metadata", own);
        }
    }

    /**
     * A patch may not rename or move the object: 400 with kube-apiserver's messages, where the stored name and
     * namespace would otherwise silently win over what the client asked for.
     */
    private static void checkPatchedIdentity(ResourceType type, String namespace, String name, ObjectNode patched) {
        JsonNode meta = patched.get("metadata");
        String ns = Json.text(meta, "namespace");
        if (type.namespaced() && ns != null && !ns.isEmpty() && !ns.equals(namespace)) {
            throw ApiException.badRequest(
                    "the namespace of the provided object does not match the namespace sent on the request");
        }
        String patchedName = Json.text(meta, "name");
        if (patchedName == null || !patchedName.equals(name)) {
            throw ApiException.badRequest("the name of the object (" + (patchedName == null ? "" : patchedName)
                    + ") does not match the name on the URL (" + name + ")");
        }
    }

    private static String typeMetaValue(JsonNode value) {
        return value == null || value.isNull() ? "" : value.isString() ? value.asString() : value.toString();
    }

    private static JsonNode withoutNulls(JsonNode node) {
        if (node.isObject()) {
            ObjectNode copy = Json.object();
            node.properties().forEach(e -> {
                if (!e.getValue().isNull()) {
                    copy.set(e.getKey(), withoutNulls(e.getValue()));
                }
            });
            return copy;
        }
        return node;
    }

    /** The main resource's update strategy, or the status subresource's. */
    private UpdateStrategy updateStrategy(boolean status) {
        return status ? statusUpdates : mainUpdates;
    }

    /** The managedFields an update stores, given the current state and the next one. */
    @FunctionalInterface
    private interface ManagedFieldsRule {
        ArrayNode of(StoredObject current, ObjectNode next);
    }

    /** Update entries: the writer's manager (fieldManager or User-Agent) owns what it set or changed. */
    private ManagedFieldsRule updateEntries(ResourceType type, WriteOptions options, boolean status) {
        return (current, next) -> fieldManagers.get(type).update(current.object(), next, options.fieldManager(),
                status, now());
    }

    /** Computes the next state from the request, given the current state. */
    @FunctionalInterface
    private interface NextState {
        ObjectNode from(StoredObject current);
    }

    private WriteResult write(ResourceType type, String namespace, String name, WriteOptions options,
                              NextState nextState, UpdateStrategy updates, List<String> warnings,
                              ManagedFieldsRule managedFields) {
        ResourceStrategy strategy = strategy(type);
        String ns = type.namespaced() ? namespace : null;
        ObjectStore.UpdateFunction fn = current -> {
            warnings.clear();
            ObjectNode next = nextState.from(current);
            return finishUpdate(strategy, current, next, updates, warnings, managedFields);
        };
        if (options.dryRun()) {
            StoredObject current = store.get(type, ns, name);
            if (current == null) {
                throw ApiException.notFound(type, name);
            }
            UpdateResult r = fn.apply(current);
            return new WriteResult(r.delete() ? current : ResourceReader.unstored(type, r.next()), warnings, false);
        }
        try {
            StoredObject stored = store.guaranteedUpdate(type, ns, name, fn);
            return new WriteResult(stored, List.copyOf(warnings), false);
        } catch (ObjectStore.KeyNotFoundException e) {
            throw ApiException.notFound(type, name);
        }
    }

    private UpdateResult finishUpdate(ResourceStrategy strategy, StoredObject current, ObjectNode next,
                                      UpdateStrategy updates, List<String> warnings, ManagedFieldsRule managedFields) {
        ResourceType type = strategy.type();
        ObjectNode old = current.object();
        ObjectNode meta = Json.child(next, "metadata");
        String rv = Json.text(meta, "resourceVersion");
        if (rv != null && !rv.isEmpty() && !rv.equals(Long.toString(current.resourceVersion()))) {
            throw ApiException.modifiedConflict(type, current.name());
        }
        JsonNode oldMeta = old.get("metadata");
        for (String f : List.of("name", "namespace", "uid", "creationTimestamp", "deletionTimestamp",
                "deletionGracePeriodSeconds", "generation")) {
            JsonNode v = oldMeta.get(f);
            if (v == null) {
                meta.remove(f);
            } else {
                meta.set(f, v);
            }
        }
        meta.remove("managedFields");
        List<StatusCause> causes = updates.prepareAndValidate(strategy, current, next, warnings);
        if (!causes.isEmpty()) {
            throw ApiException.invalid(type, current.name(), causes);
        }
        // the last finalizer gone ends a deletion only once its grace period is over (the kubelet deletes a Pod with
        // grace 0 when its containers stopped), as kube-apiserver's shouldDeleteDuringUpdate
        if (current.isDeleting() && !strategy.hasFinalizers(next) && deletionGrace(current.object()) == 0) {
            return UpdateResult.deleteObject();
        }
        ArrayNode managed = managedFields.of(current, next);
        if (managed != null && !managed.isEmpty()) {
            meta.set("managedFields", managed);
        }
        return UpdateResult.replace(next);
    }

    // ---------------------------------------------------------------- delete

    public DeleteResult delete(ResourceType type, String namespace, String name, DeleteOptions options) {
        refuseReadOnly(type);
        ResourceStrategy strategy = strategy(type);
        String ns = type.namespaced() ? namespace : null;
        String finalizer = propagationFinalizer(strategy, options);
        StoredObject current = store.get(type, ns, name);
        if (current == null) {
            throw ApiException.notFound(type, name);
        }
        strategy.checkDelete(current);
        checkPreconditions(type, current, options);
        Long grace = strategy.gracePeriodSeconds(current, options.gracePeriodSeconds());
        boolean graceful = grace != null && grace > 0;
        if (finalizer == null && !graceful && !strategy.hasFinalizers(current.object()) && !current.isDeleting()) {
            if (options.dryRun()) {
                return new DeleteResult(current, true);
            }
            try {
                StoredObject last = store.delete(type, ns, name, c -> checkPreconditions(type, c, options));
                return new DeleteResult(last, true);
            } catch (ObjectStore.KeyNotFoundException e) {
                throw ApiException.notFound(type, name);
            }
        }
        String fin = finalizer;
        boolean[] removed = {false};
        ObjectStore.UpdateFunction fn = c -> {
            removed[0] = false;
            checkPreconditions(type, c, options);
            ObjectNode next = c.copy();
            ObjectNode meta = Json.child(next, "metadata");
            addPropagationFinalizer(meta, fin);
            Instant now = now();
            if (!c.isDeleting()) {
                beginDeletion(strategy, next, graceful ? grace : 0, now);
            } else if (options.gracePeriodSeconds() != null && grace != null && grace < deletionGrace(c.object())) {
                // a shorter grace period brings the deletion forward; at 0 the object goes once no finalizer holds it
                meta.put("deletionTimestamp", now.plusSeconds(grace).toString());
                meta.put("deletionGracePeriodSeconds", grace);
                if (grace == 0 && !strategy.hasFinalizers(next)) {
                    removed[0] = true;
                    return UpdateResult.deleteObject();
                }
            } else if (options.gracePeriodSeconds() != null && options.gracePeriodSeconds() == 0
                    && !strategy.hasFinalizers(next)) {
                removed[0] = true;
                return UpdateResult.deleteObject();
            }
            return UpdateResult.replace(next);
        };
        if (options.dryRun()) {
            UpdateResult r = fn.apply(current);
            return new DeleteResult(r.delete() ? current : ResourceReader.unstored(type, r.next()), r.delete());
        }
        try {
            StoredObject after = store.guaranteedUpdate(type, ns, name, fn);
            return new DeleteResult(after, removed[0]);
        } catch (ObjectStore.KeyNotFoundException e) {
            throw ApiException.notFound(type, name);
        }
    }

    /**
     * The finalizer the deletion's propagation policy asks for ({@code orphan}, {@code foregroundDeletion}, or null
     * for Background), as kube-apiserver's deletionFinalizersForGarbageCollection; an unknown policy is 422.
     */
    private static String propagationFinalizer(ResourceStrategy strategy, DeleteOptions options) {
        String policy = options.propagationPolicy();
        if (policy == null && options.orphanDependents() != null) {
            policy = options.orphanDependents() ? "Orphan" : "Background";
        }
        if (policy == null) {
            policy = strategy.defaultPropagationPolicy();
        }
        if (!List.of("Foreground", "Background", "Orphan").contains(policy)) {
            throw ApiException.invalid("DeleteOptions.meta.k8s.io", "DeleteOptions", "meta.k8s.io", "",
                    List.of(new StatusCause("FieldValueNotSupported", "Unsupported value: \"" + policy
                            + "\": supported values: \"Foreground\", \"Background\", \"Orphan\"",
                            "propagationPolicy")));
        }
        return switch (policy) {
            case "Orphan" -> "orphan";
            case "Foreground" -> "foregroundDeletion";
            default -> null;
        };
    }

    private static void addPropagationFinalizer(ObjectNode meta, String fin) {
        if (fin == null || hasFinalizer(meta, fin)) {
            return;
        }
        ArrayNode fs = meta.has("finalizers") && meta.get("finalizers").isArray()
                ? (ArrayNode) meta.get("finalizers") : meta.putArray("finalizers");
        // a later delete may switch between orphan and foreground, as kube-apiserver allows
        removeFinalizer(fs, fin.equals("orphan") ? "foregroundDeletion" : "orphan");
        fs.add(fin);
    }

    /**
     * Marks {@code next} as deleting in {@code grace} seconds (rest.BeforeDelete): graceful deletion and finalizers
     * are independent, so a Pod deleted in the foreground (or with its own finalizers) still gets its grace period.
     */
    private static void beginDeletion(ResourceStrategy strategy, ObjectNode next, long grace, Instant now) {
        ObjectNode meta = Json.child(next, "metadata");
        meta.put("deletionTimestamp", now.plusSeconds(grace).toString());
        meta.put("deletionGracePeriodSeconds", grace);
        if (strategy.tracksGeneration() && meta.has("generation")) {
            meta.put("generation", meta.get("generation").asLong() + 1);
        }
        strategy.prepareForDelete(next);
    }

    /** A deleting object's {@code metadata.deletionGracePeriodSeconds}; 0 when absent. */
    private static long deletionGrace(JsonNode object) {
        return object.path("metadata").path("deletionGracePeriodSeconds").asLong(0);
    }

    /** Removes every object of a collection matching the selectors; answers the items as they were handled. */
    public List<DeleteResult> deleteCollection(ResourceType type, String namespace, ListOptions listOptions,
                                               DeleteOptions options) {
        refuseReadOnly(type);
        List<DeleteResult> results = new ArrayList<>();
        for (StoredObject o : reader.list(type, namespace, listOptions).items()) {
            try {
                results.add(delete(type, o.namespace(), o.name(), options));
            } catch (ApiException e) {
                if (e.code() != 404) {
                    throw e;
                }
            }
        }
        return results;
    }

    private static boolean hasFinalizer(JsonNode meta, String finalizer) {
        JsonNode fs = meta.get("finalizers");
        if (fs == null || !fs.isArray()) {
            return false;
        }
        for (JsonNode f : fs) {
            if (finalizer.equals(f.asString())) {
                return true;
            }
        }
        return false;
    }

    private static void removeFinalizer(ArrayNode fs, String finalizer) {
        for (int i = fs.size() - 1; i >= 0; i--) {
            if (finalizer.equals(fs.get(i).asString())) {
                fs.remove(i);
            }
        }
    }

    private static void checkPreconditions(ResourceType type, StoredObject current, DeleteOptions options) {
        if (options.preconditionUid() != null && !options.preconditionUid().equals(current.uid())) {
            throw ApiException.conflict(type, current.name(), "StorageError: invalid object, Code: 4, Key: "
                    + storageKey(type, current) + ", ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: "
                    + "UID in precondition: " + options.preconditionUid() + ", UID in object meta: " + current.uid());
        }
        if (options.preconditionResourceVersion() != null
                && !options.preconditionResourceVersion().equals(Long.toString(current.resourceVersion()))) {
            throw ApiException.conflict(type, current.name(), "StorageError: invalid object, Code: 4, Key: "
                    + storageKey(type, current) + ", ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: "
                    + "ResourceVersion in precondition: " + options.preconditionResourceVersion()
                    + ", ResourceVersion in object meta: " + current.resourceVersion());
        }
    }

    private static String storageKey(ResourceType type, StoredObject o) {
        return "/registry/" + (type.isCustomResource() ? type.group() + "/" : "") + type.plural() + "/"
                + (o.namespace().isEmpty() ? "" : o.namespace() + "/") + o.name();
    }
}
