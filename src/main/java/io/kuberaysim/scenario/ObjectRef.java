package io.kuberaysim.scenario;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.selection.LabelSelector;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The object(s) a step is about: a kind (as {@code kubectl} takes it: {@code RayCluster}, {@code rayclusters},
 * {@code pod}, {@code po}), a namespace (the scenario's when omitted) and either a name or a label selector.
 */
public record ObjectRef(ResourceType type, String namespace, String name, String selector) {

    /** The fields a step that refers to objects reads. */
    public static final List<String> FIELDS = List.of("kind", "name", "namespace", "selector");

    /**
     * Reads {@code kind}, {@code name}, {@code namespace} and {@code selector} from {@code source}.
     *
     * @param nameRequired whether a name is needed (a single object) or a selector may stand for it
     */
    public static ObjectRef read(StepSource source, String defaultNamespace, boolean nameRequired) {
        String kind = source.text("kind");
        ResourceType type = type(kind).orElseThrow(() -> source.field("kind").error("unknown kind \"" + kind
                + "\"; known: " + String.join(", ", ResourceTypes.SERVED_TYPES.stream().map(ResourceType::kind)
                .distinct().toList())));
        Optional<String> name = source.optionalText("name");
        Optional<String> selector = source.optionalText("selector");
        if (nameRequired && name.isEmpty()) {
            throw source.error("missing required field \"name\"");
        }
        if (name.isEmpty() && selector.isEmpty()) {
            throw source.error("needs \"name\" or \"selector\"");
        }
        if (selector.isPresent()) {
            try {
                LabelSelector.parse(selector.get());
            } catch (ApiException | IllegalArgumentException e) {
                throw source.field("selector").error("not a label selector: " + e.getMessage());
            }
        }
        String ns = type.namespaced() ? source.optionalText("namespace").orElse(defaultNamespace) : null;
        return new ObjectRef(type, ns, name.orElse(null), selector.orElse(null));
    }

    /**
     * Reads {@code name} (or, when allowed, {@code selector}) and {@code namespace} for objects of a fixed type, as
     * faults name their Pod, Node or RayJob.
     */
    public static ObjectRef of(ResourceType type, StepSource source, boolean selectorAllowed) {
        java.util.Set<String> fields = new java.util.LinkedHashSet<>(List.of("type", "name", "namespace"));
        if (selectorAllowed) {
            fields.add("selector");
        }
        if (!type.namespaced()) {
            fields.remove("namespace");
        }
        source.object(fields);
        Optional<String> name = source.optionalText("name");
        Optional<String> selector = selectorAllowed ? source.optionalText("selector") : Optional.empty();
        if (name.isEmpty() && selector.isEmpty()) {
            throw source.error(selectorAllowed ? "needs \"name\" or \"selector\"" : "missing required field \"name\"");
        }
        if (name.isPresent() && selector.isPresent()) {
            throw source.error("use name or selector, not both");
        }
        String ns = type.namespaced() ? source.optionalText("namespace").orElse(source.namespace()) : null;
        return new ObjectRef(type, ns, name.orElse(null), selector.orElse(null));
    }

    /** The served type for a kind, plural, singular or short name, case-insensitively. */
    public static Optional<ResourceType> type(String kind) {
        String k = kind.toLowerCase(Locale.ROOT);
        return ResourceTypes.SERVED_TYPES.stream()
                .filter(t -> t.kind().toLowerCase(Locale.ROOT).equals(k) || t.plural().equals(k)
                        || t.singular().equals(k) || t.shortNames().contains(k))
                .findFirst();
    }

    /** The named object, or null when absent (only for a ref with a name). */
    public StoredObject get(KubeClient client) {
        return client.get(type, namespace, name);
    }

    /** Every object the ref stands for: the named one (if present) or those matching the selector. */
    public List<StoredObject> list(KubeClient client) {
        if (name != null) {
            StoredObject o = get(client);
            if (o == null) {
                return List.of();
            }
            return selector == null || client.list(type, namespace, selector).stream()
                    .anyMatch(x -> x.name().equals(name)) ? List.of(o) : List.of();
        }
        return client.list(type, namespace, selector);
    }

    /** {@code RayCluster default/example-cluster} or {@code Pod default ray.io/cluster=x}. */
    @Override
    public String toString() {
        String where = namespace == null ? "" : namespace + (name != null ? "/" : " ");
        return type.kind() + " " + where + (name != null ? name : selector);
    }
}
