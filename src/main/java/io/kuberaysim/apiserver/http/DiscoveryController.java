package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.ApiException;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * API discovery, built from {@link ResourceTypes#DISCOVERABLE_TYPES}: aggregated discovery (apidiscovery.k8s.io/v2) on
 * {@code /api} and {@code /apis} when the client asks for it, the legacy {@code APIVersions}/{@code APIGroupList}
 * otherwise, and the per-group-version {@code APIResourceList}s that clients resolving kinds still read.
 */
@RestController
class DiscoveryController {
    static final String AGGREGATED_TYPE = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
    private static final List<String> VERBS = List.of("create", "delete", "deletecollection", "get", "list", "patch",
            "update", "watch");
    private static final List<String> STATUS_VERBS = List.of("get", "patch", "update");
    private static final List<String> CREATE_ONLY = List.of("create");
    private static final List<String> READ_ONLY = List.of("get", "list", "watch");

    /**
     * Discovery paths answer with and without a trailing slash: kube-apiserver's router (go-restful 3.11) trims it,
     * and typed clients generated from its OpenAPI document (the Python client's {@code CoreApi}) ask for
     * {@code /api/}.
     */
    @GetMapping({"/api", "/api/"})
    ResponseEntity<byte[]> core(HttpServletRequest req) {
        if (wantsAggregated(req)) {
            return aggregated(groups(true));
        }
        ObjectNode body = Json.object();
        body.put("kind", "APIVersions");
        body.putArray("versions").add("v1");
        ObjectNode addr = body.putArray("serverAddressByClientCIDRs").addObject();
        addr.put("clientCIDR", "0.0.0.0/0");
        addr.put("serverAddress", req.getLocalAddr() + ":" + req.getLocalPort());
        return json(body);
    }

    /** {@code /apis/} too: kube-aggregator serves the group list on both (its apis handler is mounted twice). */
    @GetMapping({"/apis", "/apis/"})
    ResponseEntity<byte[]> groups(HttpServletRequest req) {
        if (wantsAggregated(req)) {
            return aggregated(groups(false));
        }
        ObjectNode body = Json.object();
        body.put("kind", "APIGroupList");
        body.put("apiVersion", "v1");
        ArrayNode list = body.putArray("groups");
        groups(false).forEach((group, versions) -> list.add(apiGroup(group, versions)));
        return json(body);
    }

    @GetMapping({"/apis/{group}", "/apis/{group}/"})
    ResponseEntity<byte[]> group(@PathVariable String group) {
        Set<String> versions = groups(false).get(group);
        if (versions == null) {
            throw ApiException.pathNotFound();
        }
        ObjectNode body = apiGroup(group, versions);
        body.put("kind", "APIGroup");
        body.put("apiVersion", "v1");
        return json(body);
    }

    @GetMapping({"/api/v1", "/api/v1/"})
    ResponseEntity<byte[]> coreResources() {
        return json(resourceList("", "v1"));
    }

    @GetMapping({"/apis/{group}/{version}", "/apis/{group}/{version}/"})
    ResponseEntity<byte[]> groupResources(@PathVariable String group, @PathVariable String version) {
        Set<String> versions = groups(false).get(group);
        if (versions == null || !versions.contains(version)) {
            throw ApiException.pathNotFound();
        }
        return json(resourceList(group, version));
    }

    /** Group name to its versions, in discovery order: the core group alone, or every named group. */
    private static Map<String, Set<String>> groups(boolean core) {
        Map<String, Set<String>> groups = new LinkedHashMap<>();
        for (ResourceType t : ResourceTypes.DISCOVERABLE_TYPES) {
            if (t.group().isEmpty() == core) {
                groups.computeIfAbsent(t.group(), g -> new LinkedHashSet<>()).add(t.version());
            }
        }
        return groups;
    }

    private static ObjectNode apiGroup(String group, Set<String> versions) {
        ObjectNode g = Json.object();
        g.put("name", group);
        ArrayNode vs = g.putArray("versions");
        for (String v : versions) {
            vs.addObject().put("groupVersion", group + "/" + v).put("version", v);
        }
        String preferred = versions.iterator().next();
        g.putObject("preferredVersion").put("groupVersion", group + "/" + preferred).put("version", preferred);
        return g;
    }

    private static ObjectNode resourceList(String group, String version) {
        ObjectNode body = Json.object();
        body.put("kind", "APIResourceList");
        body.put("apiVersion", "v1");
        body.put("groupVersion", group.isEmpty() ? version : group + "/" + version);
        ArrayNode resources = body.putArray("resources");
        for (ResourceType t : ResourceTypes.DISCOVERABLE_TYPES) {
            if (!t.group().equals(group) || !t.version().equals(version)) {
                continue;
            }
            ObjectNode r = resources.addObject();
            r.put("name", t.plural());
            r.put("singularName", t.singular());
            r.put("namespaced", t.namespaced());
            r.put("kind", t.kind());
            verbs(t).forEach(r.putArray("verbs")::add);
            if (!t.shortNames().isEmpty()) {
                t.shortNames().forEach(r.putArray("shortNames")::add);
            }
            if (!t.categories().isEmpty()) {
                t.categories().forEach(r.putArray("categories")::add);
            }
            if (t == ResourceTypes.PODS) {
                ObjectNode b = resources.addObject();
                b.put("name", t.plural() + "/" + ResourceTypes.BINDING_SUBRESOURCE);
                b.put("singularName", "");
                b.put("namespaced", true);
                b.put("kind", ResourceTypes.BINDINGS.kind());
                CREATE_ONLY.forEach(b.putArray("verbs")::add);
            }
            if (t.statusSubresource()) {
                ObjectNode s = resources.addObject();
                s.put("name", t.plural() + "/status");
                s.put("singularName", "");
                s.put("namespaced", t.namespaced());
                s.put("kind", t.kind());
                STATUS_VERBS.forEach(s.putArray("verbs")::add);
            }
        }
        return body;
    }

    private static ResponseEntity<byte[]> aggregated(Map<String, Set<String>> groups) {
        ObjectNode body = Json.object();
        body.put("kind", "APIGroupDiscoveryList");
        body.put("apiVersion", "apidiscovery.k8s.io/v2");
        body.putObject("metadata");
        ArrayNode items = body.putArray("items");
        groups.forEach((group, versions) -> {
            ObjectNode item = items.addObject();
            ObjectNode meta = item.putObject("metadata");
            meta.put("name", group);
            meta.putNull("creationTimestamp");
            ArrayNode vs = item.putArray("versions");
            for (String v : versions) {
                ObjectNode version = vs.addObject();
                version.put("version", v);
                version.put("freshness", "Current");
                ArrayNode resources = version.putArray("resources");
                for (ResourceType t : ResourceTypes.DISCOVERABLE_TYPES) {
                    if (t.group().equals(group) && t.version().equals(v)) {
                        resources.add(aggregatedResource(t));
                    }
                }
            }
        });
        HttpHeaders h = new HttpHeaders();
        h.setContentType(MediaType.parseMediaType(AGGREGATED_TYPE));
        h.add("Vary", "Accept");
        return new ResponseEntity<>(Json.MAPPER.writeValueAsBytes(body), h, HttpStatus.OK);
    }

    private static ObjectNode aggregatedResource(ResourceType t) {
        ObjectNode r = Json.object();
        r.put("resource", t.plural());
        r.set("responseKind", gvk(t));
        r.put("scope", t.namespaced() ? "Namespaced" : "Cluster");
        r.put("singularResource", t.singular());
        verbs(t).forEach(r.putArray("verbs")::add);
        if (!t.shortNames().isEmpty()) {
            t.shortNames().forEach(r.putArray("shortNames")::add);
        }
        if (!t.categories().isEmpty()) {
            t.categories().forEach(r.putArray("categories")::add);
        }
        if (t == ResourceTypes.PODS) {
            ObjectNode b = r.withArrayProperty("subresources").addObject();
            b.put("subresource", ResourceTypes.BINDING_SUBRESOURCE);
            b.set("responseKind", gvk(ResourceTypes.BINDINGS));
            CREATE_ONLY.forEach(b.putArray("verbs")::add);
        }
        if (t.statusSubresource()) {
            ObjectNode s = r.withArrayProperty("subresources").addObject();
            s.put("subresource", "status");
            s.set("responseKind", gvk(t));
            STATUS_VERBS.forEach(s.putArray("verbs")::add);
        }
        return r;
    }

    private static List<String> verbs(ResourceType t) {
        return ResourceTypes.isCreateOnly(t) ? CREATE_ONLY : ResourceTypes.isReadOnly(t) ? READ_ONLY : VERBS;
    }

    private static ObjectNode gvk(ResourceType t) {
        ObjectNode k = Json.object();
        k.put("group", t.group());
        k.put("version", t.version());
        k.put("kind", t.kind());
        return k;
    }

    /** True when the Accept header lists the apidiscovery v2 (or v2beta1) aggregated representation. */
    static boolean wantsAggregated(HttpServletRequest req) {
        String accept = req.getHeader("Accept");
        if (accept == null) {
            return false;
        }
        for (String part : accept.split(",")) {
            String p = part.toLowerCase(Locale.ROOT).replace(" ", "");
            if (p.contains("g=apidiscovery.k8s.io") && p.contains("as=apigroupdiscoverylist")
                    && (p.contains("v=v2;") || p.endsWith("v=v2") || p.contains("v=v2beta1"))) {
                return true;
            }
        }
        return false;
    }

    private static ResponseEntity<byte[]> json(ObjectNode body) {
        return ResourceHandler.json(HttpStatus.OK, Json.MAPPER.writeValueAsBytes(body), List.of());
    }
}
