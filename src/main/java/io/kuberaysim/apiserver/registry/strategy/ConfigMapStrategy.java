package io.kuberaysim.apiserver.registry.strategy;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.registry.ResourceStrategy;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Map;

/**
 * core/v1 ConfigMap: stored as given, but {@code data} must map keys to strings, as kube-apiserver's typed
 * decoding insists ({@code binaryData} values are base64 strings too).
 */
public final class ConfigMapStrategy implements ResourceStrategy {
    @Override
    public ResourceType type() {
        return ResourceTypes.CONFIGMAPS;
    }

    @Override
    public boolean tracksGeneration() {
        return false;
    }

    @Override
    public List<StatusCause> validate(ObjectNode object) {
        for (String field : List.of("data", "binaryData")) {
            JsonNode map = object.get(field);
            if (map == null || map.isNull()) {
                continue;
            }
            if (!map.isObject()) {
                throw decodingError("cannot unmarshal " + jsonType(map) + " into Go struct field ConfigMap."
                        + field + " of type map[string]" + (field.equals("data") ? "string" : "[]uint8"));
            }
            for (Map.Entry<String, JsonNode> e : map.properties()) {
                if (!e.getValue().isString()) {
                    throw decodingError("cannot unmarshal " + jsonType(e.getValue()) + " into Go struct field ConfigMap."
                            + field + " of type " + (field.equals("data") ? "string" : "[]uint8"));
                }
            }
        }
        return List.of();
    }

    private static ApiException decodingError(String detail) {
        return ApiException.badRequest("ConfigMap in version \"v1\" cannot be handled as a ConfigMap: json: " + detail);
    }

    private static String jsonType(JsonNode n) {
        return n.isNumber() ? "number" : n.isBoolean() ? "bool" : n.isArray() ? "array" : n.isObject() ? "object"
                : "string";
    }
}
