package io.kuberaysim.apiserver.registry;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.errors.ApiException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A list's {@code continue} token in kube-apiserver's encoding (unpadded base64url of
 * {@code {"v":"meta.k8s.io/v1","rv":<list resourceVersion>,"start":"<key after the last item>"}}), so a client
 * that looks inside sees what it would see on a real cluster. {@code start} is the store key relative to the
 * listed collection: {@code name\0} within a namespace or for cluster-scoped kinds, {@code namespace/name\0}
 * across namespaces. A negative resourceVersion continues at the latest state (the token handed out with a 410).
 */
record ContinueToken(String start, long resourceVersion) {
    private static final String VERSION = "meta.k8s.io/v1";
    private static final String INVALID = "continue key is not valid";

    String encode() {
        ObjectNode o = Json.object();
        o.put("v", VERSION);
        o.put("rv", resourceVersion);
        o.put("start", start);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(Json.MAPPER.writeValueAsBytes(o));
    }

    /** Decodes a token, or answers 400 with kube-apiserver's "invalid continue token" reasons. */
    static ContinueToken decode(String token) {
        JsonNode o;
        try {
            o = Json.MAPPER.readTree(new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException | JacksonException e) {
            throw invalid(INVALID + ": " + e.getMessage());
        }
        if (o == null || !o.isObject() || (o.has("rv") && !o.get("rv").canConvertToLong())) {
            throw invalid(INVALID + ": not a continue token");
        }
        String version = o.path("v").asString("");
        if (!VERSION.equals(version)) {
            throw invalid(INVALID + ": server does not recognize this encoded version " + version);
        }
        long rv = o.path("rv").asLong(0);
        if (rv == 0) {
            throw invalid(INVALID + ": incorrect encoded start resourceVersion (version meta.k8s.io/v1)");
        }
        String start = o.path("start").asString("");
        if (start.isEmpty()) {
            throw invalid(INVALID + ": encoded start key empty (version meta.k8s.io/v1)");
        }
        if (!isClean(start)) {
            throw invalid(INVALID + ": " + start);
        }
        return new ContinueToken(start, rv);
    }

    /**
     * Whether the key is already what Go's {@code path.Clean("/" + key)} makes of it: no empty, "." or ".."
     * segments and no trailing slash, so a token cannot reach outside the listed collection.
     */
    private static boolean isClean(String start) {
        String key = start.startsWith("/") ? start.substring(1) : start;
        if (key.isEmpty()) {
            return false;
        }
        for (String segment : key.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                return false;
            }
        }
        return true;
    }

    private static ApiException invalid(String why) {
        return ApiException.badRequest("invalid continue token: " + why);
    }
}
