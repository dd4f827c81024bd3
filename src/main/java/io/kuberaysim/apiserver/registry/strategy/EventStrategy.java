package io.kuberaysim.apiserver.registry.strategy;

import io.fabric8.kubernetes.api.model.Event;
import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.registry.ResourceStrategy;
import io.kuberaysim.apiserver.registry.SelectableFields;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * core/v1 Event: selectable by the involved object, reason, type and source, which {@code kubectl describe} uses;
 * deleted once {@code ttl} has passed since its last write, as kube-apiserver's {@code --event-ttl} does.
 */
public final class EventStrategy implements ResourceStrategy {
    private static final Map<String, Function<JsonNode, String>> FIELDS;

    static {
        Map<String, Function<JsonNode, String>> m = new LinkedHashMap<>();
        for (String f : List.of("kind", "namespace", "name", "uid", "apiVersion", "resourceVersion", "fieldPath")) {
            m.put("involvedObject." + f, o -> orEmpty(Json.text(o, "involvedObject", f)));
        }
        m.put("reason", o -> orEmpty(Json.text(o, "reason")));
        m.put("type", o -> orEmpty(Json.text(o, "type")));
        m.put("source", o -> orEmpty(Json.text(o, "source", "component")));
        m.put("reportingComponent", o -> orEmpty(Json.text(o, "reportingComponent")));
        FIELDS = SelectableFields.with(SelectableFields.nameAndNamespace(), m);
    }

    private final Duration ttl;

    /** @param ttl time to live after the last write; zero keeps Events for ever */
    public EventStrategy(Duration ttl) {
        this.ttl = ttl;
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }

    @Override
    public ResourceType type() {
        return ResourceTypes.EVENTS;
    }

    @Override
    public Duration timeToLive() {
        return ttl.isZero() ? null : ttl;
    }

    @Override
    public Class<?> model() {
        return Event.class;
    }

    @Override
    public boolean tracksGeneration() {
        return false;
    }

    @Override
    public List<StatusCause> validate(ObjectNode object) {
        if (Json.at(object, "involvedObject") == null) {
            return List.of(StatusCause.required("involvedObject"));
        }
        return List.of();
    }

    @Override
    public Map<String, Function<JsonNode, String>> selectableFields() {
        return FIELDS;
    }
}
