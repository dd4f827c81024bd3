package io.kuberaysim.apiserver.registry.strategy;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.Tolerations;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * kube-apiserver's DefaultTolerationSeconds admission on Pod create and update: a Pod that does not tolerate the
 * {@code not-ready} or {@code unreachable} NoExecute taint gets a toleration of it for 300 s, so taint-based eviction
 * removes it five minutes after its Node stops being Ready. A toleration the Pod has for the key (or for every key)
 * with effect NoExecute (or every effect) is left as it is.
 */
final class DefaultTolerationSeconds {
    static final long SECONDS = 300;

    private DefaultTolerationSeconds() {
    }

    static void apply(ObjectNode spec) {
        JsonNode tolerations = spec.get("tolerations");
        boolean notReady = false;
        boolean unreachable = false;
        if (tolerations != null && tolerations.isArray()) {
            for (JsonNode t : tolerations) {
                String key = Json.text(t, "key");
                String effect = Json.text(t, "effect");
                if (effect == null || effect.isEmpty() || effect.equals(Tolerations.NO_EXECUTE)) {
                    notReady |= key == null || key.isEmpty() || key.equals(Tolerations.NOT_READY);
                    unreachable |= key == null || key.isEmpty() || key.equals(Tolerations.UNREACHABLE);
                }
            }
        }
        if (notReady && unreachable) {
            return;
        }
        // a new array: the stored one may be shared with the object this update replaces
        ArrayNode out = Json.MAPPER.createArrayNode();
        if (tolerations != null && tolerations.isArray()) {
            tolerations.forEach(out::add);
        }
        if (!notReady) {
            out.add(toleration(Tolerations.NOT_READY));
        }
        if (!unreachable) {
            out.add(toleration(Tolerations.UNREACHABLE));
        }
        spec.set("tolerations", out);
    }

    private static ObjectNode toleration(String key) {
        ObjectNode t = Json.object();
        t.put("key", key).put("operator", "Exists").put("effect", Tolerations.NO_EXECUTE)
                .put("tolerationSeconds", SECONDS);
        return t;
    }
}
