package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ray.RayClusterSpec;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.ray.RayLabels;
import io.kuberaysim.controller.runtime.OwnerReferences;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The ServiceAccount, Role and RoleBinding KubeRay gives an autoscaling RayCluster's autoscaler sidecar
 * ({@code common/rbac.go}): the Role lets it read and patch Pods and patch its RayCluster; the ServiceAccount is the
 * head template's {@code serviceAccountName}, else the cluster's name. Each is owned by the cluster.
 */
final class AutoscalerRbac {
    private AutoscalerRbac() {
    }

    /** {@code GetHeadGroupServiceAccountName}: the head template's ServiceAccount, else the cluster's name. */
    static String serviceAccountName(String cluster, RayClusterSpec spec) {
        String named = Json.text(spec.headGroupSpec().template(), "spec", "serviceAccountName");
        return named == null || named.isEmpty() ? cluster : named;
    }

    static ObjectNode serviceAccount(StoredObject cluster, RayClusterSpec spec) {
        return object(cluster, "v1", "ServiceAccount",
                RayLabels.checkName(serviceAccountName(cluster.name(), spec)));
    }

    static ObjectNode role(StoredObject cluster) {
        ObjectNode role = object(cluster, "rbac.authorization.k8s.io/v1", "Role", RayLabels.checkName(cluster.name()));
        ArrayNode rules = role.putArray("rules");
        rule(rules, "", "pods", "get", "list", "watch", "patch");
        rule(rules, "", "pods/resize", "patch");
        rule(rules, "ray.io", "rayclusters", "get", "patch");
        return role;
    }

    static ObjectNode roleBinding(StoredObject cluster, RayClusterSpec spec) {
        ObjectNode binding = object(cluster, "rbac.authorization.k8s.io/v1", "RoleBinding",
                RayLabels.checkName(cluster.name()));
        binding.putArray("subjects").addObject().put("kind", "ServiceAccount")
                .put("name", RayLabels.checkName(serviceAccountName(cluster.name(), spec)))
                .put("namespace", cluster.namespace());
        binding.putObject("roleRef").put("apiGroup", "rbac.authorization.k8s.io").put("kind", "Role")
                .put("name", RayLabels.checkName(cluster.name()));
        return binding;
    }

    private static ObjectNode object(StoredObject cluster, String apiVersion, String kind, String name) {
        ObjectNode o = Json.object();
        o.put("apiVersion", apiVersion).put("kind", kind);
        ObjectNode meta = o.putObject("metadata");
        meta.put("name", name).put("namespace", cluster.namespace());
        meta.putObject("labels").put(RayLabels.CLUSTER, cluster.name())
                .put(RayLabels.APP_NAME, RayLabels.APP_NAME_VALUE)
                .put(RayLabels.CREATED_BY, RayLabels.CREATED_BY_VALUE);
        meta.putArray("ownerReferences").add(OwnerReferences.controllerReference(cluster));
        return o;
    }

    private static void rule(ArrayNode rules, String group, String resource, String... verbs) {
        ObjectNode rule = rules.addObject();
        rule.putArray("apiGroups").add(group);
        rule.putArray("resources").add(resource);
        ArrayNode v = rule.putArray("verbs");
        for (String verb : verbs) {
            v.add(verb);
        }
    }
}
