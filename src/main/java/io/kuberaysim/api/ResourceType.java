package io.kuberaysim.api;

import java.util.List;
import java.util.Objects;

/**
 * One served resource: its group/version/kind, REST plural, scope and discovery names.
 * The same description drives routing, discovery, error messages and storage keys.
 */
public record ResourceType(
        String group,
        String version,
        String kind,
        String plural,
        String singular,
        boolean namespaced,
        boolean statusSubresource,
        List<String> shortNames,
        List<String> categories) {

    /**
     * The group and plural only (equal types have equal ones, so this agrees with the record's {@code equals}): types
     * key the store's tables, the strategies and the metrics, looked up several times per request, and the record's
     * own hash walked the short-name and category lists every time (~4 % of an HTTP create's server samples).
     */
    @Override
    public int hashCode() {
        return 31 * Objects.hashCode(group) + Objects.hashCode(plural);
    }

    /** As the record's, answering at once for the same instance (the usual case: the types are constants). */
    @Override
    public boolean equals(Object o) {
        return this == o || o instanceof ResourceType t && namespaced == t.namespaced
                && statusSubresource == t.statusSubresource && Objects.equals(group, t.group)
                && Objects.equals(version, t.version) && Objects.equals(kind, t.kind)
                && Objects.equals(plural, t.plural) && Objects.equals(singular, t.singular)
                && Objects.equals(shortNames, t.shortNames) && Objects.equals(categories, t.categories);
    }

    /** {@code v1} for the core group, {@code group/version} otherwise. */
    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    /** Group-qualified resource as kube-apiserver prints it in messages: {@code pods}, {@code rayclusters.ray.io}. */
    public String groupResource() {
        return group.isEmpty() ? plural : plural + "." + group;
    }

    /** Group-qualified kind as used by Invalid errors: {@code Pod}, {@code RayCluster.ray.io}. */
    public String groupKind() {
        return group.isEmpty() ? kind : kind + "." + group;
    }

    public String listKind() {
        return kind + "List";
    }

    /**
     * Custom resources (served from CRDs on a real cluster: KubeRay's and the simulation's own sim.kuberay.io kinds)
     * differ from built-ins in a few API rules.
     */
    public boolean isCustomResource() {
        return group.equals("ray.io") || group.equals("sim.kuberay.io");
    }
}
