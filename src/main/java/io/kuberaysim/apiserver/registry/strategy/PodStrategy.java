package io.kuberaysim.apiserver.registry.strategy;

import io.fabric8.kubernetes.api.model.Pod;
import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.registry.ResourceStrategy;
import io.kuberaysim.apiserver.registry.SelectableFields;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.apiserver.storage.StoredObject;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * core/v1 Pod: Pending on create, the not-ready/unreachable tolerations of DefaultTolerationSeconds, the
 * ServiceAccount admission (account and token volume, {@link ServiceAccountAdmission}), graceful
 * deletion for scheduled running Pods (the simulated kubelet ends them), a spec that is immutable but for images and
 * the scheduler's binding, and pod field selectors.
 */
public final class PodStrategy implements ResourceStrategy {
    private static final Map<String, Function<JsonNode, String>> FIELDS;

    static {
        Map<String, Function<JsonNode, String>> m = new LinkedHashMap<>();
        for (String f : List.of("nodeName", "restartPolicy", "schedulerName", "serviceAccountName")) {
            m.put("spec." + f, o -> orEmpty(Json.text(o, "spec", f)));
        }
        m.put("spec.hostNetwork", o -> Boolean.toString(o.path("spec").path("hostNetwork").asBoolean(false)));
        for (String f : List.of("phase", "podIP", "nominatedNodeName")) {
            m.put("status." + f, o -> orEmpty(Json.text(o, "status", f)));
        }
        // old v1 clients' name for spec.nodeName
        m.put("spec.host", m.get("spec.nodeName"));
        FIELDS = SelectableFields.with(SelectableFields.nameAndNamespace(), m);
    }

    private final ServiceAccountAdmission serviceAccounts;

    public PodStrategy(ServiceAccountAdmission serviceAccounts) {
        this.serviceAccounts = serviceAccounts;
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }

    @Override
    public ResourceType type() {
        return ResourceTypes.PODS;
    }

    @Override
    public Class<?> model() {
        return Pod.class;
    }

    @Override
    public boolean tracksGeneration() {
        return false;
    }

    /** kube-apiserver's store for this kind sets ReturnDeletedObject: a DELETE answers the object. */
    @Override
    public boolean returnDeletedObject() {
        return true;
    }

    @Override
    public void prepareForCreate(ObjectNode object, Instant now) {
        PodTemplateRules.applyDefaults(Json.child(object, "spec"));
        DefaultTolerationSeconds.apply(Json.child(object, "spec"));
        ObjectNode status = Json.child(object, "status");
        status.put("phase", "Pending");
        status.put("qosClass", qosClass(object.get("spec")));
    }

    /** The ServiceAccount admission plugin. */
    @Override
    public void admitCreate(ObjectNode object, String namespace, ObjectStore stored) {
        serviceAccounts.admit(object, namespace, stored);
    }

    /** Guaranteed when every container's requests equal its limits, BestEffort with none, else Burstable. */
    static String qosClass(JsonNode spec) {
        boolean any = false;
        boolean guaranteed = true;
        for (JsonNode c : spec.path("containers")) {
            JsonNode req = c.path("resources").path("requests");
            JsonNode lim = c.path("resources").path("limits");
            if (!req.isEmpty() || !lim.isEmpty()) {
                any = true;
            }
            for (String r : List.of("cpu", "memory")) {
                if (!lim.has(r) || (req.has(r) && !req.get(r).asString().equals(lim.get(r).asString()))) {
                    guaranteed = false;
                }
            }
        }
        return !any ? "BestEffort" : guaranteed ? "Guaranteed" : "Burstable";
    }

    @Override
    public List<StatusCause> validate(ObjectNode object) {
        return PodTemplateRules.validate(object.get("spec"), "spec");
    }

    @Override
    public List<String> warnings(ObjectNode object) {
        return PodTemplateRules.warnings(object.get("spec"), "spec");
    }

    @Override
    public void prepareForUpdate(ObjectNode object, JsonNode old) {
        // fields defaulted on create stay as they were when an update omits them (kubectl replace of a manifest)
        JsonNode spec = object.get("spec");
        if (spec instanceof ObjectNode s) {
            PodTemplateRules.applyDefaults(s);
            DefaultTolerationSeconds.apply(s);
        }
    }

    @Override
    public List<StatusCause> validateUpdate(ObjectNode object, JsonNode old) {
        List<StatusCause> causes = new ArrayList<>(validate(object));
        if (!causes.isEmpty()) {
            return causes;
        }
        if (!sameButMutableFields(old.get("spec"), object.get("spec"))) {
            causes.add(StatusCause.forbidden("spec", "pod updates may not change fields other than "
                    + "`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,"
                    + "`spec.tolerations` (only additions to existing tolerations),"
                    + "`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)"));
        }
        return causes;
    }

    /** Fields of a Pod spec an update may change; nodeName too while the Pod is unbound (binding). */
    private static final List<String> MUTABLE = List.of("activeDeadlineSeconds", "tolerations",
            "terminationGracePeriodSeconds");
    private static final List<String> CONTAINER_LISTS = List.of("containers", "initContainers");
    /** Fields of a container an update may change. */
    private static final List<String> MUTABLE_IN_CONTAINER = List.of("image", "imagePullPolicy");

    /**
     * Whether two specs are equal but for the fields an update may change: compared in place, where a copy of each
     * without those fields used to be compared.
     */
    private static boolean sameButMutableFields(JsonNode oldSpec, JsonNode newSpec) {
        if (oldSpec == newSpec || oldSpec == null || newSpec == null) {
            return Objects.equals(oldSpec, newSpec);
        }
        boolean unbound = Json.text(oldSpec, "nodeName") == null;
        Set<String> fields = new LinkedHashSet<>();
        oldSpec.propertyNames().forEach(fields::add);
        newSpec.propertyNames().forEach(fields::add);
        for (String f : fields) {
            if (MUTABLE.contains(f) || unbound && f.equals("nodeName")) {
                continue;
            }
            JsonNode a = oldSpec.get(f);
            JsonNode b = newSpec.get(f);
            if (CONTAINER_LISTS.contains(f) ? !sameButImages(a, b) : !Objects.equals(a, b)) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameButImages(JsonNode a, JsonNode b) {
        if (a == null || b == null || !a.isArray() || !b.isArray()) {
            return Objects.equals(a, b);
        }
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!sameBut(a.get(i), b.get(i), MUTABLE_IN_CONTAINER)) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameBut(JsonNode a, JsonNode b, List<String> ignored) {
        if (!a.isObject() || !b.isObject()) {
            return a.equals(b);
        }
        Set<String> fields = new LinkedHashSet<>();
        a.propertyNames().forEach(fields::add);
        b.propertyNames().forEach(fields::add);
        for (String f : fields) {
            if (!ignored.contains(f) && !Objects.equals(a.get(f), b.get(f))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public Long gracePeriodSeconds(StoredObject current, Long requested) {
        String phase = Json.text(current.object(), "status", "phase");
        if (Json.text(current.object(), "spec", "nodeName") == null
                || "Succeeded".equals(phase) || "Failed".equals(phase)) {
            return 0L;
        }
        if (requested != null) {
            return requested;
        }
        JsonNode g = Json.at(current.object(), "spec", "terminationGracePeriodSeconds");
        // kube-apiserver treats a negative period as 1 (it warned when the Pod was written)
        return g == null ? 30L : g.canConvertToLong() ? Math.max(1L, g.asLong()) : 30L;
    }

    @Override
    public Map<String, Function<JsonNode, String>> selectableFields() {
        return FIELDS;
    }
}
