package io.kuberaysim.apiserver.storage;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.Map;

/**
 * The trees the last few creates of one type stored, and which of them a new object most resembles: the one a
 * create is frozen against ({@link FrozenTrees#freezeObject(ObjectNode, ObjectNode)}), so that its parts are found
 * without the sharing table. One "last create" was not enough: creates of different shapes alternate (a RayCluster's
 * head Pod, then its workers; the kubelet's and the operator's Events), so each create was compared with an object
 * of the other shape. Resemblance is cheap to tell: equal values among the object's top-level fields, its metadata
 * fields and its labels (an Event's reason and type, a Pod's generateName and ray.io/node-type label).
 */
final class RecentCreates {
    private static final int KEPT = 4;

    /** Newest first; replaced whole (under the store's write lock), read without a lock. */
    private volatile ObjectNode[] recent = new ObjectNode[0];

    /** The kept tree {@code object} most resembles (the newest of the equally resembling), or null if none is kept. */
    ObjectNode likest(ObjectNode object) {
        ObjectNode[] kept = recent;
        ObjectNode best = null;
        int bestScore = -1;
        for (ObjectNode candidate : kept) {
            int score = resemblance(object, candidate);
            if (score > bestScore) {
                best = candidate;
                bestScore = score;
            }
        }
        return best;
    }

    /** Keeps {@code stored} as the newest, letting the oldest go beyond {@value #KEPT}. */
    void add(ObjectNode stored) {
        ObjectNode[] kept = recent;
        ObjectNode[] next = new ObjectNode[Math.min(KEPT, kept.length + 1)];
        next[0] = stored;
        System.arraycopy(kept, 0, next, 1, next.length - 1);
        recent = next;
    }

    private static int resemblance(ObjectNode object, ObjectNode stored) {
        int score = equalValues(object, stored);
        JsonNode meta = object.get("metadata");
        JsonNode storedMeta = stored.get("metadata");
        if (meta instanceof ObjectNode m && storedMeta instanceof ObjectNode s) {
            score += equalValues(m, s);
            if (m.get("labels") instanceof ObjectNode labels && s.get("labels") instanceof ObjectNode storedLabels) {
                score += equalValues(labels, storedLabels);
            }
        }
        return score;
    }

    /** How many of {@code a}'s scalar fields {@code b} has with an equal value. */
    private static int equalValues(ObjectNode a, ObjectNode b) {
        int n = 0;
        for (Map.Entry<String, JsonNode> e : a.properties()) {
            JsonNode v = e.getValue();
            if (v.isValueNode() && v.equals(b.get(e.getKey()))) {
                n++;
            }
        }
        return n;
    }
}
