package io.kuberaysim.controller.ray.cluster;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiPredicate;

/**
 * KubeRay's scale expectations ({@code controllers/ray/expectations/scale_expectations.go}): every Pod the
 * controller creates or deletes is remembered until the informer cache shows it, so a reconcile working on a
 * stale cache neither creates a Pod twice nor deletes one twice. A group (the head is group {@code ""}) is left
 * alone while it has an unsatisfied expectation. A create is satisfied when the Pod is in the cache or after
 * {@link #TIMEOUT}; a delete when the Pod is gone from the cache.
 */
public final class ScaleExpectations {
    /** {@code ExpectationsTimeout}. */
    public static final Duration TIMEOUT = Duration.ofSeconds(30);

    /** Group key of the head Pod. */
    public static final String HEAD_GROUP = "";

    private enum Action { CREATE, DELETE }

    private record Expectation(Action action, Instant recorded) {
    }

    private final Map<String, Map<String, Expectation>> byGroup = new ConcurrentHashMap<>();
    private final InstantSource now;
    private final BiPredicate<String, String> podInCache;

    /**
     * @param now        the controller clock
     * @param podInCache whether the informer cache holds Pod (namespace, name)
     */
    public ScaleExpectations(InstantSource now, BiPredicate<String, String> podInCache) {
        this.now = now;
        this.podInCache = podInCache;
    }

    private static String key(String namespace, String cluster, String group) {
        return namespace + "/" + cluster + "/" + group;
    }

    public void expectCreate(String namespace, String cluster, String group, String pod) {
        byGroup.computeIfAbsent(key(namespace, cluster, group), k -> new LinkedHashMap<>())
                .put(pod, new Expectation(Action.CREATE, now.instant()));
    }

    public void expectDelete(String namespace, String cluster, String group, String pod) {
        byGroup.computeIfAbsent(key(namespace, cluster, group), k -> new LinkedHashMap<>())
                .put(pod, new Expectation(Action.DELETE, now.instant()));
    }

    /** Whether every expectation of the group is met; met ones are forgotten. */
    public boolean isSatisfied(String namespace, String cluster, String group) {
        Map<String, Expectation> m = byGroup.get(key(namespace, cluster, group));
        if (m == null) {
            return true;
        }
        Instant t = now.instant();
        for (Iterator<Map.Entry<String, Expectation>> it = m.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Expectation> e = it.next();
            boolean present = podInCache.test(namespace, e.getKey());
            boolean met = e.getValue().action() == Action.CREATE
                    ? present || !t.isBefore(e.getValue().recorded().plus(TIMEOUT))
                    : !present;
            if (met) {
                it.remove();
            }
        }
        return m.isEmpty();
    }

    /** Forgets everything about a cluster (it was deleted, or all its Pods were deleted at once). */
    public void forget(String namespace, String cluster) {
        String prefix = namespace + "/" + cluster + "/";
        byGroup.keySet().removeIf(k -> k.startsWith(prefix));
    }
}
