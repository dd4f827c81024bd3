package io.kuberaysim.apiserver.storage;

import io.kuberaysim.api.ResourceType;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where objects live in etcd, laid out as kube-apiserver lays them out:
 * {@code <prefix>/<group>/<resource>/<namespace>/<name>}, the core group without its (empty) group segment
 * ({@code /registry/pods/default/web-0}), cluster-scoped objects without a namespace ({@code /registry/nodes/n1}).
 */
final class EtcdKeys {
    private final String prefix;
    private final Map<String, ResourceType> byResource = new HashMap<>();

    /** @param prefix the key prefix without a trailing slash, e.g. {@code /registry} */
    EtcdKeys(String prefix, List<ResourceType> types) {
        this.prefix = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
        for (ResourceType t : types) {
            byResource.put(resourcePath(t), t);
        }
    }

    /** A key with its type and name, as read back from etcd. */
    record Parsed(ResourceType type, String namespace, String name) {
    }

    /** The types stored under this prefix. */
    java.util.Collection<ResourceType> types() {
        return byResource.values();
    }

    /** Every key this store owns starts with this. */
    String root() {
        return prefix + "/";
    }

    String key(ResourceType type, String namespace, String name) {
        if (byResource.get(resourcePath(type)) != type) {
            // its change would never be recognised on the watch: refuse instead of waiting for it
            throw new IllegalArgumentException(type.groupResource() + " is not a stored type of this etcd store");
        }
        StringBuilder k = new StringBuilder(prefix.length() + 64).append(prefix).append('/').append(resourcePath(type))
                .append('/');
        if (type.namespaced() && namespace != null && !namespace.isEmpty()) {
            k.append(namespace).append('/');
        }
        return k.append(name).toString();
    }

    /** The type, namespace and name of {@code key}; null for a key of no stored type (someone else's). */
    Parsed parse(String key) {
        if (!key.startsWith(root())) {
            return null;
        }
        String[] parts = key.substring(root().length()).split("/", -1);
        // a core resource is one segment (pods), any other group two (ray.io/rayclusters)
        for (int groupSegments = 0; groupSegments <= 1; groupSegments++) {
            if (parts.length <= groupSegments) {
                return null;
            }
            String resource = groupSegments == 0 ? parts[0] : parts[0] + "/" + parts[1];
            ResourceType type = byResource.get(resource);
            if (type == null) {
                continue;
            }
            int rest = parts.length - groupSegments - 1;
            if (type.namespaced() && rest == 2) {
                return new Parsed(type, parts[groupSegments + 1], parts[groupSegments + 2]);
            }
            if (rest == 1) {
                return new Parsed(type, "", parts[groupSegments + 1]);
            }
        }
        return null;
    }

    private static String resourcePath(ResourceType type) {
        return type.group().isEmpty() ? type.plural() : type.group() + "/" + type.plural();
    }
}
