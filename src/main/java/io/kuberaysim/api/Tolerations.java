package io.kuberaysim.api;

import tools.jackson.databind.JsonNode;

/**
 * Taints and tolerations as core/v1 defines them: the taints the node lifecycle controller puts on a Node whose
 * {@code Ready} condition is False ({@link #NOT_READY}) or Unknown ({@link #UNREACHABLE}), and whether a Pod's
 * tolerations tolerate a taint (v1 {@code Toleration.ToleratesTaint}).
 */
public final class Tolerations {
    public static final String NOT_READY = "node.kubernetes.io/not-ready";
    public static final String UNREACHABLE = "node.kubernetes.io/unreachable";
    public static final String NO_SCHEDULE = "NoSchedule";
    public static final String NO_EXECUTE = "NoExecute";

    private Tolerations() {
    }

    /** Whether one of {@code tolerations} (a Pod's {@code spec.tolerations}, may be null) tolerates {@code taint}. */
    public static boolean tolerated(JsonNode tolerations, JsonNode taint) {
        return matching(tolerations, taint) != null;
    }

    /** The first of {@code tolerations} that tolerates {@code taint}; null when none does. */
    public static JsonNode matching(JsonNode tolerations, JsonNode taint) {
        if (tolerations == null || !tolerations.isArray()) {
            return null;
        }
        for (JsonNode t : tolerations) {
            if (tolerates(t, taint)) {
                return t;
            }
        }
        return null;
    }

    /**
     * One toleration against one taint: the effect must match unless the toleration names none, the key unless it
     * names none (with {@code Exists}), and the value with {@code Equal} (the default operator).
     */
    static boolean tolerates(JsonNode toleration, JsonNode taint) {
        String effect = text(toleration, "effect");
        if (!effect.isEmpty() && !effect.equals(text(taint, "effect"))) {
            return false;
        }
        String key = text(toleration, "key");
        if (!key.isEmpty() && !key.equals(text(taint, "key"))) {
            return false;
        }
        return switch (text(toleration, "operator")) {
            case "Exists" -> true;
            case "", "Equal" -> text(toleration, "value").equals(text(taint, "value"));
            default -> false;
        };
    }

    private static String text(JsonNode node, String field) {
        String s = Json.text(node, field);
        return s == null ? "" : s;
    }
}
