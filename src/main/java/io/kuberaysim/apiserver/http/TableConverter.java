package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.PrinterColumns;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.runtime.clock.Clock;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Renders objects as {@code meta.k8s.io/v1} Tables, the representation {@code kubectl get} asks for. Each
 * resource has one column set: KubeRay's printer columns for the Ray kinds, kubectl's built-in printers'
 * columns for the core kinds. Ages are computed from the simulator's clock.
 */
@Component
class TableConverter {
    /** What a row carries besides its cells ({@code includeObject}). */
    enum IncludeObject { NONE, METADATA, OBJECT }

    /** One column: its definition and how a cell is computed from an object at a moment. */
    record Column(String name, String type, String format, String description, int priority,
                  BiFunction<JsonNode, Instant, Object> cell) {
        static Column of(String name, String type, String description, BiFunction<JsonNode, Instant, Object> cell) {
            return new Column(name, type, "", description, 0, cell);
        }

        Column wide() {
            return new Column(name, type, format, description, 1, cell);
        }
    }

    private static final Column NAME = new Column("Name", "string", "name",
            "Name must be unique within a namespace. Is required when creating resources, although some resources "
                    + "may allow a client to request the generation of an appropriate name automatically.",
            0, (o, now) -> Json.text(o, "metadata", "name"));
    private static final String AGE_DESCRIPTION = "CreationTimestamp is a timestamp representing the server time "
            + "when this object was created.";

    private static final Map<ResourceType, List<Column>> COLUMNS = Map.ofEntries(
            crdColumns(ResourceTypes.RAYCLUSTERS),
            crdColumns(ResourceTypes.RAYJOBS),
            crdColumns(ResourceTypes.RAYSERVICES),
            crdColumns(ResourceTypes.PODLIFECYCLERULES),
            crdColumns(ResourceTypes.NODELIFECYCLERULES),
            crdColumns(ResourceTypes.FAULTSCHEDULES),
            Map.entry(ResourceTypes.PODS, BuiltinColumns.PODS),
            Map.entry(ResourceTypes.SERVICES, BuiltinColumns.SERVICES),
            Map.entry(ResourceTypes.JOBS, BuiltinColumns.JOBS),
            Map.entry(ResourceTypes.NODES, BuiltinColumns.NODES),
            Map.entry(ResourceTypes.EVENTS, BuiltinColumns.EVENTS),
            Map.entry(ResourceTypes.NAMESPACES, BuiltinColumns.NAMESPACES),
            Map.entry(ResourceTypes.CONFIGMAPS, BuiltinColumns.CONFIGMAPS),
            Map.entry(ResourceTypes.SECRETS, BuiltinColumns.SECRETS),
            Map.entry(ResourceTypes.LEASES, BuiltinColumns.LEASES),
            Map.entry(ResourceTypes.SERVICEACCOUNTS, BuiltinColumns.SERVICEACCOUNTS),
            Map.entry(ResourceTypes.ROLES, BuiltinColumns.ROLES),
            Map.entry(ResourceTypes.ROLEBINDINGS, BuiltinColumns.ROLEBINDINGS),
            Map.entry(ResourceTypes.CUSTOMRESOURCEDEFINITIONS, BuiltinColumns.CUSTOMRESOURCEDEFINITIONS));

    private final Clock clock;

    TableConverter(Clock clock) {
        this.clock = clock;
    }

    /** The columns of a resource, Name first. Resources without a printer get Name and Age, like kubectl's default. */
    static List<Column> columns(ResourceType type) {
        List<Column> cols = new ArrayList<>();
        if (type != ResourceTypes.EVENTS) {
            cols.add(NAME);
        }
        cols.addAll(COLUMNS.getOrDefault(type, List.of(age("Age"))));
        return cols;
    }

    /** A Table for a list response. */
    ObjectNode list(ResourceType type, List<StoredObject> items, long resourceVersion, String continueToken,
                    Long remaining, IncludeObject include, boolean withHeaders) {
        ObjectNode table = header(type, withHeaders);
        ObjectNode meta = table.putObject("metadata");
        meta.put("resourceVersion", Long.toString(resourceVersion));
        if (continueToken != null) {
            meta.put("continue", continueToken);
        }
        if (remaining != null) {
            meta.put("remainingItemCount", remaining);
        }
        ArrayNode rows = table.putArray("rows");
        Instant now = clock.now();
        List<Column> cols = columns(type);
        for (StoredObject o : items) {
            rows.add(row(o, cols, now, include));
        }
        return table;
    }

    /** A Table with the single row of one object (GET of a named object, or one watch event). */
    ObjectNode single(StoredObject o, IncludeObject include, boolean withHeaders) {
        ObjectNode table = header(o.type(), withHeaders);
        table.putObject("metadata").put("resourceVersion", Long.toString(o.resourceVersion()));
        table.putArray("rows").add(row(o, columns(o.type()), clock.now(), include));
        return table;
    }

    private static ObjectNode header(ResourceType type, boolean withHeaders) {
        ObjectNode table = Json.object();
        table.put("kind", "Table");
        table.put("apiVersion", "meta.k8s.io/v1");
        if (withHeaders) {
            ArrayNode defs = table.putArray("columnDefinitions");
            for (Column c : columns(type)) {
                ObjectNode d = defs.addObject();
                d.put("name", c.name());
                d.put("type", c.type());
                d.put("format", c.format());
                d.put("description", c.description());
                d.put("priority", c.priority());
            }
        }
        return table;
    }

    private static ObjectNode row(StoredObject o, List<Column> cols, Instant now, IncludeObject include) {
        ObjectNode row = Json.object();
        ArrayNode cells = row.putArray("cells");
        for (Column c : cols) {
            Object v = c.cell().apply(o.object(), now);
            if (v == null) {
                cells.addNull();
            } else if (v instanceof Long l) {
                cells.add(l);
            } else if (v instanceof Integer i) {
                cells.add(i);
            } else if (v instanceof Boolean b) {
                cells.add(b);
            } else if (v instanceof JsonNode n) {
                cells.add(n.deepCopy());
            } else {
                cells.add(v.toString());
            }
        }
        switch (include) {
            case OBJECT -> row.set("object", o.object().deepCopy());
            case METADATA -> {
                ObjectNode partial = row.putObject("object");
                partial.put("kind", "PartialObjectMetadata");
                partial.put("apiVersion", "meta.k8s.io/v1");
                partial.set("metadata", o.metadata().deepCopy());
            }
            default -> {
            }
        }
        return row;
    }

    /** A custom resource's columns as its CRD's additionalPrinterColumns declare them. */
    private static Map.Entry<ResourceType, List<Column>> crdColumns(ResourceType type) {
        return Map.entry(type, PrinterColumns.of(type).stream()
                .map(c -> c.type().equals("date") && c.jsonPath().equals(PrinterColumns.CREATION_TIMESTAMP)
                        ? crdAge(c.name()) : crdColumn(c.name(), c.type(), c.jsonPath(), c.priority()))
                .toList());
    }

    /** A column as apiextensions-apiserver renders a CRD's additionalPrinterColumns (simple JSONPath). */
    private static Column crdColumn(String name, String type, String jsonPath, int priority) {
        String[] path = jsonPath.substring(1).split("\\.");
        return new Column(name, type, "", "Custom resource definition column (in JSONPath format): " + jsonPath,
                priority, (o, now) -> {
                    JsonNode v = Json.at(o, path);
                    if (v == null || v.isNull()) {
                        return null;
                    }
                    if (type.equals("integer")) {
                        return v.canConvertToLong() ? (Object) v.asLong() : null;
                    }
                    return v.isValueNode() ? v.asString() : Json.MAPPER.writeValueAsString(v);
                });
    }

    private static Column crdAge(String name) {
        return new Column(name, "date", "", "Custom resource definition column (in JSONPath format): "
                + ".metadata.creationTimestamp", 0,
                (o, now) -> HumanDuration.since(Json.text(o, "metadata", "creationTimestamp"), now));
    }

    static Column age(String name) {
        return Column.of(name, "string", AGE_DESCRIPTION,
                (o, now) -> HumanDuration.since(Json.text(o, "metadata", "creationTimestamp"), now));
    }
}
