package io.kuberaysim.apiserver.registry.strategy;

import io.fabric8.kubernetes.api.model.Event;
import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.registry.ResourceStrategy;
import io.kuberaysim.apiserver.registry.SelectableFields;
import io.kuberaysim.apiserver.validation.NameValidation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.util.ArrayList;
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

    /**
     * kube's {@code legacyValidateEvent}, which every Event passes whichever API wrote it: an Event without
     * {@code eventTime} must sit in its involved object's namespace; one with {@code eventTime} (written through
     * events.k8s.io or a new recorder) needs its reporting controller and instance, action and reason, each
     * within its length limit.
     */
    @Override
    public List<StatusCause> validate(ObjectNode object) {
        JsonNode involved = Json.at(object, "involvedObject");
        if (involved == null) {
            return List.of(StatusCause.required("involvedObject"));
        }
        List<StatusCause> causes = new ArrayList<>();
        String namespace = orEmpty(Json.text(object, "metadata", "namespace"));
        String involvedNamespace = orEmpty(Json.text(involved, "namespace"));
        String eventTime = Json.text(object, "eventTime");
        if (eventTime == null || eventTime.isEmpty()) {
            boolean matches = involvedNamespace.isEmpty()
                    ? namespace.isEmpty() || namespace.equals("default") : namespace.equals(involvedNamespace);
            if (!matches) {
                causes.add(StatusCause.invalid("involvedObject.namespace", involvedNamespace,
                        "does not match event.namespace"));
            }
            return causes;
        }
        if (involvedNamespace.isEmpty() && !namespace.equals("default") && !namespace.equals("kube-system")) {
            causes.add(StatusCause.invalid("involvedObject.namespace", involvedNamespace,
                    "does not match event.namespace"));
        }
        String controller = orEmpty(Json.text(object, "reportingComponent"));
        if (controller.isEmpty()) {
            causes.add(StatusCause.required("reportingController"));
        }
        for (String msg : NameValidation.isQualifiedName(controller)) {
            causes.add(StatusCause.invalid("reportingController", controller, msg));
        }
        requiredWithin(causes, object, "reportingInstance", "reportingInstance", 128);
        requiredWithin(causes, object, "action", "action", 128);
        requiredWithin(causes, object, "reason", "reason", 128);
        if (orEmpty(Json.text(object, "message")).length() > 1024) {
            causes.add(StatusCause.invalid("message", "", "can have at most 1024 characters"));
        }
        return causes;
    }

    private static void requiredWithin(List<StatusCause> causes, ObjectNode object, String field, String path,
                                       int limit) {
        String v = orEmpty(Json.text(object, field));
        if (v.isEmpty()) {
            causes.add(StatusCause.required(path));
        } else if (v.length() > limit) {
            causes.add(StatusCause.invalid(path, "", "can have at most " + limit + " characters"));
        }
    }

    @Override
    public Map<String, Function<JsonNode, String>> selectableFields() {
        return FIELDS;
    }
}
