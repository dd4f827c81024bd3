package io.kuberaysim.apiserver.gc;

import io.kuberaysim.apiserver.registry.DeleteOptions;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.WriteOptions;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.apiserver.storage.WatchEvent;
import io.kuberaysim.testing.TestCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import static io.kuberaysim.api.ResourceTypes.CONFIGMAPS;
import static io.kuberaysim.api.ResourceTypes.PODS;
import static io.kuberaysim.apiserver.storage.WatchEvent.Type.ADDED;
import static io.kuberaysim.apiserver.storage.WatchEvent.Type.DELETED;
import static io.kuberaysim.apiserver.storage.WatchEvent.Type.MODIFIED;
import static org.assertj.core.api.Assertions.assertThat;

/** Owner-reference garbage collection with the three propagation policies. */
class GarbageCollectorTest {
    private final TestCluster cluster = new TestCluster();
    private final GenericRegistry registry = cluster.registry;

    @AfterEach
    void close() {
        cluster.close();
    }

    private StoredObject owner() {
        return registry.create(CONFIGMAPS, "default", TestCluster.yaml("metadata: {name: owner}"),
                WriteOptions.DEFAULT).object();
    }

    private void dependent(String name, StoredObject owner, boolean block) {
        ObjectNode pod = TestCluster.yaml("""
                metadata:
                  name: %s
                  ownerReferences:
                  - {apiVersion: v1, kind: ConfigMap, name: owner, uid: %s, controller: true, blockOwnerDeletion: %s}
                spec:
                  containers: [{name: c, image: busybox}]
                """.formatted(name, owner.uid(), block));
        registry.create(PODS, "default", pod, WriteOptions.DEFAULT);
    }

    private boolean exists(String name) {
        return registry.store().get(PODS, "default", name) != null;
    }

    @Test
    @DisplayName("Background: the owner goes at once and its dependents follow")
    void background() {
        StoredObject owner = owner();
        dependent("a", owner, true);
        dependent("b", owner, false);
        registry.delete(CONFIGMAPS, "default", "owner", DeleteOptions.propagation("Background"));
        assertThat(registry.store().get(CONFIGMAPS, "default", "owner")).isNull();
        cluster.settle();
        assertThat(exists("a")).isFalse();
        assertThat(exists("b")).isFalse();
    }

    @Test
    @DisplayName("Foreground: the owner waits with foregroundDeletion until its dependents are gone")
    void foreground() {
        StoredObject owner = owner();
        dependent("a", owner, true);
        var r = registry.delete(CONFIGMAPS, "default", "owner", DeleteOptions.propagation("Foreground"));
        assertThat(r.gone()).isFalse();
        assertThat(r.object().metadata().get("finalizers").get(0).asString()).isEqualTo("foregroundDeletion");
        cluster.settle();
        assertThat(exists("a")).isFalse();
        assertThat(registry.store().get(CONFIGMAPS, "default", "owner")).isNull();
    }

    @Test
    @DisplayName("Foreground: a bound Pod keeps its grace period; the owner goes after the kubelet's delete with 0")
    void foregroundWaitsForGracefulTermination() {
        StoredObject owner = owner();
        ObjectNode pod = TestCluster.yaml("""
                metadata:
                  name: running
                  ownerReferences:
                  - {apiVersion: v1, kind: ConfigMap, name: owner, uid: %s, controller: true, blockOwnerDeletion: true}
                spec:
                  nodeName: sim-node-0
                  containers: [{name: c, image: busybox}]
                """.formatted(owner.uid()));
        registry.create(PODS, "default", pod, WriteOptions.DEFAULT);
        registry.delete(CONFIGMAPS, "default", "owner", DeleteOptions.propagation("Foreground"));
        cluster.settle();
        StoredObject terminating = registry.store().get(PODS, "default", "running");
        assertThat(terminating.isDeleting()).isTrue();
        assertThat(terminating.metadata().get("deletionGracePeriodSeconds").asLong()).isEqualTo(30);
        assertThat(java.time.Instant.parse(terminating.metadata().get("deletionTimestamp").asString()))
                .isEqualTo(cluster.clock.now().plusSeconds(30));
        assertThat(registry.store().get(CONFIGMAPS, "default", "owner")).isNotNull();

        registry.delete(PODS, "default", "running", DeleteOptions.immediate()); // the kubelet, containers stopped
        cluster.settle();
        assertThat(exists("running")).isFalse();
        assertThat(registry.store().get(CONFIGMAPS, "default", "owner")).isNull();
    }

    @Test
    @DisplayName("Orphan: dependents stay and lose their ownerReference")
    void orphan() {
        StoredObject owner = owner();
        dependent("a", owner, true);
        registry.delete(CONFIGMAPS, "default", "owner", DeleteOptions.propagation("Orphan"));
        cluster.settle();
        assertThat(registry.store().get(CONFIGMAPS, "default", "owner")).isNull();
        assertThat(exists("a")).isTrue();
        assertThat(registry.store().get(PODS, "default", "a").metadata().has("ownerReferences")).isFalse();
    }

    @Test
    void dependentOfAMissingOwnerIsCollected() {
        StoredObject owner = owner();
        registry.delete(CONFIGMAPS, "default", "owner", DeleteOptions.DEFAULT);
        dependent("late", owner, false);
        cluster.settle();
        assertThat(exists("late")).isFalse();
    }

    @Test
    @DisplayName("writes that keep the owner references keep the dependent; one that names another owner moves it")
    void writesKeepOrMoveDependents() {
        StoredObject first = owner();
        dependent("a", first, false);
        dependent("b", first, false);
        cluster.settle();
        for (int i = 0; i < 3; i++) { // status writes share the stored owner references
            registry.patch(PODS, "default", "a", io.kuberaysim.apiserver.registry.PatchType.MERGE,
                    TestCluster.yaml("status: {message: m%d}".formatted(i)), true, WriteOptions.DEFAULT);
        }
        StoredObject second = registry.create(CONFIGMAPS, "default", TestCluster.yaml("metadata: {name: second}"),
                WriteOptions.DEFAULT).object();
        registry.patch(PODS, "default", "b", io.kuberaysim.apiserver.registry.PatchType.MERGE, TestCluster.yaml("""
                metadata:
                  ownerReferences:
                  - {apiVersion: v1, kind: ConfigMap, name: second, uid: %s}
                """.formatted(second.uid())), false, WriteOptions.DEFAULT);
        cluster.settle();
        registry.delete(CONFIGMAPS, "default", "owner", DeleteOptions.propagation("Background"));
        cluster.settle();
        assertThat(exists("a")).isFalse();
        assertThat(exists("b")).isTrue();
        registry.delete(CONFIGMAPS, "default", "second", DeleteOptions.propagation("Background"));
        cluster.settle();
        assertThat(exists("b")).isFalse();
    }

    @Test
    @DisplayName("only writes that change owner references or deletion reach the collector's loop")
    void writesThatKeepOwnershipGiveNoWork() {
        StoredObject owner = owner();
        dependent("a", owner, false);
        StoredObject created = registry.store().get(PODS, "default", "a");
        registry.patch(PODS, "default", "a", io.kuberaysim.apiserver.registry.PatchType.MERGE,
                TestCluster.yaml("status: {message: m}"), true, WriteOptions.DEFAULT);
        StoredObject statusWritten = registry.store().get(PODS, "default", "a");
        registry.patch(PODS, "default", "a", io.kuberaysim.apiserver.registry.PatchType.MERGE,
                TestCluster.yaml("metadata: {ownerReferences: null, finalizers: [example.com/hold]}"), false,
                WriteOptions.DEFAULT);
        StoredObject orphaned = registry.store().get(PODS, "default", "a");
        registry.delete(PODS, "default", "a", DeleteOptions.DEFAULT);
        StoredObject deleting = registry.store().get(PODS, "default", "a");
        registry.patch(PODS, "default", "a", io.kuberaysim.apiserver.registry.PatchType.MERGE,
                TestCluster.yaml("status: {message: n}"), true, WriteOptions.DEFAULT);
        StoredObject deletingWritten = registry.store().get(PODS, "default", "a");

        assertThat(GarbageCollector.mayGiveWork(new WatchEvent(MODIFIED, statusWritten, created))).isFalse();
        assertThat(GarbageCollector.mayGiveWork(new WatchEvent(ADDED, created, null))).isTrue();
        assertThat(GarbageCollector.mayGiveWork(new WatchEvent(MODIFIED, orphaned, statusWritten))).isTrue();
        assertThat(GarbageCollector.mayGiveWork(new WatchEvent(MODIFIED, deleting, orphaned))).isTrue();
        assertThat(GarbageCollector.mayGiveWork(new WatchEvent(MODIFIED, deletingWritten, deleting))).isTrue();
        assertThat(GarbageCollector.mayGiveWork(new WatchEvent(DELETED, deletingWritten, deletingWritten))).isTrue();
        // the collector still sees the deletion through: the finalizer holds the Pod, nothing else does
        cluster.settle();
        assertThat(registry.store().get(PODS, "default", "a").isDeleting()).isTrue();
    }
}
