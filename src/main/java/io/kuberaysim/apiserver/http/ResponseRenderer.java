package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.registry.ListOptions;
import io.kuberaysim.apiserver.registry.ListResult;
import io.kuberaysim.apiserver.storage.StoredObject;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;

import java.util.List;

/** Renders read responses in the representation the client asked for. */
@Component
class ResponseRenderer {

    ResponseEntity<byte[]> object(StoredObject o, HttpServletRequest req) {
        checkAcceptable(req);
        return ResourceHandler.json(HttpStatus.OK, o.json(), List.of());
    }

    ResponseEntity<byte[]> list(ResourceType type, ListResult result, HttpServletRequest req) {
        checkAcceptable(req);
        return ResourceHandler.json(HttpStatus.OK, ListEncoder.encode(type, result), List.of());
    }

    Object watch(ResourceType type, String namespace, ListOptions options, HttpServletRequest req) {
        throw ApiException.methodNotSupported(type, "watch");
    }

    /** JSON is what this server speaks; a client that accepts nothing compatible gets 406. */
    static void checkAcceptable(HttpServletRequest req) {
        String accept = req.getHeader("Accept");
        if (accept == null || accept.isBlank()) {
            return;
        }
        for (String part : accept.split(",")) {
            String base = RequestBodies.baseType(part);
            if (base.equals("*/*") || base.equals("application/*") || base.equals("application/json")
                    || base.equals("application/vnd.kubernetes.protobuf") || base.equals("application/yaml")) {
                return;
            }
        }
        throw ApiException.notAcceptable(List.of("application/json", "application/yaml",
                "application/vnd.kubernetes.protobuf"));
    }
}
