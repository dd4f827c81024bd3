package io.kuberaysim.apiserver.registry.strategy;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.PrinterColumns;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.api.schema.Schema;
import io.kuberaysim.apiserver.registry.ResourceStrategy;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.controller.runtime.clock.Timestamps;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Collection;
import java.util.UUID;

/**
 * The CustomResourceDefinitions of the custom resources this server serves (the ray.io and sim.kuberay.io kinds),
 * as kube-apiserver returns KubeRay's once its apiextensions controllers have accepted the names: each kind's names,
 * scope, one served and stored version with the structural schema the server validates that kind with, the status
 * subresource and printer columns it has, and the conditions NamesAccepted and Established true.
 */
public final class CustomResourceDefinitions {
    private CustomResourceDefinitions() {
    }

    /**
     * Stores the definition of every custom resource among {@code strategies} that the store does not hold yet (a
     * restarted or shared etcd store has them). Written to the store directly: the registry refuses writes of this kind.
     * Their uids are derived from their names, so seeded runs draw the same uids for everything else as before.
     */
    public static void install(ObjectStore store, Collection<ResourceStrategy> strategies, Instant now) {
        for (ResourceStrategy s : strategies) {
            ResourceType t = s.type();
            if (!t.isCustomResource() || store.get(ResourceTypes.CUSTOMRESOURCEDEFINITIONS, null, name(t)) != null) {
                continue;
            }
            try {
                store.create(ResourceTypes.CUSTOMRESOURCEDEFINITIONS, definition(t, s.schema(), now));
            } catch (ObjectStore.KeyExistsException e) {
                // another replica starting on the same etcd store wrote it first
            }
        }
    }

    /** {@code <plural>.<group>}, the name kube-apiserver requires of a CRD. */
    public static String name(ResourceType type) {
        return type.plural() + "." + type.group();
    }

    /** The definition of {@code type}, validated with {@code schema} (null: any object), created at {@code now}. */
    public static ObjectNode definition(ResourceType type, Schema schema, Instant now) {
        String created = Timestamps.seconds(now);
        ObjectNode crd = Json.object();
        crd.put("apiVersion", ResourceTypes.CUSTOMRESOURCEDEFINITIONS.apiVersion());
        crd.put("kind", ResourceTypes.CUSTOMRESOURCEDEFINITIONS.kind());
        ObjectNode meta = crd.putObject("metadata");
        meta.put("name", name(type));
        meta.put("uid", UUID.nameUUIDFromBytes(name(type).getBytes(StandardCharsets.UTF_8)).toString());
        meta.put("generation", 1);
        meta.put("creationTimestamp", created);

        ObjectNode spec = crd.putObject("spec");
        spec.put("group", type.group());
        spec.set("names", names(type));
        spec.put("scope", type.namespaced() ? "Namespaced" : "Cluster");
        ObjectNode version = spec.putArray("versions").addObject();
        version.put("name", type.version());
        version.put("served", true);
        version.put("storage", true);
        ObjectNode openApi = schema == null ? Schema.preservedObject().toOpenApi(Json.MAPPER)
                : schema.toOpenApi(Json.MAPPER);
        version.putObject("schema").set("openAPIV3Schema", openApi);
        if (type.statusSubresource()) {
            version.putObject("subresources").putObject("status");
        }
        if (!PrinterColumns.of(type).isEmpty()) {
            ArrayNode columns = version.putArray("additionalPrinterColumns");
            for (PrinterColumns.Column c : PrinterColumns.of(type)) {
                ObjectNode column = columns.addObject();
                column.put("name", c.name());
                column.put("type", c.type());
                column.put("jsonPath", c.jsonPath());
                if (c.priority() != 0) {
                    column.put("priority", c.priority());
                }
            }
        }
        // what kube-apiserver defaults in a CRD that names no conversion (KubeRay's)
        spec.putObject("conversion").put("strategy", "None");

        ObjectNode status = crd.putObject("status");
        ArrayNode conditions = status.putArray("conditions");
        conditions.add(condition("NamesAccepted", "NoConflicts", "no conflicts found", created));
        conditions.add(condition("Established", "InitialNamesAccepted", "the initial names have been accepted",
                created));
        status.set("acceptedNames", names(type));
        status.putArray("storedVersions").add(type.version());
        return crd;
    }

    private static ObjectNode names(ResourceType type) {
        ObjectNode names = Json.object();
        names.put("plural", type.plural());
        names.put("singular", type.singular());
        if (!type.shortNames().isEmpty()) {
            type.shortNames().forEach(names.putArray("shortNames")::add);
        }
        names.put("kind", type.kind());
        names.put("listKind", type.listKind());
        if (!type.categories().isEmpty()) {
            type.categories().forEach(names.putArray("categories")::add);
        }
        return names;
    }

    private static ObjectNode condition(String type, String reason, String message, String at) {
        ObjectNode c = Json.object();
        c.put("type", type);
        c.put("status", "True");
        c.put("lastTransitionTime", at);
        c.put("reason", reason);
        c.put("message", message);
        return c;
    }
}
