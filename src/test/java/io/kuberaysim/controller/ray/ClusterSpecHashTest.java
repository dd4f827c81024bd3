package io.kuberaysim.controller.ray;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.storage.FrozenTrees;
import io.kuberaysim.controller.ray.service.ClusterNames;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

class ClusterSpecHashTest {

    static JsonNode spec(String json) {
        return Json.MAPPER.readTree(json);
    }

    static final String BASE = """
            {"headGroupSpec": {"template": {"spec": {"containers": [{"name": "h", "image": "ray:1"}]}}},
             "workerGroupSpecs": [{"groupName": "a", "replicas": 1, "minReplicas": 0, "maxReplicas": 3,
               "template": {"spec": {"containers": [{"name": "w", "image": "ray:1"}]}}}]}
            """;

    @Test
    void replicasScaleFieldsTolerationsAndKeyOrderDoNotChangeTheHash() {
        String h = ClusterSpecHash.of(spec(BASE));
        assertThat(h).matches("[A-Z2-7]{32}");
        assertThat(ClusterSpecHash.of(spec(BASE.replace("\"replicas\": 1", "\"replicas\": 4")
                .replace("\"maxReplicas\": 3", "\"maxReplicas\": 9, \"scaleStrategy\": {\"workersToDelete\": [\"p\"]}")
                .replace("{\"containers\": [{\"name\": \"w\"", "{\"tolerations\": [{\"key\": \"k\"}], \"containers\": [{\"name\": \"w\"")
        ))).isEqualTo(h);
        assertThat(ClusterSpecHash.of(spec("""
                {"workerGroupSpecs": [{"template": {"spec": {"containers": [{"image": "ray:1", "name": "w"}]}},
                  "groupName": "a"}],
                 "headGroupSpec": {"template": {"spec": {"containers": [{"image": "ray:1", "name": "h"}]}}}}
                """))).isEqualTo(h);
    }

    @Test
    void imageChangesTheHash() {
        assertThat(ClusterSpecHash.of(spec(BASE.replace("\"image\": \"ray:1\"}]}}}]", "\"image\": \"ray:2\"}]}}}]"))))
                .isNotEqualTo(ClusterSpecHash.of(spec(BASE)));
    }

    @Test
    void appendedGroupsKeepThePartialHash() {
        String appended = BASE.replace("\"ray:1\"}]}}}]}", "\"ray:1\"}]}}}, {\"groupName\": \"b\", \"template\": {}}]}");
        assertThat(ClusterSpecHash.workerGroupCount(spec(appended))).isEqualTo(2);
        assertThat(ClusterSpecHash.of(spec(appended))).isNotEqualTo(ClusterSpecHash.of(spec(BASE)));
        assertThat(ClusterSpecHash.ofFirstGroups(spec(appended), 1)).isEqualTo(ClusterSpecHash.of(spec(BASE)));
        assertThat(ClusterSpecHash.ofFirstGroups(spec(BASE), 2)).isNull();
    }

    @Test
    void base32MatchesRfc4648() {
        assertThat(ClusterSpecHash.base32("foobar".getBytes())).isEqualTo("MZXW6YTBOI======");
    }

    @Test
    void clusterNamesAreDeterministicAndWellFormed() {
        String a = ClusterNames.generate(42, "default", "svc", "uid", 1, 0);
        // KubeRay utils/util.go GenerateRayClusterName: <rayservice>-rand.String(5)
        assertThat(a).matches("svc-[bcdfghjklmnpqrstvwxz2456789]{5}").isEqualTo(ClusterNames.generate(42, "default", "svc", "uid", 1, 0));
        assertThat(ClusterNames.generate(42, "default", "svc", "uid", 2, 0)).isNotEqualTo(a);
    }

    @Test
    void recreateHashOfAStoredSpecIsTheHashOfItsContentAndAChangedTreeIsHashedAgain() {
        JsonNode stored = FrozenTrees.freeze(spec(BASE));
        String h = ClusterSpecHash.forRecreate(spec(BASE));

        assertThat(ClusterSpecHash.forRecreate(stored)).isEqualTo(h);
        assertThat(ClusterSpecHash.forRecreate(stored)).isEqualTo(h);
        // a tree a caller may change is never answered from what was computed for it before
        ObjectNode mutable = (ObjectNode) spec(BASE);
        assertThat(ClusterSpecHash.forRecreate(mutable)).isEqualTo(h);
        ((ObjectNode) mutable.get("headGroupSpec").get("template").get("spec").get("containers").get(0))
                .put("image", "ray:2");
        String changed = ClusterSpecHash.forRecreate(mutable);
        assertThat(changed).isNotEqualTo(h).isEqualTo(ClusterSpecHash.forRecreate(spec(BASE.replaceFirst("ray:1", "ray:2"))));
        // another stored spec after the first: its own hash
        assertThat(ClusterSpecHash.forRecreate(FrozenTrees.freeze(spec(BASE.replaceFirst("ray:1", "ray:2")))))
                .isEqualTo(changed);
        assertThat(ClusterSpecHash.forRecreate(stored)).isEqualTo(h);
    }
}
