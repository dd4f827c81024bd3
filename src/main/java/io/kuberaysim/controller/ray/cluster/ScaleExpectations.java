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

    /**
     * By cluster ({@code namespace/name}), then group: forgetting a cluster is one removal (it was a scan of every
     * cluster's groups, so deleting N clusters at once cost O(N²): minutes of control-loop CPU for 10,000).
     */
    private final Map<String, Map<String, Map<String, Expectation>>> byCluster = new ConcurrentHashMap<>();
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

    private static String key(String namespace, String cluster) {
        return namespace + "/" + cluster;
    }

    private Map<String, Expectation> group(String namespace, String cluster, String group) {
        return byCluster.computeIfAbsent(key(namespace, cluster), k -> new ConcurrentHashMap<>())
                .computeIfAbsent(group, k -> new LinkedHashMap<>());
    }

    public void expectCreate(String namespace, String cluster, String group, String pod) {
        group(namespace, cluster, group).put(pod, new Expectation(Action.CREATE, now.instant()));
    }

    public void expectDelete(String namespace, String cluster, String group, String pod) {
        group(namespace, cluster, group).put(pod, new Expectation(Action.DELETE, now.instant()));
    }

    /** Whether every expectation of the group is met; met ones are forgotten. */
    public boolean isSatisfied(String namespace, String cluster, String group) {
        Map<String, Map<String, Expectation>> groups = byCluster.get(key(namespace, cluster));
        Map<String, Expectation> m = groups == null ? null : groups.get(group);
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
        byCluster.remove(key(namespace, cluster));
    }
}
