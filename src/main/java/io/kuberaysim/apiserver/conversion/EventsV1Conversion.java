package io.kuberaysim.apiserver.conversion;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.errors.StatusCause;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * events.k8s.io/v1 Event over the core/v1 Event storage, with kube-apiserver's mapping
 * ({@code pkg/apis/events/v1/conversion.go}): regarding = involvedObject, note = message, reportingController =
 * reportingComponent, deprecatedSource/FirstTimestamp/LastTimestamp/Count = source/firstTimestamp/lastTimestamp/
 * count; the other fields keep their names. Fields are written in each version's Go field order with Go's
 * {@code omitempty} rules, so a converted object looks as kube-apiserver prints it. Creates and updates through
 * events.k8s.io/v1 get the strict rules of {@code ValidateEventCreate}/{@code ValidateEventUpdate}.
 */
public final class EventsV1Conversion implements VersionConversion {
    /** Served field name to stored field name for the renamed fields. */
    private static final Map<String, String> RENAMED = Map.of(
            "regarding", "involvedObject",
            "note", "message",
            "reportingController", "reportingComponent",
            "deprecatedSource", "source",
            "deprecatedFirstTimestamp", "firstTimestamp",
            "deprecatedLastTimestamp", "lastTimestamp",
            "deprecatedCount", "count");

    /** events.k8s.io/v1 Event fields in Go order; {@code true} = always written (no omitempty or a struct). */
    private static final Map<String, Boolean> SERVED_FIELDS = ordered(
            "metadata", true, "eventTime", true, "series", false, "reportingController", false,
            "reportingInstance", false, "action", false, "reason", false, "regarding", true, "related", false,
            "note", false, "type", false, "deprecatedSource", true, "deprecatedFirstTimestamp", true,
            "deprecatedLastTimestamp", true, "deprecatedCount", false);

    /** core/v1 Event fields in Go order; {@code true} = always written. */
    private static final Map<String, Boolean> STORED_FIELDS = ordered(
            "metadata", true, "involvedObject", true, "reason", false, "message", false, "source", true,
            "firstTimestamp", true, "lastTimestamp", true, "count", false, "type", false, "eventTime", true,
            "series", false, "action", false, "related", false, "reportingComponent", true,
            "reportingInstance", true);

    /** Field labels of events.k8s.io/v1 and the core labels they select on. */
    private static final Map<String, String> FIELD_LABELS;

    static {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("metadata.name", "metadata.name");
        m.put("metadata.namespace", "metadata.namespace");
        for (String f : List.of("kind", "namespace", "name", "uid", "apiVersion", "resourceVersion", "fieldPath")) {
            m.put("regarding." + f, "involvedObject." + f);
        }
        m.put("reason", "reason");
        m.put("reportingController", "reportingComponent");
        m.put("type", "type");
        FIELD_LABELS = Map.copyOf(m);
    }

    private static final int NOTE_LIMIT = 1024;

    private static Map<String, Boolean> ordered(Object... pairs) {
        Map<String, Boolean> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((String) pairs[i], (Boolean) pairs[i + 1]);
        }
        return m;
    }

    @Override
    public ResourceType served() {
        return ResourceTypes.EVENTS_K8S_IO;
    }

    @Override
    public ResourceType stored() {
        return ResourceTypes.EVENTS;
    }

    @Override
    public ObjectNode toStored(ObjectNode served) {
        checkTypeMeta(served);
        Map<String, JsonNode> byStoredName = new LinkedHashMap<>();
        served.properties().forEach(e -> byStoredName.put(RENAMED.getOrDefault(e.getKey(), e.getKey()),
                e.getValue()));
        return write(ResourceTypes.EVENTS, byStoredName, STORED_FIELDS);
    }

    @Override
    public ObjectNode toServed(JsonNode stored) {
        Map<String, String> back = new LinkedHashMap<>();
        RENAMED.forEach((servedName, storedName) -> back.put(storedName, servedName));
        Map<String, JsonNode> byServedName = new LinkedHashMap<>();
        stored.properties().forEach(e -> byServedName.put(back.getOrDefault(e.getKey(), e.getKey()),
                e.getValue()));
        return write(ResourceTypes.EVENTS_K8S_IO, byServedName, SERVED_FIELDS);
    }

    /** A body for the events.k8s.io endpoint must not claim another version (kube's decoder refuses it). */
    private static void checkTypeMeta(ObjectNode served) {
        ResourceType t = ResourceTypes.EVENTS_K8S_IO;
        String apiVersion = Json.text(served, "apiVersion");
        String kind = Json.text(served, "kind");
        if (kind != null && !kind.equals(t.kind())) {
            throw ApiException.badRequest(t.kind() + " in version \"" + t.version() + "\" cannot be handled as a "
                    + t.kind() + ": the kind in the body (" + kind + ") does not match the expected kind ("
                    + t.kind() + ")");
        }
        if (apiVersion != null && !apiVersion.equals(t.apiVersion())) {
            throw ApiException.badRequest("the API version in the data (" + apiVersion
                    + ") does not match the expected API version (" + t.apiVersion() + ")");
        }
    }

    /**
     * Writes the known fields in Go order: an absent always-written field becomes null (a time) or {} (a struct),
     * an empty omitempty field is dropped. Unknown fields are kept after them.
     */
    private static ObjectNode write(ResourceType type, Map<String, JsonNode> fields, Map<String, Boolean> order) {
        ObjectNode out = Json.object();
        out.put("kind", type.kind());
        out.put("apiVersion", type.apiVersion());
        order.forEach((name, always) -> {
            JsonNode v = fields.get(name);
            if (v != null && !v.isNull() && !isEmptyScalar(v)) {
                out.set(name, v);
            } else if (always) {
                if (isStruct(name)) {
                    out.set(name, v != null && v.isObject() ? v : Json.object());
                } else if (name.equals("reportingComponent") || name.equals("reportingInstance")) {
                    out.put(name, "");
                } else {
                    out.putNull(name);
                }
            }
        });
        fields.forEach((name, v) -> {
            if (!name.equals("kind") && !name.equals("apiVersion") && !order.containsKey(name)) {
                out.set(name, v);
            }
        });
        return out;
    }

    private static boolean isStruct(String field) {
        return switch (field) {
            case "metadata", "regarding", "involvedObject", "source", "deprecatedSource" -> true;
            default -> false;
        };
    }

    private static boolean isEmptyScalar(JsonNode v) {
        return v.isString() && v.asString().isEmpty() || v.isNumber() && v.asLong() == 0;
    }

    @Override
    public String storedFieldLabel(String servedLabel) {
        String stored = FIELD_LABELS.get(servedLabel);
        if (stored == null) {
            throw ApiException.badRequest("field label not supported: " + servedLabel);
        }
        return stored;
    }

    /** {@code ValidateEventCreate} for events.k8s.io/v1 and newer (the legacy rules run in the core strategy). */
    @Override
    public List<StatusCause> validateCreate(ObjectNode e) {
        List<StatusCause> causes = new ArrayList<>(seriesCauses(e));
        if (isUnset(e.get("eventTime"))) {
            causes.add(StatusCause.required("eventTime"));
        }
        String type = Objects.requireNonNullElse(Json.text(e, "type"), "");
        if (!type.equals("Normal") && !type.equals("Warning")) {
            causes.add(StatusCause.invalid("type", "", "has invalid value: " + type));
        }
        for (String f : List.of("firstTimestamp", "lastTimestamp", "count")) {
            if (!isUnset(e.get(f))) {
                causes.add(StatusCause.invalid(f, "", "needs to be unset"));
            }
        }
        if (!isUnset(Json.at(e, "source", "component")) || !isUnset(Json.at(e, "source", "host"))) {
            causes.add(StatusCause.invalid("source", "", "needs to be unset"));
        }
        return causes;
    }

    /** {@code ValidateEventUpdate} for events.k8s.io/v1: only the series and metadata may change. */
    @Override
    public List<StatusCause> validateUpdate(ObjectNode e, JsonNode old) {
        List<StatusCause> causes = new ArrayList<>();
        if (!Objects.equals(e.get("series"), old.get("series"))) {
            causes.addAll(seriesCauses(e));
        }
        for (String f : List.of("involvedObject", "reason", "message", "source", "firstTimestamp", "lastTimestamp",
                "count", "type", "eventTime", "action", "related", "reportingComponent", "reportingInstance")) {
            if (!sameValue(e.get(f), old.get(f))) {
                causes.add(new StatusCause("FieldValueInvalid", "Invalid value: " + render(e.get(f))
                        + ": field is immutable", storedToServedPath(f)));
            }
        }
        return causes;
    }

    /** kube validates the internal object, whose Go field for reportingComponent is ReportingController. */
    private static String storedToServedPath(String f) {
        return f.equals("reportingComponent") ? "reportingController" : f;
    }

    private static List<StatusCause> seriesCauses(ObjectNode e) {
        JsonNode series = e.get("series");
        if (series == null || series.isNull()) {
            return List.of();
        }
        List<StatusCause> causes = new ArrayList<>();
        if (series.path("count").asLong(0) < 2) {
            causes.add(StatusCause.invalid("series.count", "", "should be at least 2"));
        }
        if (isUnset(series.get("lastObservedTime"))) {
            causes.add(StatusCause.required("series.lastObservedTime"));
        }
        return causes;
    }

    private static boolean isUnset(JsonNode v) {
        return v == null || v.isNull() || v.isMissingNode() || isEmptyScalar(v) || v.isObject() && v.isEmpty();
    }

    private static boolean sameValue(JsonNode a, JsonNode b) {
        return isUnset(a) ? isUnset(b) : a.equals(b);
    }

    private static String render(JsonNode v) {
        if (isUnset(v)) {
            return "\"\"";
        }
        return v.isString() ? "\"" + v.asString() + "\"" : v.toString();
    }
}
