package io.kuberaysim.apiserver.registry.strategy;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.registry.ResourceStrategy;
import io.kuberaysim.apiserver.validation.Base64Bytes;
import io.kuberaysim.apiserver.validation.NameValidation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * core/v1 ConfigMap: stored as given, but {@code data} must map keys to strings, as kube-apiserver's typed
 * decoding insists ({@code binaryData} values are base64 strings too), and the keys must be valid file names
 * that appear in only one of the two maps, the whole within 1 MiB, as {@code ValidateConfigMap} checks.
 */
public final class ConfigMapStrategy implements ResourceStrategy {
    /** corev1.MaxSecretSize, which bounds ConfigMaps too. */
    private static final int MAX_SIZE = 1024 * 1024;

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
                if (field.equals("binaryData")) {
                    // []byte decodes as base64, as a Secret's data does: Go's own error, without the "json: " prefix
                    Base64Bytes.error(e.getValue().asString()).ifPresent(m -> {
                        throw ApiException.badRequest("ConfigMap in version \"v1\" cannot be handled as a ConfigMap: "
                                + m);
                    });
                }
            }
        }
        return validateKeysAndSize(object);
    }

    private static List<StatusCause> validateKeysAndSize(ObjectNode object) {
        List<StatusCause> causes = new ArrayList<>();
        long size = 0;
        JsonNode data = object.path("data");
        for (String field : List.of("data", "binaryData")) {
            for (Map.Entry<String, JsonNode> e : object.path(field).properties()) {
                String key = e.getKey();
                for (String error : NameValidation.isConfigMapKey(key)) {
                    causes.add(StatusCause.invalid(field + "[" + key + "]", key, error));
                }
                if (field.equals("binaryData") && data.has(key)) {
                    causes.add(StatusCause.invalid(field + "[" + key + "]", key, "duplicate of key present in data"));
                }
                String value = e.getValue().asString();
                // binaryData counts its decoded bytes, as the typed object holds them
                size += key.length() + (field.equals("data") ? value.length() : Base64Bytes.decodedLength(value));
            }
        }
        if (size > MAX_SIZE) {
            causes.add(StatusCause.tooLong("[]", MAX_SIZE)); // kube-apiserver names the whole object "[]"
        }
        return causes;
    }

    private static ApiException decodingError(String detail) {
        return ApiException.badRequest("ConfigMap in version \"v1\" cannot be handled as a ConfigMap: json: " + detail);
    }

    private static String jsonType(JsonNode n) {
        return n.isNumber() ? "number" : n.isBoolean() ? "bool" : n.isArray() ? "array" : n.isObject() ? "object"
                : "string";
    }
}
