package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.registry.PatchType;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;

/** Decodes request bodies: JSON or YAML objects, patches by their content type, with kube-apiserver's limits. */
public final class RequestBodies {
    /** kube-apiserver refuses request bodies over 3 MiB. */
    static final int MAX_BODY_BYTES = 3 * 1024 * 1024;
    private static final List<String> OBJECT_TYPES = List.of("application/json", "application/yaml",
            "application/vnd.kubernetes.protobuf");

    private RequestBodies() {
    }

    static void checkSize(byte[] body) {
        if (body != null && body.length > MAX_BODY_BYTES) {
            throw ApiException.requestEntityTooLarge("the request body is too large: " + body.length
                    + " bytes, the limit is " + MAX_BODY_BYTES);
        }
    }

    public static ObjectNode object(byte[] body, String contentType) {
        checkSize(body);
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
        checkSize(body);
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
