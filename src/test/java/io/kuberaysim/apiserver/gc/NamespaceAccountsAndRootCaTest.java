package io.kuberaysim.apiserver.gc;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceType;
import io.kuberaysim.apiserver.registry.DeleteOptions;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.WriteOptions;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.testing.TestCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import static io.kuberaysim.api.ResourceTypes.CONFIGMAPS;
import static io.kuberaysim.api.ResourceTypes.NAMESPACES;
import static io.kuberaysim.api.ResourceTypes.SERVICEACCOUNTS;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every namespace that is not terminating has a {@code default} ServiceAccount and a {@code kube-root-ca.crt}
 * ConfigMap, kept there by the ServiceAccount controller and the root CA publisher.
 */
class NamespaceAccountsAndRootCaTest {
    private final TestCluster cluster = new TestCluster();
    private final GenericRegistry registry = cluster.registry;

    @AfterEach
    void close() {
        cluster.close();
    }

    private StoredObject get(ResourceType type, String ns, String name) {
        return registry.store().get(type, ns, name);
    }

    private void namespace(String name) {
        registry.create(NAMESPACES, null, TestCluster.yaml("metadata: {name: " + name + "}"), WriteOptions.DEFAULT);
    }

    @Test
    @DisplayName("the namespaces a cluster starts with and a new one have both, made by kube-controller-manager")
    void everyNamespaceHasBoth() {
        namespace("team-a");
        cluster.settle();
        for (String ns : new String[] {"default", "kube-system", "kube-public", "kube-node-lease", "team-a"}) {
            StoredObject account = get(SERVICEACCOUNTS, ns, "default");
            assertThat(account).as(ns).isNotNull();
            StoredObject ca = get(CONFIGMAPS, ns, "kube-root-ca.crt");
            assertThat(ca).as(ns).isNotNull();
            assertThat(Json.text(ca.object(), "data", "ca.crt")).startsWith("-----BEGIN CERTIFICATE-----\n")
                    .endsWith("-----END CERTIFICATE-----\n").isEqualTo(RootCaCertPublisher.simulatedCa());
            assertThat(ca.annotations()).containsKey("kubernetes.io/description");
            assertThat(ca.object().at("/metadata/managedFields/0/manager").asString())
                    .isEqualTo("kube-controller-manager");
        }
    }

    @Test
    @DisplayName("a deleted default ServiceAccount or kube-root-ca.crt is made again")
    void deletedOnesComeBack() {
        cluster.settle();
        String uid = get(SERVICEACCOUNTS, "default", "default").uid();
        registry.delete(SERVICEACCOUNTS, "default", "default", DeleteOptions.DEFAULT);
        registry.delete(CONFIGMAPS, "default", "kube-root-ca.crt", DeleteOptions.DEFAULT);
        cluster.settle();
        assertThat(get(SERVICEACCOUNTS, "default", "default").uid()).isNotEqualTo(uid);
        assertThat(get(CONFIGMAPS, "default", "kube-root-ca.crt")).isNotNull();
    }

    @Test
    @DisplayName("a changed kube-root-ca.crt gets its bundle back; other ConfigMaps are left alone")
    void aChangedBundleIsPutBack() {
        cluster.settle();
        ObjectNode changed = get(CONFIGMAPS, "default", "kube-root-ca.crt").copy();
        ((ObjectNode) changed.get("data")).put("ca.crt", "not a certificate").put("extra", "x");
        ((ObjectNode) changed.get("metadata")).remove("annotations");
        registry.update(CONFIGMAPS, "default", "kube-root-ca.crt", changed, false, WriteOptions.DEFAULT);
        registry.create(CONFIGMAPS, "default", TestCluster.yaml("{metadata: {name: mine}, data: {ca.crt: x}}"),
                WriteOptions.DEFAULT);
        cluster.settle();
        StoredObject ca = get(CONFIGMAPS, "default", "kube-root-ca.crt");
        assertThat(ca.object().get("data").propertyNames()).containsExactly("ca.crt");
        assertThat(Json.text(ca.object(), "data", "ca.crt")).isEqualTo(RootCaCertPublisher.simulatedCa());
        assertThat(ca.annotations()).containsKey("kubernetes.io/description");
        assertThat(Json.text(get(CONFIGMAPS, "default", "mine").object(), "data", "ca.crt")).isEqualTo("x");
    }

    @Test
    @DisplayName("a terminating namespace gets neither back: its content is deleted and stays deleted")
    void noneInATerminatingNamespace() {
        namespace("leaving");
        // a finalizer nobody removes keeps the namespace Terminating
        registry.create(CONFIGMAPS, "leaving", TestCluster.yaml("metadata: {name: held, finalizers: [example.com/hold]}"),
                WriteOptions.DEFAULT);
        cluster.settle();
        registry.delete(NAMESPACES, null, "leaving", DeleteOptions.DEFAULT);
        cluster.settle();
        assertThat(get(NAMESPACES, null, "leaving").isDeleting()).isTrue();
        assertThat(get(SERVICEACCOUNTS, "leaving", "default")).isNull();
        assertThat(get(CONFIGMAPS, "leaving", "kube-root-ca.crt")).isNull();
    }
}
