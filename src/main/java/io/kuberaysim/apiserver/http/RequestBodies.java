package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.http.server.NonBlockingBodyFilter;
import io.kuberaysim.apiserver.registry.PatchType;
import io.kuberaysim.apiserver.registry.WriteOptions;
import jakarta.servlet.http.HttpServletRequest;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.util.List;
import java.util.Locale;

/** Decodes request bodies: JSON or YAML objects, patches by their content type, with kube-apiserver's limits. */
public final class RequestBodies {
    private static final List<String> OBJECT_TYPES = List.of("application/json", "application/yaml",
            "application/vnd.kubernetes.protobuf");
    /**
     * The mapper's reader, failing on a field an object sets twice: told by the tree as it puts the field in (nulls
     * included), where the parser's own duplicate detection kept a set of every object's names on the side.
     */
    private static final ObjectReader NO_DUPLICATES = Json.MAPPER.reader()
            .with(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);

    private RequestBodies() {
    }

    /**
     * Reads the request body, at most {@code limit} bytes: a larger one is refused with 413 as soon as it is
     * declared or the limit is passed, as kube-apiserver's limited body reader does. The Content-Type plays no part
     * here, so a wildcard type reaches the decoders (415) instead of failing in header parsing.
     */
    static byte[] read(HttpServletRequest req, long limit) {
        long declared = req.getContentLengthLong();
        if (declared > limit) {
            throw ApiException.requestEntityTooLarge(limit);
        }
        byte[] inMemory = NonBlockingBodyFilter.takeBody(req);
        if (inMemory != null) {
            if (inMemory.length > limit) {
                throw ApiException.requestEntityTooLarge(limit);
            }
            return inMemory;
        }
        try {
            // a declared length is all the stream holds: reading that many bytes fills one array of that size
            // (up to 8 KiB; larger bodies in 8 KiB pieces as they arrive), where reading up to the limit took an
            // 8 KiB piece and a copy of it for every body, a quarter of what an HTTP create allocated
            byte[] body = req.getInputStream().readNBytes(declared >= 0 ? (int) declared : (int) limit + 1);
            if (body.length > limit) {
                throw ApiException.requestEntityTooLarge(limit);
            }
            return body;
        } catch (IOException e) {
            throw ApiException.badRequest("the request body could not be read: " + e.getMessage());
        }
    }

    /** The object a request body holds (JSON, YAML or protobuf, by its content type). */
    public static ObjectNode object(byte[] body, String contentType) {
        return decode(body, contentType).object();
    }

    /**
     * A decoded body with the fields it set twice, which kube-apiserver reports as {@code fieldValidation} says
     * (Strict refuses the request, Warn warns); see {@link #duplicateWarnings}.
     *
     * @param yaml whether the body was YAML (go-yaml words its duplicates differently)
     */
    record Decoded(JsonNode value, List<String> duplicates, boolean yaml) {
        ObjectNode object() {
            return (ObjectNode) value;
        }
    }

    static Decoded decode(byte[] body, String contentType) {
        if (body == null || body.length == 0) {
            throw ApiException.badRequest("the body of the request is empty; an object is required");
        }
        String base = baseType(contentType);
        Decoded decoded;
        if (base.equals("application/json") || base.isEmpty()) {
            decoded = json(body);
        } else if (base.equals("application/yaml") || base.equals("application/x-yaml") || base.equals("text/yaml")) {
            decoded = yaml(body);
        } else if (base.equals("application/vnd.kubernetes.protobuf")) {
            decoded = new Decoded(ProtobufBodies.object(body), List.of(), false);
        } else {
            throw ApiException.unsupportedMediaType(List.of("application/json", "application/yaml"));
        }
        if (!(decoded.value() instanceof ObjectNode)) {
            throw ApiException.badRequest("couldn't get version/kind; json parse error: the body must be a JSON object");
        }
        return decoded;
    }

    static Decoded patch(byte[] body, PatchType type) {
        if (body == null || body.length == 0) {
            throw ApiException.badRequest("the body of the request is empty; a patch is required");
        }
        return type == PatchType.APPLY ? yaml(body) : json(body);
    }

    /**
     * What {@code fieldValidation} makes of the fields a body set twice: Strict refuses the request as
     * kube-apiserver's strict decoding does, Warn returns them as warnings, Ignore drops them.
     */
    static List<String> duplicateWarnings(ResourceType type, Decoded body, WriteOptions options, boolean patch) {
        if (body.duplicates().isEmpty()) {
            return List.of();
        }
        // go-yaml words its duplicates as one error, one line per key
        String errors = body.yaml() ? "yaml: unmarshal errors:\n  " + String.join("\n  ", body.duplicates())
                : String.join(", ", body.duplicates());
        return switch (options.fieldValidation()) {
            case STRICT -> throw ApiException.badRequest((patch ? "error decoding patch: "
                    : type.kind() + " in version \"" + type.version() + "\" cannot be handled as a " + type.kind()
                            + ": ") + "strict decoding error: " + errors);
            case WARN -> body.duplicates();
            case IGNORE -> List.of();
        };
    }

    private static Decoded json(byte[] body) {
        try {
            // one pass for the usual body: the tree refuses a field set twice
            return new Decoded(NO_DUPLICATES.readTree(body), List.of(), false);
        } catch (JacksonException e) {
            // a duplicate or a syntax error: parsed again as before, for the same tree, message and duplicates
        }
        JsonNode node = parseJson(body);
        return new Decoded(node, DuplicateFields.inJson(body), false);
    }

    private static Decoded yaml(byte[] body) {
        YamlBodies.Parsed parsed = YamlBodies.parse(body);
        if (parsed.value() == null || parsed.value().isMissingNode() || parsed.value().isNull()) {
            throw ApiException.badRequest("the body of the request is empty; an object is required");
        }
        return new Decoded(parsed.value(), parsed.duplicates(), true);
    }

    static JsonNode parseJson(byte[] body) {
        try {
            return Json.MAPPER.readTree(body);
        } catch (JacksonException e) {
            throw ApiException.badRequest("couldn't get version/kind; json parse error: " + e.getOriginalMessage());
        }
    }

    static String baseType(String contentType) {
        if (contentType == null) {
            return "";
        }
        int semicolon = contentType.indexOf(';');
        // no split and no copies for the usual bare type (trim and toLowerCase return the string itself then)
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
    }

    public static List<String> objectTypes() {
        return OBJECT_TYPES;
    }
}
