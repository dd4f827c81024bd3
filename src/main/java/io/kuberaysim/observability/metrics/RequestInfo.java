package io.kuberaysim.observability.metrics;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import jakarta.servlet.http.HttpServletRequest;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The labels kube-apiserver puts on a request's metrics, worked out from the request as its RequestInfoFactory
 * and metrics filter do: the reported verb (LIST, WATCH, APPLY, ...), dry_run, group, version, resource,
 * subresource and scope. Paths that name no served resource are non-resource requests: the method is the verb and
 * the subresource label carries the path, which {@link #forPath} fills in once the handler is known.
 *
 * @param verb         reported verb, upper case
 * @param dryRun       sorted {@code dryRun} values, "invalid" for an unknown one, "" without any
 * @param type         the served resource, null for a non-resource request
 * @param subresource  status, log, ... or the path of a non-resource request ("" until known)
 * @param scope        resource, namespace, cluster, or "" for a non-resource request
 * @param mutating     whether it counts as a mutating request for {@code apiserver_current_inflight_requests}
 * @param longRunning  a watch or a pod log: counted in {@code apiserver_longrunning_requests}, not in flight
 * @param bodyVerb     create, update or patch for requests whose body size kube-apiserver records, else null
 */
record RequestInfo(String verb, String dryRun, ResourceType type, String subresource, String scope,
                   boolean mutating, boolean longRunning, String bodyVerb) {

    /** What kube-apiserver's metrics accept as a verb; anything else is reported as "other". */
    private static final Set<String> VALID_VERBS = Set.of("APPLY", "CONNECT", "CREATE", "DELETE", "DELETECOLLECTION",
            "GET", "LIST", "PATCH", "POST", "PROXY", "PUT", "UPDATE", "WATCH", "WATCHLIST");
    private static final String APPLY_PATCH = "application/apply-patch+yaml";
    /** Subresources kube-apiserver serves as long-running requests. */
    private static final Set<String> LONG_RUNNING_SUBRESOURCES = Set.of("attach", "exec", "log", "portforward", "proxy");

    boolean resourceRequest() {
        return type != null;
    }

    String group() {
        return type == null ? "" : type.group();
    }

    String version() {
        return type == null ? "" : type.version();
    }

    String resource() {
        return type == null ? "" : type.plural();
    }

    /**
     * Equal labels, cheaply: this record keys the meters of every request, and served resource types are singletons
     * (a {@code ResourceType}'s own equality walks its name lists).
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof RequestInfo r && type == r.type && verb.equals(r.verb) && dryRun.equals(r.dryRun)
                && subresource.equals(r.subresource) && scope.equals(r.scope) && mutating == r.mutating
                && longRunning == r.longRunning && Objects.equals(bodyVerb, r.bodyVerb);
    }

    @Override
    public int hashCode() {
        int h = verb.hashCode();
        h = 31 * h + dryRun.hashCode();
        h = 31 * h + System.identityHashCode(type);
        h = 31 * h + subresource.hashCode();
        return 31 * h + scope.hashCode();
    }

    /** A non-resource request's labels with the path it was served under. */
    RequestInfo forPath(String path) {
        return new RequestInfo(verb, dryRun, type, path, scope, mutating, longRunning, bodyVerb);
    }

    static RequestInfo of(HttpServletRequest req) {
        String method = req.getMethod();
        boolean mutating = switch (method) {
            case "POST", "PUT", "PATCH", "DELETE" -> true;
            default -> false;
        };
        String dryRun = dryRun(req);
        String[] parts = resourceParts(req.getRequestURI());
        ResourceType type = parts == null ? null : ResourceTypes.find(parts[0], parts[1], parts[3]).orElse(null);
        if (type == null) {
            return new RequestInfo(cleanVerb(method), dryRun, null, "", "", mutating, false, null);
        }
        String namespace = parts[2];
        String name = parts[4];
        String subresource = parts[5];
        boolean create = method.equals("POST") && name.isEmpty();
        String scope = !name.isEmpty() || create ? "resource" : !namespace.isEmpty() ? "namespace" : "cluster";
        String verb = switch (method) {
            case "GET", "HEAD" -> !scope.equals("resource") ? (watch(req) ? "WATCH" : "LIST") : "GET";
            case "PATCH" -> contentType(req).startsWith(APPLY_PATCH) ? "APPLY" : "PATCH";
            default -> cleanVerb(method);
        };
        boolean longRunning = verb.equals("WATCH") || LONG_RUNNING_SUBRESOURCES.contains(subresource);
        String bodyVerb = switch (method) {
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            default -> null;
        };
        return new RequestInfo(verb, dryRun, type, subresource, scope, mutating, longRunning, bodyVerb);
    }

    private static String cleanVerb(String method) {
        return VALID_VERBS.contains(method) ? method : "other";
    }

    /**
     * {group, version, namespace, resource, name, subresource} of an {@code /api} or {@code /apis} path ("" for
     * absent parts), following kube-apiserver's RequestInfoFactory; null for any other path.
     */
    private static String[] resourceParts(String uri) {
        if (!uri.startsWith("/api/") && !uri.startsWith("/apis/")) {
            return null;
        }
        List<String> seg = segments(uri);
        int i;
        String group;
        if (seg.size() >= 3 && seg.get(0).equals("api")) {
            group = "";
            i = 1;
        } else if (seg.size() >= 4 && seg.get(0).equals("apis")) {
            group = seg.get(1);
            i = 2;
        } else {
            return null;
        }
        String version = seg.get(i);
        List<String> rest = seg.subList(i + 1, seg.size());
        String namespace = "";
        if (rest.get(0).equals("namespaces") && rest.size() > 1) {
            namespace = rest.get(1);
            // /namespaces/{ns}/{resource}...; but /namespaces/{name}/status and /finalize are the Namespace's own
            if (rest.size() > 2 && !rest.get(2).equals("status") && !rest.get(2).equals("finalize")) {
                rest = rest.subList(2, rest.size());
            }
        }
        if (rest.size() > 3) {
            return null;
        }
        return new String[]{group, version, namespace, rest.get(0), rest.size() > 1 ? rest.get(1) : "",
                rest.size() > 2 ? rest.get(2) : ""};
    }

    /** The non-empty segments of a path, without a regular expression: this runs on every request. */
    private static List<String> segments(String path) {
        List<String> seg = new ArrayList<>(8);
        int i = 0;
        while (i < path.length()) {
            int slash = path.indexOf('/', i);
            int end = slash < 0 ? path.length() : slash;
            if (end > i) {
                seg.add(path.substring(i, end));
            }
            i = end + 1;
        }
        return seg;
    }

    private static boolean watch(HttpServletRequest req) {
        List<String> w = queryValues(req.getQueryString(), "watch");
        return !w.isEmpty() && !w.get(0).equalsIgnoreCase("false") && !w.get(0).equals("0");
    }

    private static String contentType(HttpServletRequest req) {
        String ct = req.getContentType();
        return ct == null ? "" : ct;
    }

    /** kube-apiserver's dry_run label: the deduplicated, sorted values ("All"), "invalid" for any other value. */
    private static String dryRun(HttpServletRequest req) {
        String query = req.getQueryString();
        if (query == null || !query.contains("dryRun")) {
            return "";
        }
        List<String> values = queryValues(query, "dryRun");
        if (values.isEmpty()) {
            return "";
        }
        TreeSet<String> set = new TreeSet<>(values);
        if (!set.stream().allMatch("All"::equals)) {
            return "invalid";
        }
        return String.join(",", set);
    }

    /**
     * The values of one query parameter, read from the query string itself: {@code getParameter} would read a
     * form-encoded body, which belongs to the handler.
     */
    private static List<String> queryValues(String query, String key) {
        if (query == null || !query.contains(key)) {
            return List.of();
        }
        List<String> values = new ArrayList<>();
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            String k = decode(eq < 0 ? pair : pair.substring(0, eq));
            if (k.equals(key)) {
                values.add(eq < 0 ? "" : decode(pair.substring(eq + 1)));
            }
        }
        return values;
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return s; // a malformed escape is the handler's to reject; the labels take it as it is
        }
    }
}
