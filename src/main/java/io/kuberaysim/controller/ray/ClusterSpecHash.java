package io.kuberaysim.controller.ray;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.storage.FrozenTrees;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;

/**
 * KubeRay's {@code generateHashWithoutReplicasAndWorkersToDelete}: a SHA-1 (base32) of a RayClusterSpec with
 * the fields that must not cause a new cluster muted, so that autoscaling and replica edits never trigger an
 * upgrade. Muted: every worker group's replicas, minReplicas, maxReplicas, scaleStrategy.workersToDelete and
 * suspend; tolerations and schedulingGates of the Pod templates; the spec's upgradeStrategy and suspend.
 *
 * <p>The hash is taken over a canonical JSON form (object keys sorted), so the order in which a client wrote
 * the fields does not matter.
 */
public final class ClusterSpecHash {

    private static final char[] BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".toCharArray();

    private ClusterSpecHash() {
    }

    /** The hash of the whole spec (a {@code rayClusterConfig} tree). */
    public static String of(JsonNode rayClusterConfig) {
        return hash(muted(rayClusterConfig, -1, true));
    }

    /**
     * KubeRay's {@code GenerateHashWithoutReplicasAndWorkersToDelete} as the Recreate upgrade strategy uses it:
     * replicas, their bounds, workersToDelete, tolerations, schedulingGates and upgradeStrategy muted; a change of
     * anything else (suspend included) is a new hash.
     */
    public static String forRecreate(JsonNode rayClusterSpec) {
        Hashed last = lastForRecreate;
        if (last != null && last.spec() == rayClusterSpec) {
            return last.hash();
        }
        String hash = hash(muted(rayClusterSpec, -1, false));
        if (FrozenTrees.isStored(rayClusterSpec)) {
            lastForRecreate = new Hashed(rayClusterSpec, hash);
        }
        return hash;
    }

    /** A stored (read-only) spec and its hash. */
    private record Hashed(JsonNode spec, String hash) {
    }

    /**
     * The last stored spec hashed for the Recreate strategy: stored specs of equal content are one instance, so
     * the clusters of one spec (every head Pod created is annotated with it) hash it once.
     */
    private static volatile Hashed lastForRecreate;

    /**
     * The hash of the spec with only its first {@code workerGroups} worker groups: equal to a cluster's hash when
     * the spec differs from that cluster's only by worker groups appended at the end. Null when the spec has fewer
     * groups than that.
     */
    public static String ofFirstGroups(JsonNode rayClusterConfig, int workerGroups) {
        if (workerGroupCount(rayClusterConfig) < workerGroups) {
            return null;
        }
        return hash(muted(rayClusterConfig, workerGroups, true));
    }

    /** Number of worker groups in the spec. */
    public static int workerGroupCount(JsonNode rayClusterConfig) {
        JsonNode groups = Json.at(rayClusterConfig, "workerGroupSpecs");
        return groups != null && groups.isArray() ? groups.size() : 0;
    }

    private static ObjectNode muted(JsonNode spec, int keepGroups, boolean muteSuspend) {
        ObjectNode s = spec != null && spec.isObject() ? ((ObjectNode) spec).deepCopy() : Json.object();
        s.remove("upgradeStrategy");
        if (muteSuspend) {
            s.remove("suspend");
        }
        muteTemplate(Json.at(s, "headGroupSpec", "template"));
        if (s.get("workerGroupSpecs") instanceof ArrayNode groups) {
            if (keepGroups >= 0) {
                while (groups.size() > keepGroups) {
                    groups.remove(groups.size() - 1);
                }
            }
            for (JsonNode g : groups) {
                if (g instanceof ObjectNode group) {
                    for (String f : List.of("replicas", "minReplicas", "maxReplicas")) {
                        group.remove(f);
                    }
                    if (muteSuspend) {
                        group.remove("suspend");
                    }
                    if (group.get("scaleStrategy") instanceof ObjectNode scale) {
                        scale.remove("workersToDelete");
                        if (scale.isEmpty()) {
                            group.remove("scaleStrategy");
                        }
                    }
                    muteTemplate(group.get("template"));
                }
            }
        }
        return s;
    }

    private static void muteTemplate(JsonNode template) {
        if (Json.at(template, "spec") instanceof ObjectNode podSpec) {
            podSpec.remove("tolerations");
            podSpec.remove("schedulingGates");
        }
    }

    private static String hash(JsonNode node) {
        StringBuilder sb = new StringBuilder();
        canonical(node, sb);
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(sb.toString().getBytes(StandardCharsets.UTF_8));
            return base32(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is always available", e);
        }
    }

    private static void canonical(JsonNode n, StringBuilder sb) {
        if (n == null || n.isNull() || n.isMissingNode()) {
            sb.append("null");
        } else if (n.isObject()) {
            List<String> keys = new ArrayList<>(n.propertyNames());
            keys.sort(null);
            sb.append('{');
            boolean first = true;
            for (String k : keys) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                sb.append(Json.MAPPER.writeValueAsString(k)).append(':');
                canonical(n.get(k), sb);
            }
            sb.append('}');
        } else if (n.isArray()) {
            sb.append('[');
            for (int i = 0; i < n.size(); i++) {
                if (i > 0) {
                    sb.append(',');
                }
                canonical(n.get(i), sb);
            }
            sb.append(']');
        } else {
            sb.append(Json.MAPPER.writeValueAsString(n));
        }
    }

    /** RFC 4648 base32, as Go's {@code base32.StdEncoding} (a SHA-1 needs no padding). */
    static String base32(byte[] data) {
        StringBuilder out = new StringBuilder();
        int buffer = 0;
        int bits = 0;
        for (byte b : data) {
            buffer = (buffer << 8) | (b & 0xff);
            bits += 8;
            while (bits >= 5) {
                out.append(BASE32[(buffer >> (bits - 5)) & 31]);
                bits -= 5;
            }
        }
        if (bits > 0) {
            out.append(BASE32[(buffer << (5 - bits)) & 31]);
        }
        while (out.length() % 8 != 0) {
            out.append('=');
        }
        return out.toString();
    }
}
