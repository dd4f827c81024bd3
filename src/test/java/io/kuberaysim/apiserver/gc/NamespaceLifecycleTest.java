package io.kuberaysim.apiserver.gc;

import io.kuberaysim.apiserver.registry.DeleteOptions;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.WriteOptions;
import io.kuberaysim.testing.TestCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import static io.kuberaysim.api.ResourceTypes.CONFIGMAPS;
import static io.kuberaysim.api.ResourceTypes.NAMESPACES;
import static org.assertj.core.api.Assertions.assertThat;

/** A deleted namespace is Terminating until its content is gone, then it goes too. */
class NamespaceLifecycleTest {
    private final TestCluster cluster = new TestCluster();
    private final GenericRegistry registry = cluster.registry;

    @AfterEach
    void close() {
        cluster.close();
    }

    @Test
    @DisplayName("a Terminating namespace goes once the finalizer holding its last object is removed")
    void goesWhenItsContentGoes() {
        registry.create(NAMESPACES, null, TestCluster.yaml("metadata: {name: leaving}"), WriteOptions.DEFAULT);
        registry.create(CONFIGMAPS, "leaving", TestCluster.yaml("metadata: {name: held, finalizers: [example.com/hold]}"),
                WriteOptions.DEFAULT);
        registry.create(CONFIGMAPS, "default", TestCluster.yaml("metadata: {name: other}"), WriteOptions.DEFAULT);
        cluster.settle();

        registry.delete(NAMESPACES, null, "leaving", DeleteOptions.DEFAULT);
        cluster.settle();
        assertThat(registry.store().get(NAMESPACES, null, "leaving").isDeleting()).isTrue();
        assertThat(registry.store().get(CONFIGMAPS, "leaving", "held").isDeleting()).isTrue();

        ObjectNode released = registry.store().get(CONFIGMAPS, "leaving", "held").copy();
        ((ObjectNode) released.get("metadata")).remove("finalizers");
        registry.update(CONFIGMAPS, "leaving", "held", released, false, WriteOptions.DEFAULT);
        cluster.settle();
        assertThat(registry.store().get(CONFIGMAPS, "leaving", "held")).isNull();
        assertThat(registry.store().get(NAMESPACES, null, "leaving")).isNull();
        assertThat(registry.store().get(CONFIGMAPS, "default", "other")).isNotNull();
    }
}
