package io.kuberaysim.apiserver.registry.strategy;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.registry.ResourceStrategy;
import io.kuberaysim.apiserver.validation.Base64Bytes;
import io.kuberaysim.apiserver.validation.NameValidation;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * core/v1 Secret, as kube-apiserver keeps it: {@code data} values are base64 (Go's decoding of {@code []byte}, a 400
 * otherwise), {@code stringData} is write-only and merged into {@code data} (its values win), {@code type} defaults to
 * Opaque and never changes, and an {@code immutable} Secret keeps its data. {@code ValidateSecret}'s rules: keys are
 * file names, the values within 1 MiB, and the well-known types carry their required keys.
 */
public final class SecretStrategy implements ResourceStrategy {
    /** corev1.MaxSecretSize. */
    private static final int MAX_SIZE = 1024 * 1024;
    private static final String IMMUTABLE_SET = "field is immutable when `immutable` is set";

    @Override
    public ResourceType type() {
        return ResourceTypes.SECRETS;
    }

    @Override
    public boolean tracksGeneration() {
        return false;
    }

    @Override
    public void prepareForCreate(ObjectNode object, Instant now) {
        normalize(object);
    }

    @Override
    public void prepareForUpdate(ObjectNode object, JsonNode old) {
        normalize(object);
    }

    /** Decodes as Go does (400 on a wrong type or bad base64), folds stringData into data, defaults the type. */
    private static void normalize(ObjectNode object) {
        checkScalar(object, "type", "string", JsonNode::isString);
        checkScalar(object, "immutable", "bool", JsonNode::isBoolean);
        checkMap(object, "data", "[]uint8");
        checkMap(object, "stringData", "string");
        for (Map.Entry<String, JsonNode> e : object.path("data").properties()) {
            if (e.getValue().isNull()) {
                continue; // Go decodes null into an empty []byte
            }
            Base64Bytes.error(e.getValue().asString()).ifPresent(m -> {
                throw decodingError(m);
            });
        }
        if (object.get("stringData") instanceof ObjectNode strings) {
            ObjectNode data = object.get("data") instanceof ObjectNode d ? d : object.putObject("data");
            for (Map.Entry<String, JsonNode> e : strings.properties()) {
                String value = e.getValue().isNull() ? "" : e.getValue().asString();
                data.put(e.getKey(), Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)));
            }
        }
        object.remove("stringData");
        if (object.get("data") instanceof ObjectNode d && d.isEmpty() || object.path("data").isNull()) {
            object.remove("data");
        }
        String type = Json.text(object, "type");
        if (type == null || type.isEmpty()) {
            object.put("type", "Opaque");
        }
        if (object.path("immutable").isNull()) {
            object.remove("immutable");
        }
    }

    private static void checkScalar(ObjectNode object, String field, String goType,
                                    java.util.function.Predicate<JsonNode> ok) {
        JsonNode v = object.get(field);
        if (v != null && !v.isNull() && !ok.test(v)) {
            throw decodingError("json: cannot unmarshal " + jsonType(v) + " into Go struct field Secret." + field
                    + " of type " + goType);
        }
    }

    private static void checkMap(ObjectNode object, String field, String valueType) {
        JsonNode map = object.get(field);
        if (map == null || map.isNull()) {
            return;
        }
        if (!map.isObject()) {
            throw decodingError("json: cannot unmarshal " + jsonType(map) + " into Go struct field Secret." + field
                    + " of type map[string]" + valueType);
        }
        for (Map.Entry<String, JsonNode> e : map.properties()) {
            if (!e.getValue().isString() && !e.getValue().isNull()) {
                throw decodingError("json: cannot unmarshal " + jsonType(e.getValue()) + " into Go struct field Secret."
                        + field + " of type " + valueType);
            }
        }
    }

    @Override
    public List<StatusCause> validate(ObjectNode object) {
        List<StatusCause> causes = new ArrayList<>();
        JsonNode data = object.path("data");
        long size = 0;
        for (Map.Entry<String, JsonNode> e : data.properties()) {
            for (String error : NameValidation.isConfigMapKey(e.getKey())) {
                causes.add(StatusCause.invalid("data[" + e.getKey() + "]", e.getKey(), error));
            }
            size += e.getValue().isString() ? Base64Bytes.decodedLength(e.getValue().asString()) : 0;
        }
        if (size > MAX_SIZE) {
            causes.add(StatusCause.tooLong("data", MAX_SIZE));
        }
        String type = Json.text(object, "type");
        switch (type == null ? "" : type) {
            case "kubernetes.io/service-account-token" -> {
                String account = Json.text(object, "metadata", "annotations", "kubernetes.io/service-account.name");
                if (account == null || account.isEmpty()) {
                    causes.add(StatusCause.required("metadata.annotations[kubernetes.io/service-account.name]"));
                }
            }
            case "kubernetes.io/dockercfg" -> requireJsonObject(data, ".dockercfg", causes);
            case "kubernetes.io/dockerconfigjson" -> requireJsonObject(data, ".dockerconfigjson", causes);
            case "kubernetes.io/basic-auth" -> {
                if (!data.has("username") && !data.has("password")) {
                    // kube-apiserver builds these paths from a format string it never fills: "data[%s]"
                    causes.add(StatusCause.required("data[%s][username]"));
                    causes.add(StatusCause.required("data[%s][password]"));
                }
            }
            case "kubernetes.io/ssh-auth" -> {
                JsonNode key = data.path("ssh-privatekey");
                if (!key.isString() || Base64Bytes.decodedLength(key.asString()) == 0) {
                    causes.add(StatusCause.required("data[%s][ssh-privatekey]"));
                }
            }
            case "kubernetes.io/tls" -> {
                for (String key : List.of("tls.crt", "tls.key")) {
                    if (!data.has(key)) {
                        causes.add(StatusCause.required("data[" + key + "]"));
                    }
                }
            }
            default -> {
            }
        }
        return causes;
    }

    @Override
    public List<StatusCause> validateUpdate(ObjectNode object, JsonNode old) {
        List<StatusCause> causes = new ArrayList<>();
        String type = Json.text(object, "type");
        String oldType = Json.text(old, "type");
        if (!Objects.equals(type, oldType)) {
            causes.add(StatusCause.invalid("type", type, "field is immutable"));
        }
        if (old.path("immutable").asBoolean(false)) {
            if (!object.path("immutable").asBoolean(false)) {
                causes.add(StatusCause.forbidden("immutable", IMMUTABLE_SET));
            }
            if (!object.path("data").equals(old.path("data"))) {
                causes.add(StatusCause.forbidden("data", IMMUTABLE_SET));
            }
        }
        causes.addAll(validate(object));
        return causes;
    }

    /** A docker config key must be present and hold a JSON object (Go unmarshals it into a map). */
    private static void requireJsonObject(JsonNode data, String key, List<StatusCause> causes) {
        JsonNode value = data.get(key);
        if (value == null) {
            causes.add(StatusCause.required("data[" + key + "]"));
            return;
        }
        String text = value.isString()
                ? new String(Base64.getMimeDecoder().decode(value.asString()), StandardCharsets.UTF_8) : "";
        String problem;
        try {
            JsonNode parsed = Json.MAPPER.readTree(text);
            problem = parsed == null || parsed.isMissingNode() ? "unexpected end of JSON input"
                    : parsed.isObject() || parsed.isNull() ? null
                    : "json: cannot unmarshal " + jsonType(parsed) + " into Go value of type map[string]interface {}";
        } catch (JacksonException e) {
            problem = text.isBlank() ? "unexpected end of JSON input" : "invalid JSON: " + e.getOriginalMessage();
        }
        if (problem != null) {
            causes.add(StatusCause.invalid("data[" + key + "]", "<secret contents redacted>", problem));
        }
    }

    private static ApiException decodingError(String detail) {
        return ApiException.badRequest("Secret in version \"v1\" cannot be handled as a Secret: " + detail);
    }

    private static String jsonType(JsonNode n) {
        return n.isNumber() ? "number" : n.isBoolean() ? "bool" : n.isArray() ? "array" : n.isObject() ? "object"
                : "string";
    }
}
