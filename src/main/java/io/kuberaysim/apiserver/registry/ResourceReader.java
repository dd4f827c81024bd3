package io.kuberaysim.apiserver.registry;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.selection.FieldSelector;
import io.kuberaysim.apiserver.selection.LabelSelector;
import io.kuberaysim.apiserver.selection.SelectorParseException;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.apiserver.storage.WatchEvent;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Reads: get, list with selectors and paging, and filtered watches with kube-apiserver's semantics. */
public final class ResourceReader {
    private final ObjectStore store;
    private final Map<ResourceType, ResourceStrategy> strategies;

    ResourceReader(ObjectStore store, Map<ResourceType, ResourceStrategy> strategies) {
        this.store = store;
        this.strategies = strategies;
    }

    static StoredObject unstored(ResourceType type, ObjectNode object) {
        return StoredObject.unstored(type, object);
    }

    public StoredObject get(ResourceType type, String namespace, String name) {
        StoredObject o = store.get(type, type.namespaced() ? namespace : null, name);
        if (o == null) {
            throw ApiException.notFound(type, name);
        }
        return o;
    }

    /** Compiled selectors of one request. */
    public record Filter(String namespace, LabelSelector labels, FieldSelector fields,
                         Map<String, Function<JsonNode, String>> extractors) {
        public boolean matches(StoredObject o) {
            if (o == null) {
                return false;
            }
            if (namespace != null && !namespace.equals(o.namespace())) {
                return false;
            }
            if (!labels.matches(o.labels())) {
                return false;
            }
            return fields.matches(field -> extractors.get(field).apply(o.object()));
        }
    }

    public Filter filter(ResourceType type, String namespace, ListOptions options) {
        LabelSelector labels;
        FieldSelector fields;
        try {
            labels = LabelSelector.parse(options.labelSelector());
            fields = FieldSelector.parse(options.fieldSelector());
        } catch (SelectorParseException e) {
            throw ApiException.badRequest(e.getMessage());
        }
        Map<String, Function<JsonNode, String>> extractors = new java.util.HashMap<>();
        extractors.put("metadata.name", o -> Json.text(o, "metadata", "name"));
        extractors.put("metadata.namespace", o -> {
            String ns = Json.text(o, "metadata", "namespace");
            return ns == null ? "" : ns;
        });
        ResourceStrategy s = strategies.get(type);
        if (s != null) {
            extractors.putAll(s.selectableFields());
        }
        for (var r : fields.requirements()) {
            if (!extractors.containsKey(r.field())) {
                throw ApiException.badRequest("field label not supported: " + r.field());
            }
        }
        return new Filter(type.namespaced() ? namespace : null, labels, fields, Map.copyOf(extractors));
    }

    public ListResult list(ResourceType type, String namespace, ListOptions options) {
        Filter filter = filter(type, namespace, options);
        String ns = type.namespaced() ? namespace : null;
        String exactName = filter.fields().exactValue("metadata.name").orElse(null);
        List<StoredObject> source;
        long rv;
        if (exactName != null && ns != null) {
            StoredObject o = store.get(type, ns, exactName);
            rv = store.revision();
            source = o == null ? List.of() : List.of(o);
        } else {
            ObjectStore.Snapshot snap = candidates(type, ns, filter);
            source = snap.items();
            rv = snap.revision();
        }
        String after = decodeContinue(options.continueToken());
        long limit = options.limit() == null || options.limit() <= 0 ? Long.MAX_VALUE : options.limit();
        List<StoredObject> page = new ArrayList<>();
        String lastKey = null;
        long remaining = 0;
        for (StoredObject o : source) {
            String key = o.namespace() + "/" + o.name();
            if (after != null && key.compareTo(after) <= 0) {
                continue;
            }
            if (!filter.matches(o)) {
                continue;
            }
            if (page.size() < limit) {
                page.add(o);
                lastKey = key;
            } else {
                remaining++;
            }
        }
        String token = remaining > 0 ? encodeContinue(lastKey) : null;
        return new ListResult(page, rv, token, remaining > 0 ? remaining : null);
    }

    /** The objects a selector can match: through the label index when it pins a label, else the whole type. */
    private ObjectStore.Snapshot candidates(ResourceType type, String namespace, Filter filter) {
        Map<String, String> exact = filter.labels().exactMatches();
        return exact.isEmpty() ? store.list(type, namespace) : store.listByLabels(type, namespace, exact);
    }

    private static String encodeContinue(String key) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(key.getBytes(StandardCharsets.UTF_8));
    }

    private static String decodeContinue(String token) {
        if (token == null || token.isEmpty()) {
            return null;
        }
        try {
            return new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("continue key is not valid: " + e.getMessage());
        }
    }

    /**
     * Starts a watch. Without a resourceVersion (or with "0") the current matches are sent first as ADDED;
     * with one, only later changes are sent. Objects entering or leaving the selection arrive as ADDED or
     * DELETED, as kube-apiserver's watch cache does.
     */
    public ObjectStore.Subscription watch(ResourceType type, String namespace, ListOptions options, WatchSink sink) {
        Filter filter = filter(type, namespace, options);
        String rvText = options.resourceVersion();
        long from;
        boolean initial = rvText == null || rvText.isEmpty() || rvText.equals("0");
        if (initial) {
            ObjectStore.Snapshot snap = candidates(type, filter.namespace(), filter);
            for (StoredObject o : snap.items()) {
                if (filter.matches(o)) {
                    sink.onEvent(new WatchEvent(WatchEvent.Type.ADDED, o, null));
                }
            }
            if (options.sendInitialEvents()) {
                sink.onInitialEventsEnd(snap.revision());
            }
            from = snap.revision();
        } else {
            try {
                from = Long.parseLong(rvText);
            } catch (NumberFormatException e) {
                throw ApiException.badRequest("invalid resource version \"" + rvText + "\"");
            }
        }
        try {
            return store.watch(type, from, event -> translate(event, filter, sink));
        } catch (ObjectStore.TooOldResourceVersionException e) {
            throw ApiException.expired(e.getMessage());
        }
    }

    private static void translate(WatchEvent event, Filter filter, WatchSink sink) {
        boolean now = event.type() != WatchEvent.Type.DELETED && filter.matches(event.object());
        boolean before = event.previous() != null && filter.matches(event.previous());
        switch (event.type()) {
            case ADDED -> {
                if (now) {
                    sink.onEvent(event);
                }
            }
            case MODIFIED -> {
                if (now && before) {
                    sink.onEvent(event);
                } else if (now) {
                    sink.onEvent(new WatchEvent(WatchEvent.Type.ADDED, event.object(), event.previous()));
                } else if (before) {
                    sink.onEvent(new WatchEvent(WatchEvent.Type.DELETED, event.object(), event.previous()));
                }
            }
            case DELETED -> {
                if (before) {
                    sink.onEvent(event);
                }
            }
            default -> {
            }
        }
    }
}
