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
        int badByte = illegalBase64Byte(token);
        if (badByte >= 0) {
            throw invalid(INVALID + ": illegal base64 data at input byte " + badByte);
        }
        byte[] json = Base64.getUrlDecoder().decode(token);
        String syntax = jsonStartError(json);
        if (syntax != null) {
            throw invalid(INVALID + ": " + syntax);
        }
        JsonNode o;
        try {
            o = Json.MAPPER.readTree(new String(json, StandardCharsets.UTF_8));
        } catch (JacksonException e) {
            throw invalid(INVALID + ": " + e.getOriginalMessage());
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
     * Where Go's unpadded base64url decoding fails, or -1: the first byte outside the alphabet (padding included),
     * or a last group of one character.
     */
    private static int illegalBase64Byte(String token) {
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (!(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_')) {
                return i;
            }
        }
        return token.length() % 4 == 1 ? token.length() - 1 : -1;
    }

    /**
     * Go's {@code encoding/json} words for a text that cannot start a JSON value (what a mistyped or truncated
     * token decodes to), or null when it may be JSON: the parser's own message then, without its source location.
     */
    private static String jsonStartError(byte[] json) {
        int i = 0;
        while (i < json.length && (json[i] == ' ' || json[i] == '\t' || json[i] == '\n' || json[i] == '\r')) {
            i++;
        }
        if (i == json.length) {
            return "unexpected end of JSON input";
        }
        int c = json[i] & 0xff;
        String literal = c == 't' ? "true" : c == 'f' ? "false" : c == 'n' ? "null" : null;
        if (literal != null) {
            for (int k = 1; k < literal.length(); k++) {
                if (i + k == json.length) {
                    return "unexpected end of JSON input";
                }
                if (json[i + k] != literal.charAt(k)) {
                    return "invalid character " + goQuote(json[i + k] & 0xff) + " in literal " + literal
                            + " (expecting '" + literal.charAt(k) + "')";
                }
            }
            return null;
        }
        if ("{[\"-0123456789".indexOf(c) >= 0) {
            return null;
        }
        return "invalid character " + goQuote(c) + " looking for beginning of value";
    }

    /** A byte as Go's JSON scanner quotes it in its errors. */
    private static String goQuote(int c) {
        String quoted = c == '\'' ? "\\'" : c >= 0x20 && c < 0x7f || c > 0xa0 && c != 0xad ? String.valueOf((char) c)
                : c < 0x20 ? "\\x%02x".formatted(c) : "\\u%04x".formatted(c);
        return "'" + quoted + "'";
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
