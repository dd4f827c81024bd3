package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.PodBinding;
import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * {@code POST pods/{name}/binding} and the older {@code POST bindings}: a scheduler's {@code v1 Binding} assigns a
 * Pod to a Node ({@link PodBinding}). kube-apiserver answers a Status Success with code 201, not the Pod. Other
 * methods on these paths are 405, as kube-apiserver serves them for {@code create} only.
 */
@Hidden // documented in OpenAPI v3 (/openapi/v3/api/v1) with the other core paths
@RestController
class PodBindingController {
    private final PodBinding binding;
    private final long maxBodyBytes;

    PodBindingController(GenericRegistry registry, HttpLimits limits) {
        this.binding = new PodBinding(registry);
        this.maxBodyBytes = limits.maxRequestBodyBytes();
    }

    @RequestMapping("/api/v1/namespaces/{namespace}/pods/{name}/binding")
    ResponseEntity<byte[]> podBinding(@PathVariable String namespace, @PathVariable String name,
                                      HttpServletRequest req) {
        return create(namespace, name, req);
    }

    @RequestMapping("/api/v1/namespaces/{namespace}/bindings")
    ResponseEntity<byte[]> bindings(@PathVariable String namespace, HttpServletRequest req) {
        return create(namespace, null, req);
    }

    private ResponseEntity<byte[]> create(String namespace, String name, HttpServletRequest req) {
        if (!req.getMethod().equals("POST")) {
            throw ContainerErrors.methodNotAllowed();
        }
        ObjectNode body = RequestBodies.object(RequestBodies.read(req, maxBodyBytes), req.getContentType());
        binding.create(namespace, name, body, QueryOptions.write(req).dryRun());
        ObjectNode status = Json.object();
        status.put("kind", "Status");
        status.put("apiVersion", "v1");
        status.putObject("metadata");
        status.put("status", "Success");
        status.put("code", HttpStatus.CREATED.value());
        return ResourceHandler.json(HttpStatus.CREATED, Json.MAPPER.writeValueAsBytes(status), List.of());
    }
}
