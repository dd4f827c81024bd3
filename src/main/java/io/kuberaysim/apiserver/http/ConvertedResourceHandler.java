package io.kuberaysim.apiserver.http;

import io.kuberaysim.apiserver.conversion.EventsV1Conversion;
import io.kuberaysim.apiserver.conversion.VersionConversion;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.registry.DeleteOptions;
import io.kuberaysim.apiserver.registry.DeleteResult;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.ListOptions;
import io.kuberaysim.apiserver.registry.ListResult;
import io.kuberaysim.apiserver.registry.PatchType;
import io.kuberaysim.apiserver.registry.WriteOptions;
import io.kuberaysim.apiserver.registry.WriteResult;
import io.kuberaysim.apiserver.selection.FieldRequirement;
import io.kuberaysim.apiserver.selection.FieldSelector;
import io.kuberaysim.apiserver.selection.SelectorParseException;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.api.Json;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Requests to a resource served in a version other than its storage's (events.k8s.io/v1 Events over the core
 * Event storage): each verb runs on the stored type through the {@link GenericRegistry}, with bodies, field
 * selectors, results, watch events and error messages converted as kube-apiserver converts them. Tables are
 * computed from the stored form, since kube-apiserver prints both versions with the same printer.
 */
@Component
class ConvertedResourceHandler {
    /** Optimistic retries of a patch whose object changed between read and write, as the registry does. */
    private static final int PATCH_ATTEMPTS = 5;

    private final GenericRegistry registry;
    private final ResponseRenderer renderer;
    private final Map<ResourceType, VersionConversion> conversions;

    ConvertedResourceHandler(GenericRegistry registry, ResponseRenderer renderer) {
        this.registry = registry;
        this.renderer = renderer;
        VersionConversion events = new EventsV1Conversion();
        this.conversions = Map.of(events.served(), events);
    }

    /** The conversion when {@code type} is served from another type's storage. */
    Optional<VersionConversion> conversion(ResourceType type) {
        return Optional.ofNullable(conversions.get(type));
    }

    Object get(VersionConversion c, ResourcePath p, HttpServletRequest req) {
        return translated(c, () -> {
            if (p.isCollection()) {
                ListOptions options = storedOptions(c, QueryOptions.list(req));
                if (QueryOptions.watch(req)) {
                    renderer.watch(c.stored(), c.served(), p.namespace(), options, req, o -> served(c, o));
                    return null; // the watch writes the response itself, asynchronously
                }
                ListResult r = registry.reader().list(c.stored(), p.namespace(), options);
                if (ResponseRenderer.wantsTable(req)) {
                    return renderer.list(c.stored(), r, req);
                }
                List<StoredObject> items = r.items().stream().map(o -> served(c, o)).toList();
                return renderer.list(c.served(), new ListResult(items, r.resourceVersion(), r.continueToken(),
                        r.remainingItemCount()), req);
            }
            StoredObject o = registry.reader().get(c.stored(), p.namespace(), p.name());
            return renderer.object(ResponseRenderer.wantsTable(req) ? o : served(c, o), req);
        });
    }

    /** @param warnings the request's decoding warnings (duplicate fields), sent before the registry's */
    ResponseEntity<byte[]> create(VersionConversion c, ResourcePath p, ObjectNode body, WriteOptions options,
                                  List<String> warnings) {
        return translated(c, () -> {
            ObjectNode stored = c.toStored(body);
            invalidIfAny(c, stored, c.validateCreate(stored));
            WriteResult r = registry.create(c.stored(), p.namespace(), stored, options);
            return written(c, r, HttpStatus.CREATED, warnings);
        });
    }

    ResponseEntity<byte[]> update(VersionConversion c, ResourcePath p, ObjectNode body, WriteOptions options,
                                  List<String> warnings) {
        return translated(c, () -> {
            ObjectNode stored = c.toStored(body);
            StoredObject current = registry.reader().get(c.stored(), p.namespace(), p.name());
            invalidIfAny(c, stored, c.validateUpdate(stored, current.object()));
            WriteResult r = registry.update(c.stored(), p.namespace(), p.name(), stored, false, options);
            return written(c, r, HttpStatus.OK, warnings);
        });
    }

    /**
     * A patch applies to the served form: read, convert, patch, convert back, and write conditionally on the
     * resourceVersion that was read (retried when another writer came first).
     */
    ResponseEntity<byte[]> patch(VersionConversion c, ResourcePath p, PatchType type, JsonNode patch,
                                 WriteOptions options, List<String> warnings) {
        return translated(c, () -> {
            for (int attempt = 1; ; attempt++) {
                StoredObject current = registry.store().get(c.stored(), p.namespace(), p.name());
                if (current == null && type == PatchType.APPLY) {
                    ObjectNode obj = ((ObjectNode) patch).deepCopy();
                    Json.child(obj, "metadata").put("name", p.name());
                    return create(c, p, obj, options, warnings);
                }
                if (current == null) {
                    throw ApiException.notFound(c.stored(), p.name());
                }
                ObjectNode patched = registry.applyPatch(c.served(), c.toServed(current.object()), type, patch,
                        options, registry.strategy(c.stored()).mergeKeys());
                ObjectNode stored = c.toStored(patched);
                Json.child(stored, "metadata").put("resourceVersion", Long.toString(current.resourceVersion()));
                invalidIfAny(c, stored, c.validateUpdate(stored, current.object()));
                try {
                    WriteResult r = registry.update(c.stored(), p.namespace(), p.name(), stored, false, options);
                    return written(c, r, HttpStatus.OK, warnings);
                } catch (ApiException e) {
                    if (!"Conflict".equals(e.reason()) || attempt == PATCH_ATTEMPTS) {
                        throw e;
                    }
                }
            }
        });
    }

    ResponseEntity<byte[]> delete(VersionConversion c, ResourcePath p, DeleteOptions options,
                                  HttpServletRequest req) {
        return translated(c, () -> {
            if (p.isCollection()) {
                List<DeleteResult> results = registry.deleteCollection(c.stored(), p.namespace(),
                        storedOptions(c, QueryOptions.list(req)), options);
                List<StoredObject> items = results.stream().map(r -> served(c, r.object())).toList();
                return ResourceHandler.json(HttpStatus.OK, ListEncoder.encode(c.served(), items,
                        registry.store().revision(), null, null), List.of());
            }
            DeleteResult r = registry.delete(c.stored(), p.namespace(), p.name(), options);
            if (r.gone() && !registry.strategy(c.stored()).returnDeletedObject()) {
                ObjectNode status = StatusBodies.deleted(r.object().name(), c.served().group(), c.served().plural(),
                        r.object().uid());
                return ResourceHandler.json(HttpStatus.OK, Json.MAPPER.writeValueAsBytes(status), List.of());
            }
            return ResourceHandler.json(HttpStatus.OK, served(c, r.object()).json(), List.of());
        });
    }

    private static StoredObject served(VersionConversion c, StoredObject stored) {
        return StoredObject.unstored(c.served(), c.toServed(stored.object()));
    }

    private static ResponseEntity<byte[]> written(VersionConversion c, WriteResult r, HttpStatus status,
                                                  List<String> warnings) {
        List<String> all = new java.util.ArrayList<>(warnings);
        all.addAll(r.warnings());
        return ResourceHandler.json(status, served(c, r.object()).json(), all);
    }

    private static void invalidIfAny(VersionConversion c, ObjectNode stored, List<StatusCause> causes) {
        if (!causes.isEmpty()) {
            String name = Json.text(stored, "metadata", "name");
            throw ApiException.invalid(c.served(), name == null ? "" : name, causes);
        }
    }

    /** The list options with each served field label replaced by the stored type's. */
    private static ListOptions storedOptions(VersionConversion c, ListOptions o) {
        if (o.fieldSelector() == null || o.fieldSelector().isEmpty()) {
            return o;
        }
        FieldSelector parsed;
        try {
            parsed = FieldSelector.parse(o.fieldSelector());
        } catch (SelectorParseException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        String fields = parsed.requirements().stream()
                .map(r -> new FieldRequirement(c.storedFieldLabel(r.field()), r.operator(), r.value()).toString())
                .collect(Collectors.joining(","));
        return new ListOptions(o.labelSelector(), fields, o.limit(), o.continueToken(), o.resourceVersion(),
                o.timeoutSeconds(), o.allowWatchBookmarks(), o.sendInitialEvents(), o.resourceVersionMatch());
    }

    private static <T> T translated(VersionConversion c, Supplier<T> call) {
        try {
            return call.get();
        } catch (ApiException e) {
            throw e.as(c.stored(), c.served());
        }
    }
}
