package io.kuberaysim.bench;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.DeleteOptions;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.ListOptions;
import io.kuberaysim.apiserver.registry.WriteOptions;
import tools.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;

/** The RayCluster every scenario writes: KubeRay's scale-test shape, 1 head and one group of 3 workers. */
final class RayClusters {
    static final String NAMESPACE = "default";
    static final String COLLECTION = "/apis/ray.io/v1/namespaces/default/rayclusters";
    /** Preloaded objects carry one of objects/10 shard values, so a selector picks about 10 of them. */
    static final String SHARD_LABEL = "bench.kuberay-sim.io/shard";
    /** Objects created while measuring carry this label, so they can be removed between rounds. */
    static final String CREATED_LABEL = "bench.kuberay-sim.io/created";
    static final String CREATED_MARKER = "\"" + CREATED_LABEL + "\"";

    private RayClusters() {
    }

    static String json(String name, String labelKey, String labelValue) {
        return """
                {"apiVersion":"ray.io/v1","kind":"RayCluster","metadata":{"name":"%s","labels":{"%s":"%s"}},
                 "spec":{"headGroupSpec":{"rayStartParams":{},"template":{"spec":{"containers":[
                   {"name":"ray-head","image":"rayproject/ray:2.9.0",
                    "resources":{"requests":{"cpu":"1","memory":"2Gi"},"limits":{"cpu":"1","memory":"2Gi"}}}]}}},
                 "workerGroupSpecs":[{"groupName":"workers","replicas":3,"minReplicas":0,"maxReplicas":3,
                   "rayStartParams":{},"template":{"spec":{"containers":[
                   {"name":"ray-worker","image":"rayproject/ray:2.9.0",
                    "resources":{"requests":{"cpu":"1","memory":"1Gi"},"limits":{"cpu":"1","memory":"1Gi"}}}]}}}]}}
                """.formatted(name, labelKey, labelValue);
    }

    static byte[] preloaded(int i, int shards) {
        return json("rc-" + i, SHARD_LABEL, "s" + (i % shards)).getBytes(StandardCharsets.UTF_8);
    }

    /** A created cluster's body around its name, formatted once: the generator shares the cores it measures. */
    private static final byte[][] CREATED = split(json("\u0000", CREATED_LABEL, "true"));

    static byte[] created(String name) {
        byte[] n = name.getBytes(StandardCharsets.US_ASCII);
        byte[] body = new byte[CREATED[0].length + n.length + CREATED[1].length];
        System.arraycopy(CREATED[0], 0, body, 0, CREATED[0].length);
        System.arraycopy(n, 0, body, CREATED[0].length, n.length);
        System.arraycopy(CREATED[1], 0, body, CREATED[0].length + n.length, CREATED[1].length);
        return body;
    }

    private static byte[][] split(String template) {
        int at = template.indexOf('\u0000');
        return new byte[][]{template.substring(0, at).getBytes(StandardCharsets.UTF_8),
                template.substring(at + 1).getBytes(StandardCharsets.UTF_8)};
    }

    static int shards(int objects) {
        return Math.max(1, objects / 10);
    }

    /** Stores {@code n} clusters in process, through the registry (validation and defaulting included). */
    static void preload(GenericRegistry registry, int from, int to, int shards) {
        for (int i = from; i < to; i++) {
            ObjectNode obj = (ObjectNode) Json.MAPPER.readTree(preloaded(i, shards));
            registry.create(ResourceTypes.RAYCLUSTERS, NAMESPACE, obj, WriteOptions.DEFAULT);
        }
    }

    /** Removes the clusters created while measuring, so every round starts from the same store size. */
    static int removeCreated(GenericRegistry registry) {
        return registry.deleteCollection(ResourceTypes.RAYCLUSTERS, NAMESPACE,
                ListOptions.labels(CREATED_LABEL + "=true"), DeleteOptions.DEFAULT).size();
    }
}
