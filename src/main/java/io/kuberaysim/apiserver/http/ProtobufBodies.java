package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.errors.ApiException;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Decodes the few protobuf request bodies kubectl sends: its typed generators ({@code kubectl create namespace},
 * {@code create configmap}, {@code create secret ...}, {@code create service ...}) post
 * {@code application/vnd.kubernetes.protobuf} and do not fall back to JSON on 415. A body is kube-apiserver's
 * envelope ({@code k8s\0} + runtime.Unknown) around the object's generated protobuf message; only Namespace,
 * ConfigMap, Secret, Service (field numbers of k8s.io/api core/v1) and the self-subject reviews of
 * {@code kubectl auth} are mapped, other kinds keep the 415. Go's protobuf writes every scalar, so zero values and
 * empty messages are dropped, as the JSON encoding's {@code omitempty} would.
 */
final class ProtobufBodies {
    private static final byte[] MAGIC = {'k', '8', 's', 0};

    private enum T { STRING, BYTES, INT, BOOL, MESSAGE, MAP, BYTES_MAP, TIME, INT_OR_STRING }

    private record F(String name, T type, boolean repeated, Map<Integer, F> message) {
        static F of(String name, T type) {
            return new F(name, type, false, null);
        }

        static F list(String name, T type) {
            return new F(name, type, true, null);
        }

        static F msg(String name, Map<Integer, F> message) {
            return new F(name, T.MESSAGE, false, message);
        }

        static F msgs(String name, Map<Integer, F> message) {
            return new F(name, T.MESSAGE, true, message);
        }
    }

    private static final Map<Integer, F> OWNER_REFERENCE = Map.of(1, F.of("kind", T.STRING), 3, F.of("name", T.STRING),
            4, F.of("uid", T.STRING), 5, F.of("apiVersion", T.STRING), 6, F.of("controller", T.BOOL),
            7, F.of("blockOwnerDeletion", T.BOOL));
    private static final Map<Integer, F> OBJECT_META = Map.ofEntries(Map.entry(1, F.of("name", T.STRING)),
            Map.entry(2, F.of("generateName", T.STRING)), Map.entry(3, F.of("namespace", T.STRING)),
            Map.entry(5, F.of("uid", T.STRING)), Map.entry(6, F.of("resourceVersion", T.STRING)),
            Map.entry(7, F.of("generation", T.INT)), Map.entry(8, F.of("creationTimestamp", T.TIME)),
            Map.entry(9, F.of("deletionTimestamp", T.TIME)), Map.entry(10, F.of("deletionGracePeriodSeconds", T.INT)),
            Map.entry(11, F.of("labels", T.MAP)), Map.entry(12, F.of("annotations", T.MAP)),
            Map.entry(13, F.msgs("ownerReferences", OWNER_REFERENCE)), Map.entry(14, F.list("finalizers", T.STRING)));
    private static final Map<Integer, F> NAMESPACE = Map.of(1, F.msg("metadata", OBJECT_META),
            2, F.msg("spec", Map.of(1, F.list("finalizers", T.STRING))),
            3, F.msg("status", Map.of(1, F.of("phase", T.STRING))));
    private static final Map<Integer, F> CONFIG_MAP = Map.of(1, F.msg("metadata", OBJECT_META), 2, F.of("data", T.MAP),
            3, F.of("binaryData", T.BYTES_MAP), 4, F.of("immutable", T.BOOL));
    private static final Map<Integer, F> SECRET = Map.of(1, F.msg("metadata", OBJECT_META), 2, F.of("data", T.BYTES_MAP),
            3, F.of("type", T.STRING), 4, F.of("stringData", T.MAP), 5, F.of("immutable", T.BOOL));
    private static final Map<Integer, F> SERVICE_PORT = Map.of(1, F.of("name", T.STRING), 2, F.of("protocol", T.STRING),
            3, F.of("port", T.INT), 4, F.of("targetPort", T.INT_OR_STRING), 5, F.of("nodePort", T.INT),
            6, F.of("appProtocol", T.STRING));
    private static final Map<Integer, F> SERVICE_SPEC = Map.ofEntries(Map.entry(1, F.msgs("ports", SERVICE_PORT)),
            Map.entry(2, F.of("selector", T.MAP)), Map.entry(3, F.of("clusterIP", T.STRING)),
            Map.entry(4, F.of("type", T.STRING)), Map.entry(5, F.list("externalIPs", T.STRING)),
            Map.entry(7, F.of("sessionAffinity", T.STRING)), Map.entry(8, F.of("loadBalancerIP", T.STRING)),
            Map.entry(9, F.list("loadBalancerSourceRanges", T.STRING)), Map.entry(10, F.of("externalName", T.STRING)),
            Map.entry(11, F.of("externalTrafficPolicy", T.STRING)), Map.entry(12, F.of("healthCheckNodePort", T.INT)),
            Map.entry(13, F.of("publishNotReadyAddresses", T.BOOL)));
    private static final Map<Integer, F> SERVICE = Map.of(1, F.msg("metadata", OBJECT_META),
            2, F.msg("spec", SERVICE_SPEC));
    // k8s.io/api authorization/v1 and authentication/v1: what kubectl auth can-i and whoami send
    private static final Map<Integer, F> RESOURCE_ATTRIBUTES = Map.of(1, F.of("namespace", T.STRING),
            2, F.of("verb", T.STRING), 3, F.of("group", T.STRING), 4, F.of("version", T.STRING),
            5, F.of("resource", T.STRING), 6, F.of("subresource", T.STRING), 7, F.of("name", T.STRING));
    private static final Map<Integer, F> NON_RESOURCE_ATTRIBUTES = Map.of(1, F.of("path", T.STRING),
            2, F.of("verb", T.STRING));
    private static final Map<Integer, F> SELF_SUBJECT_ACCESS_REVIEW = Map.of(1, F.msg("metadata", OBJECT_META),
            2, F.msg("spec", Map.of(1, F.msg("resourceAttributes", RESOURCE_ATTRIBUTES),
                    2, F.msg("nonResourceAttributes", NON_RESOURCE_ATTRIBUTES))));
    private static final Map<Integer, F> SELF_SUBJECT_RULES_REVIEW = Map.of(1, F.msg("metadata", OBJECT_META),
            2, F.msg("spec", Map.of(1, F.of("namespace", T.STRING))));
    private static final Map<Integer, F> SELF_SUBJECT_REVIEW = Map.of(1, F.msg("metadata", OBJECT_META));
    private static final Map<String, Map<Integer, F>> KINDS = Map.of("v1/Namespace", NAMESPACE,
            "v1/ConfigMap", CONFIG_MAP, "v1/Secret", SECRET, "v1/Service", SERVICE,
            "authorization.k8s.io/v1/SelfSubjectAccessReview", SELF_SUBJECT_ACCESS_REVIEW,
            "authorization.k8s.io/v1/SelfSubjectRulesReview", SELF_SUBJECT_RULES_REVIEW,
            "authentication.k8s.io/v1/SelfSubjectReview", SELF_SUBJECT_REVIEW);

    private ProtobufBodies() {
    }

    /** The object in a protobuf request body, as the JSON kube-apiserver would have decoded. */
    static ObjectNode object(byte[] body) {
        Reader envelope = envelope(body);
        String apiVersion = "";
        String kind = "";
        byte[] raw = null;
        while (envelope.more()) {
            int tag = envelope.varint32();
            if (tag >>> 3 == 1 && (tag & 7) == 2) {
                Reader typeMeta = envelope.sub();
                while (typeMeta.more()) {
                    int t = typeMeta.varint32();
                    if (t >>> 3 == 1 && (t & 7) == 2) {
                        apiVersion = typeMeta.string();
                    } else if (t >>> 3 == 2 && (t & 7) == 2) {
                        kind = typeMeta.string();
                    } else {
                        typeMeta.skip(t & 7);
                    }
                }
            } else if (tag >>> 3 == 2 && (tag & 7) == 2) {
                raw = envelope.bytes();
            } else {
                envelope.skip(tag & 7);
            }
        }
        Map<Integer, F> schema = KINDS.get(apiVersion + "/" + kind);
        if (schema == null || raw == null) {
            throw ApiException.unsupportedMediaType(List.of("application/json", "application/yaml"));
        }
        ObjectNode out = Json.MAPPER.createObjectNode();
        out.put("apiVersion", apiVersion);
        out.put("kind", kind);
        out.setAll(message(new Reader(raw, 0, raw.length), schema));
        return out;
    }

    private static Reader envelope(byte[] body) {
        for (int i = 0; i < MAGIC.length; i++) {
            if (body.length <= i || body[i] != MAGIC[i]) {
                throw ApiException.badRequest("couldn't get version/kind; protobuf body does not start with the "
                        + "k8s envelope");
            }
        }
        return new Reader(body, MAGIC.length, body.length);
    }

    private static ObjectNode message(Reader in, Map<Integer, F> schema) {
        ObjectNode out = Json.MAPPER.createObjectNode();
        while (in.more()) {
            int tag = in.varint32();
            F f = schema.get(tag >>> 3);
            if (f == null) {
                in.skip(tag & 7);
                continue;
            }
            switch (f.type()) {
                case STRING -> {
                    String s = in.string();
                    if (f.repeated()) {
                        out.withArrayProperty(f.name()).add(s);
                    } else if (!s.isEmpty()) {
                        out.put(f.name(), s);
                    }
                }
                case BYTES -> out.put(f.name(), Base64.getEncoder().encodeToString(in.bytes()));
                case INT -> {
                    long v = in.varint();
                    if (v != 0) {
                        out.put(f.name(), v);
                    }
                }
                case BOOL -> {
                    if (in.varint() != 0) {
                        out.put(f.name(), true);
                    }
                }
                case MESSAGE -> {
                    ObjectNode m = message(in.sub(), f.message());
                    if (f.repeated()) {
                        out.withArrayProperty(f.name()).add(m);
                    } else if (!m.isEmpty()) {
                        out.set(f.name(), m);
                    }
                }
                case MAP, BYTES_MAP -> mapEntry(in.sub(), f, out.withObjectProperty(f.name()));
                case TIME -> time(in.sub(), f.name(), out);
                case INT_OR_STRING -> intOrString(in.sub(), f.name(), out);
                default -> throw new IllegalStateException("unhandled field type " + f.type());
            }
        }
        return out;
    }

    /** One entry of a {@code map<string, string|bytes>} field (bytes values base64, as JSON has them). */
    private static void mapEntry(Reader entry, F f, ObjectNode map) {
        String key = "";
        String value = "";
        while (entry.more()) {
            int t = entry.varint32();
            if (t >>> 3 == 1 && (t & 7) == 2) {
                key = entry.string();
            } else if (t >>> 3 == 2 && (t & 7) == 2) {
                value = f.type() == T.MAP ? entry.string() : Base64.getEncoder().encodeToString(entry.bytes());
            } else {
                entry.skip(t & 7);
            }
        }
        map.put(key, value);
    }

    /** A {@code metav1.Time} (seconds only, as its JSON form); the zero time is left out. */
    private static void time(Reader time, String name, ObjectNode out) {
        long seconds = 0;
        while (time.more()) {
            int t = time.varint32();
            if (t >>> 3 == 1 && (t & 7) == 0) {
                seconds = time.varint();
            } else {
                time.skip(t & 7);
            }
        }
        if (seconds != 0) {
            out.put(name, DateTimeFormatter.ISO_INSTANT.format(Instant.ofEpochSecond(seconds)));
        }
    }

    /** An {@code intstr.IntOrString}: type 1 is the string form. */
    private static void intOrString(Reader ios, String name, ObjectNode out) {
        long type = 0;
        long intVal = 0;
        String strVal = "";
        while (ios.more()) {
            int t = ios.varint32();
            switch (t >>> 3) {
                case 1 -> type = ios.varint();
                case 2 -> intVal = ios.varint();
                case 3 -> strVal = ios.string();
                default -> ios.skip(t & 7);
            }
        }
        if (type == 1) {
            out.put(name, strVal);
        } else {
            out.put(name, (int) intVal);
        }
    }

    /** A bounded cursor over protobuf wire data; malformed input is a 400, never an exception escaping. */
    private static final class Reader {
        private final byte[] buf;
        private int pos;
        private final int end;

        Reader(byte[] buf, int pos, int end) {
            this.buf = buf;
            this.pos = pos;
            this.end = end;
        }

        boolean more() {
            return pos < end;
        }

        long varint() {
            long result = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (pos >= end) {
                    throw malformed();
                }
                byte b = buf[pos++];
                result |= (long) (b & 0x7f) << shift;
                if ((b & 0x80) == 0) {
                    return result;
                }
            }
            throw malformed();
        }

        int varint32() {
            return (int) varint();
        }

        Reader sub() {
            long len = varint();
            if (len < 0 || len > end - pos) {
                throw malformed();
            }
            Reader r = new Reader(buf, pos, pos + (int) len);
            pos += (int) len;
            return r;
        }

        byte[] bytes() {
            Reader r = sub();
            byte[] out = new byte[r.end - r.pos];
            System.arraycopy(buf, r.pos, out, 0, out.length);
            return out;
        }

        String string() {
            Reader r = sub();
            return new String(buf, r.pos, r.end - r.pos, StandardCharsets.UTF_8);
        }

        void skip(int wireType) {
            switch (wireType) {
                case 0 -> varint();
                case 1 -> advance(8);
                case 2 -> sub();
                case 5 -> advance(4);
                default -> throw malformed();
            }
        }

        private void advance(int n) {
            if (n > end - pos) {
                throw malformed();
            }
            pos += n;
        }

        private static ApiException malformed() {
            return ApiException.badRequest("couldn't decode the protobuf body: malformed or truncated message");
        }
    }
}
