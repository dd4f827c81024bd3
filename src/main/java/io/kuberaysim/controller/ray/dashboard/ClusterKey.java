package io.kuberaysim.controller.ray.dashboard;

import java.util.Objects;
import java.util.Optional;

/**
 * Which cluster's dashboard: the RayCluster's namespace and name.
 *
 * @param namespace the RayCluster's namespace
 * @param name      the RayCluster's name
 */
public record ClusterKey(String namespace, String name) {
    private static final String HEAD_SERVICE_SUFFIX = "-head-svc";

    /** Both parts are required. */
    public ClusterKey {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
    }

    /**
     * The cluster a dashboard address points at: {@code [http://]<cluster>-head-svc.<ns>.svc.cluster.local:<port>}.
     *
     * @return the cluster, or empty when the address is not of that form
     */
    public static Optional<ClusterKey> fromDashboardAddress(String address) {
        if (address == null || address.isBlank()) {
            return Optional.empty();
        }
        String a = address.trim();
        int scheme = a.indexOf("://");
        if (scheme >= 0) {
            a = a.substring(scheme + 3);
        }
        int slash = a.indexOf('/');
        if (slash >= 0) {
            a = a.substring(0, slash);
        }
        int colon = a.indexOf(':');
        if (colon >= 0) {
            a = a.substring(0, colon);
        }
        String[] parts = a.split("\\.");
        if (parts.length < 3 || !"svc".equals(parts[2]) || !parts[0].endsWith(HEAD_SERVICE_SUFFIX)) {
            return Optional.empty();
        }
        String cluster = parts[0].substring(0, parts[0].length() - HEAD_SERVICE_SUFFIX.length());
        return cluster.isEmpty() ? Optional.empty() : Optional.of(new ClusterKey(parts[1], cluster));
    }

    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
