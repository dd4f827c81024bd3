package io.kuberaysim.apiserver.registry;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.storage.StoredObject;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Writes to the main resource: the request is pruned, defaulted and type-checked against the schema; a status
 * subresource's status is kept as stored; metadata and finalizers are validated; the resource strategy
 * prepares, validates and warns; a spec change moves {@code metadata.generation}.
 */
final class MainUpdateStrategy implements UpdateStrategy {
    private final SchemaCheck schemaCheck;

    MainUpdateStrategy(SchemaCheck schemaCheck) {
        this.schemaCheck = schemaCheck;
    }

    @Override
    public ObjectNode fromBody(ResourceStrategy resource, StoredObject current, ObjectNode body,
                               WriteOptions options, List<String> warnings) {
        return schemaCheck.apply(resource, body.deepCopy(), true, current.object(), options, warnings, current.name());
    }

    @Override
    public ObjectNode fromPatched(ResourceStrategy resource, StoredObject current, ObjectNode patched,
                                  boolean ownTree, WriteOptions options, List<String> warnings) {
        return schemaCheck.apply(resource, patched, ownTree, current.object(), options, warnings, current.name());
    }

    @Override
    public List<StatusCause> prepareAndValidate(ResourceStrategy resource, StoredObject current, ObjectNode next,
                                                List<String> warnings) {
        ObjectNode old = current.object();
        ObjectNode meta = Json.child(next, "metadata");
        if (resource.type().statusSubresource()) {
            JsonNode st = old.get("status");
            if (st == null) {
                next.remove("status");
            } else {
                next.set("status", st);
            }
        }
        List<StatusCause> causes = new ArrayList<>(MetadataValidation.validate(meta, resource.type()));
        causes.addAll(newFinalizersWhileDeleting(old, meta));
        resource.prepareForUpdate(next, old);
        if (resource.tracksGeneration() && specChanged(next, old)) {
            meta.put("generation", current.generation() + 1);
        }
        causes.addAll(resource.validateUpdate(next, old));
        if (causes.isEmpty()) {
            warnings.addAll(MetadataValidation.warnings(meta, resource.type()));
            warnings.addAll(resource.warnings(next));
        }
        return causes;
    }

    @Override
    public boolean applyCreates() {
        return true;
    }

    /** Anything outside metadata and status changed: the spec generation moves. */
    private static boolean specChanged(ObjectNode next, ObjectNode old) {
        Set<String> fields = new LinkedHashSet<>();
        next.propertyNames().forEach(fields::add);
        old.propertyNames().forEach(fields::add);
        for (String f : fields) {
            if (f.equals("metadata") || f.equals("status")) {
                continue;
            }
            if (!Objects.equals(next.get(f), old.get(f))) {
                return true;
            }
        }
        return false;
    }

    private static List<StatusCause> newFinalizersWhileDeleting(ObjectNode old, ObjectNode meta) {
        if (Json.at(old, "metadata", "deletionTimestamp") == null) {
            return List.of();
        }
        Set<String> before = new LinkedHashSet<>();
        JsonNode of = Json.at(old, "metadata", "finalizers");
        if (of != null) {
            of.forEach(f -> before.add(f.asString()));
        }
        List<String> added = new ArrayList<>();
        JsonNode nf = meta.get("finalizers");
        if (nf != null && nf.isArray()) {
            nf.forEach(f -> {
                if (!before.contains(f.asString())) {
                    added.add("\"" + f.asString() + "\"");
                }
            });
        }
        if (added.isEmpty()) {
            return List.of();
        }
        return List.of(StatusCause.forbidden("metadata.finalizers",
                "no new finalizers can be added if the object is being deleted, found new finalizers []string{"
                        + String.join(", ", added) + "}"));
    }
}
