package io.kuberaysim.apiserver.registry.strategy;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.registry.ResourceStrategy;
import io.kuberaysim.apiserver.validation.NameValidation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * rbac.authorization.k8s.io/v1 RoleBinding: kube's {@code ValidateRoleBinding}/{@code ValidateRoleBindingUpdate}
 * (roleRef in the RBAC group, kind Role or ClusterRole, a name; subjects ServiceAccount/User/Group with their API
 * groups; roleRef immutable) and v1 defaulting of User/Group subjects' apiGroup.
 */
public final class RoleBindingStrategy implements ResourceStrategy {
    static final String GROUP = "rbac.authorization.k8s.io";

    @Override
    public ResourceType type() {
        return ResourceTypes.ROLEBINDINGS;
    }

    @Override
    public boolean tracksGeneration() {
        return false;
    }

    @Override
    public List<String> validateName(String name) {
        return RbacNames.pathSegmentErrors(name);
    }

    @Override
    public void prepareForCreate(ObjectNode object, java.time.Instant now) {
        defaultSubjects(object);
    }

    @Override
    public void prepareForUpdate(ObjectNode object, JsonNode old) {
        defaultSubjects(object);
    }

    /** v1 {@code SetDefaults_Subject}: User and Group subjects without apiGroup get the RBAC group. */
    private static void defaultSubjects(ObjectNode object) {
        JsonNode subjects = object.get("subjects");
        if (subjects == null || !subjects.isArray()) {
            return;
        }
        for (JsonNode s : subjects) {
            String kind = Json.text(s, "kind");
            if (s instanceof ObjectNode o && (Objects.equals(kind, "User") || Objects.equals(kind, "Group"))
                    && (Json.text(s, "apiGroup") == null || Json.text(s, "apiGroup").isEmpty())) {
                o.put("apiGroup", GROUP);
            }
        }
    }

    @Override
    public List<StatusCause> validate(ObjectNode object) {
        List<StatusCause> causes = new ArrayList<>();
        String apiGroup = orEmpty(Json.text(object, "roleRef", "apiGroup"));
        if (!apiGroup.equals(GROUP)) {
            causes.add(notSupported("roleRef.apiGroup", apiGroup, List.of(GROUP)));
        }
        String kind = orEmpty(Json.text(object, "roleRef", "kind"));
        if (!kind.equals("Role") && !kind.equals("ClusterRole")) {
            causes.add(notSupported("roleRef.kind", kind, List.of("Role", "ClusterRole")));
        }
        String name = orEmpty(Json.text(object, "roleRef", "name"));
        if (name.isEmpty()) {
            causes.add(StatusCause.required("roleRef.name"));
        } else {
            for (String msg : RbacNames.pathSegmentErrors(name)) {
                causes.add(StatusCause.invalid("roleRef.name", name, msg));
            }
        }
        JsonNode subjects = object.get("subjects");
        if (subjects != null && subjects.isArray()) {
            for (int i = 0; i < subjects.size(); i++) {
                causes.addAll(subjectCauses(subjects.get(i), "subjects[" + i + "]"));
            }
        }
        return causes;
    }

    @Override
    public List<StatusCause> validateUpdate(ObjectNode object, JsonNode old) {
        List<StatusCause> causes = new ArrayList<>(validate(object));
        if (!Objects.equals(object.get("roleRef"), old.get("roleRef"))) {
            causes.add(new StatusCause("FieldValueInvalid", "Invalid value: " + goRoleRef(object.get("roleRef"))
                    + ": cannot change roleRef", "roleRef"));
        }
        return causes;
    }

    private static List<StatusCause> subjectCauses(JsonNode s, String path) {
        List<StatusCause> causes = new ArrayList<>();
        String name = orEmpty(Json.text(s, "name"));
        String apiGroup = orEmpty(Json.text(s, "apiGroup"));
        if (name.isEmpty()) {
            causes.add(StatusCause.required(path + ".name"));
        }
        switch (orEmpty(Json.text(s, "kind"))) {
            case "ServiceAccount" -> {
                if (!name.isEmpty()) {
                    for (String msg : NameValidation.isDns1123Subdomain(name)) {
                        causes.add(StatusCause.invalid(path + ".name", name, msg));
                    }
                }
                if (!apiGroup.isEmpty()) {
                    causes.add(notSupported(path + ".apiGroup", apiGroup, List.of("")));
                }
            }
            case "User", "Group" -> {
                if (name.isEmpty()) {
                    causes.add(StatusCause.invalid(path + ".name", name,
                            Json.text(s, "kind").toLowerCase() + " name cannot be empty"));
                }
                if (!apiGroup.equals(GROUP)) {
                    causes.add(notSupported(path + ".apiGroup", apiGroup, List.of(GROUP)));
                }
            }
            default -> causes.add(notSupported(path + ".kind", orEmpty(Json.text(s, "kind")),
                    List.of("ServiceAccount", "User", "Group")));
        }
        return causes;
    }

    private static StatusCause notSupported(String field, String value, List<String> supported) {
        return new StatusCause("FieldValueNotSupported", "Unsupported value: \"" + value + "\": supported values: "
                + String.join(", ", supported.stream().map(v -> "\"" + v + "\"").toList()), field);
    }

    /** The roleRef as Go's %#v prints an rbac.RoleRef. */
    private static String goRoleRef(JsonNode ref) {
        return "rbac.RoleRef{APIGroup:\"" + orEmpty(Json.text(ref, "apiGroup")) + "\", Kind:\""
                + orEmpty(Json.text(ref, "kind")) + "\", Name:\"" + orEmpty(Json.text(ref, "name")) + "\"}";
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }
}
