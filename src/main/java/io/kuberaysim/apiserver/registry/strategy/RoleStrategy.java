package io.kuberaysim.apiserver.registry.strategy;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.registry.ResourceStrategy;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

/**
 * rbac.authorization.k8s.io/v1 Role: kube's {@code ValidateRole} (path-segment names, each rule needs verbs and, for
 * resource rules, API groups and resources; namespaced rules cannot name non-resource URLs). Nothing enforces the
 * rules: this server has no authorization.
 */
public final class RoleStrategy implements ResourceStrategy {
    @Override
    public ResourceType type() {
        return ResourceTypes.ROLES;
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
    public List<StatusCause> validate(ObjectNode object) {
        List<StatusCause> causes = new ArrayList<>();
        JsonNode rules = object.get("rules");
        if (rules == null || !rules.isArray()) {
            return causes;
        }
        for (int i = 0; i < rules.size(); i++) {
            String path = "rules[" + i + "]";
            JsonNode rule = rules.get(i);
            if (size(rule, "verbs") == 0) {
                causes.add(required(path + ".verbs", "verbs must contain at least one value"));
            }
            if (size(rule, "nonResourceURLs") > 0) {
                causes.add(invalidGo(path + ".nonResourceURLs", goList(rule.get("nonResourceURLs")),
                        "namespaced rules cannot apply to non-resource URLs"));
                if (size(rule, "apiGroups") > 0 || size(rule, "resources") > 0 || size(rule, "resourceNames") > 0) {
                    causes.add(invalidGo(path + ".nonResourceURLs", goList(rule.get("nonResourceURLs")),
                            "rules cannot apply to both regular resources and non-resource URLs"));
                }
                continue;
            }
            if (size(rule, "apiGroups") == 0) {
                causes.add(required(path + ".apiGroups", "resource rules must supply at least one api group"));
            }
            if (size(rule, "resources") == 0) {
                causes.add(required(path + ".resources", "resource rules must supply at least one resource"));
            }
            if (size(rule, "resourceNames") > 0 && size(rule, "resources") > 1) {
                causes.add(required(path + ".resourceNames", "resource names cannot apply to multiple resources"));
            }
        }
        return causes;
    }

    /** An Invalid cause whose value is already rendered as Go's %#v renders it. */
    private static StatusCause invalidGo(String field, String rendered, String detail) {
        return new StatusCause("FieldValueInvalid", "Invalid value: " + rendered + ": " + detail, field);
    }

    static StatusCause required(String field, String detail) {
        return new StatusCause("FieldValueRequired", "Required value: " + detail, field);
    }

    private static int size(JsonNode rule, String field) {
        JsonNode v = rule.get(field);
        return v != null && v.isArray() ? v.size() : 0;
    }

    /** A []string as Go's %#v prints it in an Invalid value. */
    private static String goList(JsonNode list) {
        List<String> items = new ArrayList<>();
        list.forEach(v -> items.add("\"" + v.asString() + "\""));
        return "[]string{" + String.join(", ", items) + "}";
    }
}
