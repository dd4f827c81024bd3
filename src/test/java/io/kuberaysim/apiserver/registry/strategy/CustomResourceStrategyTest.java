package io.kuberaysim.apiserver.registry.strategy;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.api.ray.RayCluster;
import io.kuberaysim.apiserver.errors.StatusCause;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/** The Pod templates embedded in KubeRay's resources: checked on create, and on update where they changed. */
class CustomResourceStrategyTest {
    private static final CustomResourceStrategy RAYCLUSTERS =
            new CustomResourceStrategy(ResourceTypes.RAYCLUSTERS, RayCluster.schema());

    private static ObjectNode cluster(String workerCpu) {
        return (ObjectNode) Json.MAPPER.readTree("""
                {"apiVersion":"ray.io/v1","kind":"RayCluster","metadata":{"name":"rc"},
                 "spec":{"headGroupSpec":{"template":{"spec":{"containers":[{"name":"h","image":"i"}]}}},
                  "workerGroupSpecs":[{"groupName":"g","template":{"spec":{"containers":[
                    {"name":"w","image":"i","resources":{"limits":{"cpu":"%s"}}}]}}}]}}""".formatted(workerCpu));
    }

    @Test
    @DisplayName("a malformed quantity in a template is refused on create and when an update brings it")
    void changedTemplatesAreChecked() {
        assertThat(RAYCLUSTERS.validate(cluster("2 cores"))).extracting(StatusCause::field)
                .containsExactly("spec.workerGroupSpecs[0].template.spec.containers[0].resources.limits.cpu");
        assertThat(RAYCLUSTERS.validateUpdate(cluster("2 cores"), cluster("2"))).extracting(StatusCause::field)
                .containsExactly("spec.workerGroupSpecs[0].template.spec.containers[0].resources.limits.cpu");
        assertThat(RAYCLUSTERS.validateUpdate(cluster("3"), cluster("2"))).isEmpty();
    }

    @Test
    @DisplayName("an update that leaves a template as stored is not refused for it (validation ratcheting)")
    void unchangedTemplatesPass() {
        ObjectNode stored = cluster("2 cores");
        ObjectNode next = stored.deepCopy();
        Json.child(Json.child(next, "metadata"), "annotations").put("a", "b");
        assertThat(RAYCLUSTERS.validateUpdate(next, stored)).isEmpty();
        ((ObjectNode) next.at("/spec/workerGroupSpecs/0")).put("replicas", 2);
        assertThat(RAYCLUSTERS.validateUpdate(next, stored)).isEmpty();
    }
}
