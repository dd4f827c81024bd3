package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.ApiException;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * A parsed Kubernetes resource path: {@code /api/v1[/namespaces/{ns}]/{plural}[/{name}[/{sub}]]} and
 * {@code /apis/{group}/{version}[/namespaces/{ns}]/{plural}[/{name}[/{sub}]]}. {@code namespace} is null for
 * cluster-scoped types and for all-namespaces lists.
 */
record ResourcePath(ResourceType type, String namespace, String name, String subresource) {

    /** Pod subresources that connect to a container (kubectl exec, attach, port-forward). */
    private static final java.util.Set<String> CONNECT = java.util.Set.of("exec", "attach", "portforward");

    boolean isCollection() {
        return name == null;
    }

    /** Whether this is a Pod's exec, attach or portforward subresource, which has no container to reach here. */
    boolean isConnect() {
        return subresource != null && type.equals(ResourceTypes.PODS) && CONNECT.contains(subresource);
    }

    static ResourcePath parse(String uri) {
        java.util.List<String> seg = segments(uri);
        String group;
        String version;
        int i;
        if (seg.size() >= 2 && seg.get(0).equals("api")) {
            group = "";
            version = seg.get(1);
            i = 2;
        } else if (seg.size() >= 3 && seg.get(0).equals("apis")) {
            group = seg.get(1);
            version = seg.get(2);
            i = 3;
        } else {
            throw ApiException.pathNotFound();
        }
        java.util.List<String> rest = seg.subList(i, seg.size());
        if (rest.isEmpty()) {
            throw ApiException.pathNotFound();
        }
        String namespace = null;
        // /namespaces/{ns}/{plural}... is a namespaced collection; /namespaces/{name}[/status] is a Namespace
        if (rest.get(0).equals("namespaces") && rest.size() >= 3
                && !(rest.size() == 3 && group.isEmpty() && (rest.get(2).equals("status") || rest.get(2).equals("finalize")))) {
            namespace = rest.get(1);
            rest = rest.subList(2, rest.size());
        }
        if (rest.size() > 3) {
            throw ApiException.pathNotFound();
        }
        // an unknown group/version/plural is a 404, as kube-apiserver answers unknown paths
        ResourceType type = ResourceTypes.find(group, version, rest.get(0)).orElseThrow(ApiException::pathNotFound);
        if (namespace != null && !type.namespaced()) {
            throw ApiException.pathNotFound();
        }
        String name = rest.size() > 1 ? rest.get(1) : null;
        String sub = rest.size() > 2 ? rest.get(2) : null;
        if (name != null && type.namespaced() && namespace == null) {
            throw ApiException.pathNotFound();
        }
        if (sub != null && !(sub.equals("status") && type.statusSubresource())
                && !(sub.equals("finalize") && type.equals(ResourceTypes.NAMESPACES))
                && !((sub.equals("log") || CONNECT.contains(sub)) && type.equals(ResourceTypes.PODS))) {
            // the CRD handler answers a subresource the CRD does not declare (scale on a RayCluster) as a missing
            // object; built-in types have no route for it, hence the generic 404
            throw type.isCustomResource() ? ApiException.notFound(type, name) : ApiException.pathNotFound();
        }
        return new ResourcePath(type, namespace, name, sub);
    }

    /**
     * The non-empty segments of {@code uri}, each URL-decoded, in one pass over it (this runs on every resource
     * request; splitting by a pattern and collecting into a growing list cost more than the rest of the parse).
     */
    private static java.util.List<String> segments(String uri) {
        String[] seg = new String[8];
        int n = 0;
        int start = 0;
        int length = uri.length();
        while (start <= length) {
            int end = uri.indexOf('/', start);
            if (end < 0) {
                end = length;
            }
            if (end > start) {
                if (n == seg.length) {
                    seg = java.util.Arrays.copyOf(seg, n * 2);
                }
                String raw = uri.substring(start, end);
                // URLDecoder builds a new string even when there is nothing to decode (the usual segment)
                seg[n++] = raw.indexOf('%') < 0 && raw.indexOf('+') < 0 ? raw
                        : URLDecoder.decode(raw, StandardCharsets.UTF_8);
            }
            start = end + 1;
        }
        return java.util.Arrays.asList(seg).subList(0, n);
    }
}
