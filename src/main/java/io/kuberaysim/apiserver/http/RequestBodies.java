package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.registry.PatchType;
import jakarta.servlet.http.HttpServletRequest;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.util.List;

/** Decodes request bodies: JSON or YAML objects, patches by their content type, with kube-apiserver's limits. */
public final class RequestBodies {
    private static final List<String> OBJECT_TYPES = List.of("application/json", "application/yaml",
            "application/vnd.kubernetes.protobuf");

    private RequestBodies() {
    }

    /**
     * Reads the request body, at most {@code limit} bytes: a larger one is refused with 413 as soon as it is
     * declared or the limit is passed, as kube-apiserver's limited body reader does. The Content-Type plays no part
     * here, so a wildcard type reaches the decoders (415) instead of failing in header parsing.
     */
    static byte[] read(HttpServletRequest req, long limit) {
        if (req.getContentLengthLong() > limit) {
            throw ApiException.requestEntityTooLarge(limit);
        }
        try {
            byte[] body = req.getInputStream().readNBytes((int) limit + 1);
            if (body.length > limit) {
                throw ApiException.requestEntityTooLarge(limit);
            }
            return body;
        } catch (IOException e) {
            throw ApiException.badRequest("the request body could not be read: " + e.getMessage());
        }
    }

    public static ObjectNode object(byte[] body, String contentType) {
        if (body == null || body.length == 0) {
            throw ApiException.badRequest("the body of the request is empty; an object is required");
        }
        String base = baseType(contentType);
        JsonNode node;
        if (base.equals("application/json") || base.isEmpty()) {
            node = parseJson(body);
        } else if (base.equals("application/yaml") || base.equals("application/x-yaml") || base.equals("text/yaml")) {
            node = parseYaml(body);
        } else if (base.equals("application/vnd.kubernetes.protobuf")) {
            node = ProtobufBodies.object(body);
        } else {
            throw ApiException.unsupportedMediaType(List.of("application/json", "application/yaml"));
        }
        if (!(node instanceof ObjectNode o)) {
            throw ApiException.badRequest("couldn't get version/kind; json parse error: the body must be a JSON object");
        }
        return o;
    }

    static JsonNode patch(byte[] body, PatchType type) {
        if (body == null || body.length == 0) {
            throw ApiException.badRequest("the body of the request is empty; a patch is required");
        }
        return type == PatchType.APPLY ? parseYaml(body) : parseJson(body);
    }

    static JsonNode parseJson(byte[] body) {
        try {
            return Json.MAPPER.readTree(body);
        } catch (JacksonException e) {
            throw ApiException.badRequest("couldn't get version/kind; json parse error: " + e.getOriginalMessage());
        }
    }

    static JsonNode parseYaml(byte[] body) {
        try {
            JsonNode n = Json.YAML.readTree(body);
            if (n == null || n.isMissingNode()) {
                throw ApiException.badRequest("the body of the request is empty; an object is required");
            }
            return n;
        } catch (JacksonException e) {
            throw ApiException.badRequest("error converting YAML to JSON: " + e.getOriginalMessage());
        }
    }

    static String baseType(String contentType) {
        if (contentType == null) {
            return "";
        }
        return contentType.split(";", 2)[0].trim().toLowerCase();
    }

    public static List<String> objectTypes() {
        return OBJECT_TYPES;
    }
}
