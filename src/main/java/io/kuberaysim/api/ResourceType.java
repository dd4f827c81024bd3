package io.kuberaysim.api;

import java.util.List;

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
