package io.kuberaysim.apiserver.registry;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.testing.TestCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;

import static io.kuberaysim.api.ResourceTypes.PODS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** pods/binding as kube-apiserver's BindingREST: one storage write, no field management, 409 when it cannot bind. */
class PodBindingTest {
    private final TestCluster cluster = new TestCluster();
    private final GenericRegistry registry = cluster.registry;
    private final PodBinding binding = new PodBinding(registry);

    @AfterEach
    void close() {
        cluster.close();
    }

    private StoredObject createPod(String name) {
        return createPod(name, "[]");
    }

    private StoredObject createPod(String name, String finalizers) {
        ObjectNode pod = TestCluster.yaml("""
                apiVersion: v1
                kind: Pod
                metadata: {name: %s, finalizers: %s}
                spec:
                  containers: [{name: c, image: busybox}]
                """.formatted(name, finalizers));
        return registry.create(PODS, "default", pod, WriteOptions.DEFAULT.withFieldManager("creator")).object();
    }

    private static JsonNode scheduled(StoredObject pod) {
        for (JsonNode c : pod.object().path("status").path("conditions")) {
            if ("PodScheduled".equals(Json.text(c, "type"))) {
                return c;
            }
        }
        return null;
    }

    @Test
    @DisplayName("a binding sets spec.nodeName and PodScheduled=True in one write and leaves managedFields as they were")
    void bindsInOneWrite() {
        StoredObject created = createPod("p");
        cluster.advance(Duration.ofSeconds(3));

        StoredObject bound = binding.bind("default", "p", "node-1");

        assertThat(bound.resourceVersion()).isEqualTo(created.resourceVersion() + 1);
        assertThat(Json.text(bound.object(), "spec", "nodeName")).isEqualTo("node-1");
        JsonNode cond = scheduled(bound);
        assertThat(Json.text(cond, "status")).isEqualTo("True");
        assertThat(cond.get("lastProbeTime").isNull()).isTrue();
        assertThat(Json.text(cond, "lastTransitionTime")).isEqualTo("2025-01-01T00:00:03Z");
        assertThat(bound.metadata().get("managedFields")).isEqualTo(created.metadata().get("managedFields"));
        assertThat(bound.object().get("spec").get("containers")).isEqualTo(created.object().get("spec").get("containers"));
        assertThat(Json.text(bound.object(), "status", "phase")).isEqualTo("Pending");
    }

    @Test
    @DisplayName("an Unschedulable PodScheduled condition is replaced in place; the others stay")
    void replacesUnschedulableCondition() {
        createPod("p");
        ObjectNode status = Json.object();
        status.putObject("status").putArray("conditions")
                .add(Json.object().put("type", "Other").put("status", "True"))
                .add(Json.object().put("type", "PodScheduled").put("status", "False").put("reason", "Unschedulable")
                        .put("message", "0/1 nodes are available"));
        registry.patch(PODS, "default", "p", PatchType.MERGE, status, true, WriteOptions.DEFAULT);

        StoredObject bound = binding.bind("default", "p", "node-1");

        JsonNode conds = bound.object().path("status").path("conditions");
        assertThat(conds).hasSize(2);
        assertThat(Json.text(conds.get(0), "type")).isEqualTo("Other");
        assertThat(Json.text(conds.get(1), "status")).isEqualTo("True");
        assertThat(conds.get(1).has("reason")).isFalse();
        assertThat(conds.get(1).has("message")).isFalse();
    }

    @Test
    @DisplayName("binding an assigned Pod is 409 on pods/binding, an absent one 404; nothing is written")
    void refusesAssignedOrAbsentPods() {
        createPod("p");
        StoredObject bound = binding.bind("default", "p", "node-1");

        assertThatThrownBy(() -> binding.bind("default", "p", "node-2"))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.code()).isEqualTo(409);
                    assertThat(e.reason()).isEqualTo("Conflict");
                    assertThat(e.getMessage()).isEqualTo("Operation cannot be fulfilled on pods/binding \"p\": "
                            + "pod p is already assigned to node \"node-1\"");
                });
        assertThat(registry.store().get(PODS, "default", "p").resourceVersion()).isEqualTo(bound.resourceVersion());
        assertThatThrownBy(() -> binding.bind("default", "nope", "node-1"))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code()).isEqualTo(404));
    }

    @Test
    @DisplayName("a Pod being deleted cannot be bound (409)")
    void refusesDeletingPods() {
        createPod("p", "[example.com/hold]");
        registry.delete(PODS, "default", "p", DeleteOptions.propagation("Background"));

        assertThatThrownBy(() -> binding.bind("default", "p", "node-1"))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getMessage())
                        .endsWith("pod p is being deleted, cannot be assigned to a host"));
    }
}
