package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.api.ray.RaySchemas;
import io.kuberaysim.api.sim.SimSchemas;
import io.kuberaysim.apiserver.errors.ApiException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The kube-apiserver OpenAPI v3 endpoints kubectl reads: {@code /openapi/v3} (index of group-versions) and one
 * document per group-version. kubectl checks that PATCH operations accept {@code fieldValidation} before
 * sending {@code fieldValidation=Strict} on {@code apply}, and {@code kubectl explain} finds a kind's schema
 * by its {@code x-kubernetes-group-version-kind}. The Ray schemas are generated from the model types; the
 * built-in kinds get a minimal schema. Separate from springdoc's {@code /v3/api-docs}.
 */
@RestController
class OpenApiController {
    /** Built on the first request, not at start: most runs never ask (kubectl does on apply and explain). */
    private volatile Documents built;

    /** Every group-version's document, encoded, and its hash. */
    private record Documents(Map<String, byte[]> documents, Map<String, String> hashes) {
        static Documents build() {
            Map<String, byte[]> documents = new LinkedHashMap<>();
            Map<String, String> hashes = new LinkedHashMap<>();
            for (ResourceType t : ResourceTypes.DISCOVERABLE_TYPES) {
                String key = pathKey(t.group(), t.version());
                if (!documents.containsKey(key)) {
                    byte[] doc = Json.MAPPER.writeValueAsBytes(document(t.group(), t.version()));
                    documents.put(key, doc);
                    hashes.put(key, sha512(doc));
                }
            }
            return new Documents(documents, hashes);
        }
    }

    private Documents documents() {
        Documents d = built;
        if (d == null) {
            synchronized (this) {
                d = built;
                if (d == null) {
                    d = Documents.build();
                    built = d;
                }
            }
        }
        return d;
    }

    @GetMapping("/openapi/v3")
    ResponseEntity<byte[]> index() {
        ObjectNode body = Json.object();
        ObjectNode paths = body.putObject("paths");
        documents().hashes().forEach((key, hash) -> paths.putObject(key).put("serverRelativeURL", "/openapi/v3/"
                + key + "?hash=" + hash));
        return ResourceHandler.json(HttpStatus.OK, Json.MAPPER.writeValueAsBytes(body), List.of());
    }

    @GetMapping("/openapi/v3/api/{version}")
    ResponseEntity<byte[]> core(@PathVariable String version) {
        return serve(pathKey("", version));
    }

    @GetMapping("/openapi/v3/apis/{group}/{version}")
    ResponseEntity<byte[]> group(@PathVariable String group, @PathVariable String version) {
        return serve(pathKey(group, version));
    }

    private ResponseEntity<byte[]> serve(String key) {
        Documents d = documents();
        byte[] doc = d.documents().get(key);
        if (doc == null) {
            throw ApiException.pathNotFound();
        }
        HttpHeaders h = new HttpHeaders();
        h.setContentType(MediaType.APPLICATION_JSON);
        h.setETag("\"" + d.hashes().get(key) + "\"");
        return new ResponseEntity<>(doc, h, HttpStatus.OK);
    }

    private static String pathKey(String group, String version) {
        return group.isEmpty() ? "api/" + version : "apis/" + group + "/" + version;
    }

    /** Name of a kind's schema as kube-apiserver names it: {@code io.k8s.api.core.v1.Pod}, {@code io.ray.v1.RayCluster}. */
    static String schemaName(ResourceType t) {
        if (t.isCustomResource()) {
            // a CRD's definitions are named by the group's labels reversed: ray.io -> io.ray
            List<String> labels = new java.util.ArrayList<>(List.of(t.group().split("\\.")));
            java.util.Collections.reverse(labels);
            return String.join(".", labels) + "." + t.version() + "." + t.kind();
        }
        if (t == ResourceTypes.CUSTOMRESOURCEDEFINITIONS) {
            return "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition";
        }
        // Go package names: the group's first label (events.k8s.io -> events, rbac.authorization.k8s.io -> rbac)
        return "io.k8s.api." + (t.group().isEmpty() ? "core" : t.group().split("\\.")[0]) + "." + t.version() + "."
                + t.kind();
    }

    static ObjectNode document(String group, String version) {
        ObjectNode doc = Json.object();
        doc.put("openapi", "3.0.0");
        doc.putObject("info").put("title", "Kubernetes").put("version", VersionController.GIT_VERSION);
        ObjectNode paths = doc.putObject("paths");
        ObjectNode schemas = doc.putObject("components").putObject("schemas");
        boolean crdsAdded = false;
        for (ResourceType t : ResourceTypes.DISCOVERABLE_TYPES) {
            if (!t.group().equals(group) || !t.version().equals(version)) {
                continue;
            }
            if (t.isCustomResource()) {
                if (!crdsAdded) {
                    schemas.setAll(t.group().equals(SimSchemas.GROUP) ? SimSchemas.openApiComponents(Json.MAPPER)
                            : RaySchemas.openApiComponents(Json.MAPPER));
                    crdsAdded = true;
                }
            } else {
                schemas.set(schemaName(t), builtinSchema(t));
            }
            addPaths(paths, t);
        }
        return doc;
    }

    private static ObjectNode builtinSchema(ResourceType t) {
        ObjectNode s = Json.object();
        s.put("description", t.kind() + " (" + t.apiVersion() + ") as served by kuberay-sim; nested fields follow "
                + "the Kubernetes API.");
        s.put("type", "object");
        ObjectNode props = s.putObject("properties");
        props.putObject("apiVersion").put("type", "string").put("description",
                "APIVersion defines the versioned schema of this representation of an object.");
        props.putObject("kind").put("type", "string").put("description",
                "Kind is a string value representing the REST resource this object represents.");
        props.putObject("metadata").put("type", "object").put("description",
                "Standard object's metadata.").put("x-kubernetes-preserve-unknown-fields", true);
        for (String f : List.of("spec", "status", "data", "binaryData")) {
            props.putObject(f).put("type", "object").put("x-kubernetes-preserve-unknown-fields", true);
        }
        if (t == ResourceTypes.BINDINGS) {
            props.putObject("target").put("type", "object").put("x-kubernetes-preserve-unknown-fields", true);
        }
        if (t.kind().equals("Event")) {
            List<String> nested = t.group().isEmpty() ? List.of("involvedObject", "source", "series", "related")
                    : List.of("regarding", "deprecatedSource", "series", "related");
            for (String f : nested) {
                props.putObject(f).put("type", "object").put("x-kubernetes-preserve-unknown-fields", true);
            }
        }
        ObjectNode gvk = s.putArray("x-kubernetes-group-version-kind").addObject();
        gvk.put("group", t.group());
        gvk.put("kind", t.kind());
        gvk.put("version", t.version());
        return s;
    }

    private static void addPaths(ObjectNode paths, ResourceType t) {
        String prefix = t.group().isEmpty() ? "/api/" + t.version() : "/apis/" + t.group() + "/" + t.version();
        String collection = prefix + (t.namespaced() ? "/namespaces/{namespace}/" : "/") + t.plural();
        String item = collection + "/{name}";
        ObjectNode c = paths.putObject(collection);
        if (ResourceTypes.isCreateOnly(t)) {
            c.set("post", operation(t, "post", true));
            return;
        }
        c.set("get", operation(t, "list", false));
        if (ResourceTypes.isReadOnly(t)) {
            paths.putObject(item).set("get", operation(t, "get", false));
            return;
        }
        c.set("post", operation(t, "post", true));
        c.set("delete", operation(t, "deletecollection", false));
        ObjectNode i = paths.putObject(item);
        i.set("get", operation(t, "get", false));
        i.set("put", operation(t, "put", true));
        i.set("patch", operation(t, "patch", true));
        i.set("delete", operation(t, "delete", false));
        if (t == ResourceTypes.PODS) {
            paths.putObject(item + "/" + ResourceTypes.BINDING_SUBRESOURCE)
                    .set("post", operation(ResourceTypes.BINDINGS, "post", true));
        }
        if (t.statusSubresource()) {
            ObjectNode s = paths.putObject(item + "/status");
            s.set("get", operation(t, "get", false));
            s.set("put", operation(t, "put", true));
            s.set("patch", operation(t, "patch", true));
        }
    }

    private static ObjectNode operation(ResourceType t, String action, boolean write) {
        ObjectNode op = Json.object();
        op.put("operationId", action + t.kind());
        op.put("x-kubernetes-action", action);
        ObjectNode gvk = op.putObject("x-kubernetes-group-version-kind");
        gvk.put("group", t.group());
        gvk.put("version", t.version());
        gvk.put("kind", t.kind());
        ArrayNode params = op.putArray("parameters");
        if (write) {
            for (String p : List.of("dryRun", "fieldManager", "fieldValidation")) {
                params.addObject().put("name", p).put("in", "query").putObject("schema").put("type", "string");
            }
            if (action.equals("patch")) {
                params.addObject().put("name", "force").put("in", "query").putObject("schema")
                        .put("type", "boolean");
            }
        }
        ObjectNode ok = op.putObject("responses").putObject("200");
        ok.put("description", "OK");
        ok.putObject("content").putObject("application/json").putObject("schema")
                .put("$ref", "#/components/schemas/" + schemaName(t));
        return op;
    }

    private static String sha512(byte[] doc) {
        try {
            return HexFormat.of().withUpperCase().formatHex(MessageDigest.getInstance("SHA-512").digest(doc));
        } catch (NoSuchAlgorithmException e) {
            return Integer.toHexString(new String(doc, StandardCharsets.UTF_8).hashCode());
        }
    }
}
