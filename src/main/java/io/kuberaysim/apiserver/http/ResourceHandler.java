package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.conversion.VersionConversion;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.registry.DeleteOptions;
import io.kuberaysim.apiserver.registry.DeleteResult;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.ListOptions;
import io.kuberaysim.apiserver.registry.ListResult;
import io.kuberaysim.apiserver.registry.PatchType;
import io.kuberaysim.apiserver.registry.ResourceStrategy;
import io.kuberaysim.apiserver.registry.WriteOptions;
import io.kuberaysim.apiserver.registry.WriteResult;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Every Kubernetes resource path, dispatched by verb to the generic registry: GET (object, list, watch),
 * POST, PUT, PATCH, DELETE (object and collection), for the main resource and its status subresource.
 */
@Hidden // documented path by path in SwaggerDocumentation: the patterns here are generic
@RestController
class ResourceHandler {
    /** The headers of a JSON answer without warnings, built once (read-only: every such answer shares them). */
    private static final HttpHeaders JSON = HttpHeaders.readOnlyHttpHeaders(jsonHeaders());

    private final GenericRegistry registry;
    private final ResponseRenderer renderer;
    private final long maxBodyBytes;
    private final PodLogs podLogs;
    private final ConvertedResourceHandler converted;

    ResourceHandler(GenericRegistry registry, ResponseRenderer renderer, HttpLimits limits, PodLogs podLogs,
                    ConvertedResourceHandler converted) {
        this.registry = registry;
        this.renderer = renderer;
        this.maxBodyBytes = limits.maxRequestBodyBytes();
        this.podLogs = podLogs;
        this.converted = converted;
    }

    private byte[] body(HttpServletRequest req) {
        return RequestBodies.read(req, maxBodyBytes);
    }

    private static ResourcePath path(HttpServletRequest req) {
        return ResourcePath.parse(req.getRequestURI());
    }

    /**
     * The path of a write: a read-only type (the CRDs) has no route for it on kube-apiserver, so it is refused before
     * the body is read, whatever the body holds.
     */
    private static ResourcePath writablePath(HttpServletRequest req) {
        ResourcePath p = path(req);
        if (ResourceTypes.isReadOnly(p.type())) {
            throw ApiException.methodNotAllowed();
        }
        return p;
    }

    /**
     * {@code res} is taken so that Spring MVC leaves the response alone when a watch or a written answer returns
     * nothing; each verb writes its answer through {@link ResponseEntityWriter}.
     */
    @RequestMapping(path = {"/api/*/**", "/apis/*/*/**"}, method = RequestMethod.GET)
    Object get(HttpServletRequest req, HttpServletResponse res) throws IOException {
        return ResponseEntityWriter.write(req, res, getResult(req));
    }

    /** GET of the named object at {@code p}, which {@link ResourceDispatchFilter} parsed: always written here. */
    Object getObject(HttpServletRequest req, HttpServletResponse res, ResourcePath p) throws IOException {
        return ResponseEntityWriter.write(req, res, getResult(req, p));
    }

    private Object getResult(HttpServletRequest req) {
        return getResult(req, path(req));
    }

    /** What Spring MVC would be given: an entity, a future one (a list waiting for a revision), or null (a watch). */
    private Object getResult(HttpServletRequest req, ResourcePath p) {
        var conversion = converted.conversion(p.type());
        if (conversion.isPresent()) {
            return converted.get(conversion.get(), p, req);
        }
        if (p.isCollection()) {
            ListOptions options = QueryOptions.list(req);
            if (QueryOptions.watch(req)) {
                renderer.watch(p.type(), p.namespace(), options, req);
                return null; // the watch writes the response itself, asynchronously
            }
            CompletableFuture<ListResult> result = registry.reader().listWhenFresh(p.type(), p.namespace(), options);
            if (result.isDone() && !result.isCompletedExceptionally()) {
                return renderer.list(p.type(), result.join(), req);
            }
            // waiting for a resourceVersion the store has not reached: answered asynchronously, no thread held
            return result.thenApply(r -> renderer.list(p.type(), r, req));
        }
        StoredObject o = registry.reader().get(p.type(), p.namespace(), p.name());
        if (p.isConnect()) {
            throw noContainers(p);
        }
        if ("log".equals(p.subresource())) {
            return podLogs.render(o, req);
        }
        return renderer.object(o, req);
    }

    @RequestMapping(path = {"/api/*/**", "/apis/*/*/**"}, method = RequestMethod.POST)
    Object create(HttpServletRequest req, HttpServletResponse res) throws IOException {
        return ResponseEntityWriter.write(req, res, createEntity(req));
    }

    private ResponseEntity<byte[]> createEntity(HttpServletRequest req) {
        ResourcePath p = writablePath(req);
        if (p.isConnect()) {
            registry.reader().get(p.type(), p.namespace(), p.name()); // a missing Pod is a 404, as on a cluster
            throw noContainers(p);
        }
        if (!p.isCollection()) {
            throw ApiException.methodNotSupported(p.type(), "create");
        }
        if (p.type().namespaced() && p.namespace() == null) {
            throw ApiException.methodNotSupported(p.type(), "create");
        }
        RequestBodies.Decoded decoded = RequestBodies.decode(body(req), req.getContentType());
        WriteOptions options = QueryOptions.write(req);
        List<String> warnings = RequestBodies.duplicateWarnings(p.type(), decoded, options, false);
        var conversion = converted.conversion(p.type());
        if (conversion.isPresent()) {
            return converted.create(conversion.get(), p, decoded.object(), options, warnings);
        }
        WriteResult r = registry.createDecoded(p.type(), p.namespace(), decoded.object(), options);
        return written(r, HttpStatus.CREATED, warnings);
    }

    @RequestMapping(path = {"/api/*/**", "/apis/*/*/**"}, method = RequestMethod.PUT)
    Object update(HttpServletRequest req, HttpServletResponse res) throws IOException {
        return ResponseEntityWriter.write(req, res, updateEntity(req));
    }

    private ResponseEntity<byte[]> updateEntity(HttpServletRequest req) {
        ResourcePath p = writablePath(req);
        if (p.isCollection() || "log".equals(p.subresource()) || p.isConnect()) {
            throw ApiException.methodNotSupported(p.type(), "update");
        }
        RequestBodies.Decoded decoded = RequestBodies.decode(body(req), req.getContentType());
        WriteOptions options = QueryOptions.write(req);
        List<String> warnings = RequestBodies.duplicateWarnings(p.type(), decoded, options, false);
        ObjectNode obj = decoded.object();
        var conversion = converted.conversion(p.type());
        if (conversion.isPresent()) {
            return converted.update(conversion.get(), p, obj, options, warnings);
        }
        boolean status = "status".equals(p.subresource()) || "finalize".equals(p.subresource());
        if ("finalize".equals(p.subresource())) {
            // a Namespace's finalize subresource writes spec.finalizers only
            StoredObject current = registry.reader().get(p.type(), null, p.name());
            ObjectNode next = current.copy();
            JsonNode fin = Json.at(obj, "spec", "finalizers");
            if (fin == null) {
                ((ObjectNode) next.get("spec")).remove("finalizers");
            } else {
                ((ObjectNode) next.get("spec")).set("finalizers", fin);
            }
            return written(registry.update(p.type(), null, p.name(), next, false, options), HttpStatus.OK, warnings);
        }
        WriteResult r = registry.update(p.type(), p.namespace(), p.name(), obj, status, options);
        return written(r, HttpStatus.OK, warnings);
    }

    @RequestMapping(path = {"/api/*/**", "/apis/*/*/**"}, method = RequestMethod.PATCH)
    Object patch(HttpServletRequest req, HttpServletResponse res) throws IOException {
        return ResponseEntityWriter.write(req, res, patchEntity(req));
    }

    private ResponseEntity<byte[]> patchEntity(HttpServletRequest req) {
        ResourcePath p = writablePath(req);
        if (p.isCollection() || "log".equals(p.subresource()) || p.isConnect()) {
            throw ApiException.methodNotSupported(p.type(), "patch");
        }
        PatchType type = PatchType.fromContentType(req.getContentType())
                .orElseThrow(() -> ApiException.unsupportedMediaType(acceptedPatchTypes(p)));
        RequestBodies.Decoded patch = RequestBodies.patch(body(req), type);
        WriteOptions options = QueryOptions.write(req, type == PatchType.APPLY);
        List<String> warnings = RequestBodies.duplicateWarnings(p.type(), patch, options, true);
        var conversion = converted.conversion(p.type());
        if (conversion.isPresent()) {
            return converted.patch(conversion.get(), p, type, patch.value(), options, warnings);
        }
        WriteResult r = registry.patch(p.type(), p.namespace(), p.name(), type, patch.value(),
                "status".equals(p.subresource()), options);
        return written(r, r.created() ? HttpStatus.CREATED : HttpStatus.OK, warnings);
    }

    /**
     * kubectl exec, attach and port-forward reach a container through the kubelet; here no container runs, so the
     * answer says that instead of the 404 that reads as if the Pod were missing.
     */
    private static ApiException noContainers(ResourcePath p) {
        return ApiException.badRequest("pod \"" + p.name() + "\" runs no containers on kuberay-sim's simulated "
                + "kubelet: pods/" + p.subresource() + " is not supported (kubectl logs shows what the kubelet did)");
    }

    private List<String> acceptedPatchTypes(ResourcePath p) {
        List<String> types = new ArrayList<>(List.of(PatchType.JSON.contentType(), PatchType.MERGE.contentType()));
        var stored = converted.conversion(p.type()).map(VersionConversion::stored).orElse(p.type());
        if (registry.strategy(stored).mergeKeys() != null) {
            types.add(PatchType.STRATEGIC.contentType());
        }
        types.add(PatchType.APPLY.contentType());
        return types;
    }

    @RequestMapping(path = {"/api/*/**", "/apis/*/*/**"}, method = RequestMethod.DELETE)
    Object delete(HttpServletRequest req, HttpServletResponse res) throws IOException {
        return ResponseEntityWriter.write(req, res, deleteEntity(req));
    }

    private ResponseEntity<byte[]> deleteEntity(HttpServletRequest req) {
        ResourcePath p = writablePath(req);
        if (p.subresource() != null) {
            throw ApiException.methodNotSupported(p.type(), "delete");
        }
        byte[] body = body(req);
        JsonNode optionsBody = body.length == 0 ? null : RequestBodies.object(body, req.getContentType());
        DeleteOptions options = QueryOptions.delete(req, optionsBody);
        var conversion = converted.conversion(p.type());
        if (conversion.isPresent()) {
            return converted.delete(conversion.get(), p, options, req);
        }
        ResourceStrategy strategy = registry.strategy(p.type());
        List<String> warnings = strategy.deleteWarnings(options);
        if (p.isCollection()) {
            List<DeleteResult> results = registry.deleteCollection(p.type(), p.namespace(), QueryOptions.list(req),
                    options);
            List<StoredObject> items = results.stream().map(DeleteResult::object).toList();
            return json(HttpStatus.OK, ListEncoder.encode(p.type(), items, registry.store().revision(), null, null),
                    warnings);
        }
        DeleteResult r = registry.delete(p.type(), p.namespace(), p.name(), options);
        if (r.gone() && !strategy.returnDeletedObject()) {
            ObjectNode status = StatusBodies.deleted(r.object().name(), p.type().group(), p.type().plural(),
                    r.object().uid());
            return json(HttpStatus.OK, Json.MAPPER.writeValueAsBytes(status), warnings);
        }
        return json(HttpStatus.OK, r.object().json(), warnings);
    }

    private static ResponseEntity<byte[]> written(WriteResult r, HttpStatus status, List<String> decodingWarnings) {
        List<String> warnings = r.warnings();
        if (!decodingWarnings.isEmpty()) {
            warnings = new ArrayList<>(decodingWarnings);
            warnings.addAll(r.warnings());
        }
        return json(status, r.object().json(), warnings);
    }

    private static HttpHeaders jsonHeaders() {
        HttpHeaders h = new HttpHeaders();
        h.setContentType(MediaType.APPLICATION_JSON);
        return h;
    }

    static ResponseEntity<byte[]> json(HttpStatus status, byte[] body, List<String> warnings) {
        if (warnings.isEmpty()) {
            return new ResponseEntity<>(body, JSON, status);
        }
        HttpHeaders h = new HttpHeaders();
        h.setContentType(MediaType.APPLICATION_JSON);
        for (String w : WarningHeaders.KUBE.values(warnings)) {
            h.add("Warning", w);
        }
        return new ResponseEntity<>(body, h, status);
    }
}
