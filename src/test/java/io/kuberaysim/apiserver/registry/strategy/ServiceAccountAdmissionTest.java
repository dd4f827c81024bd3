package io.kuberaysim.apiserver.registry.strategy;

import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.registry.WriteOptions;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.testing.TestCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static io.kuberaysim.api.ResourceTypes.NAMESPACES;
import static io.kuberaysim.api.ResourceTypes.PODS;
import static io.kuberaysim.api.ResourceTypes.SERVICEACCOUNTS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The ServiceAccount admission on Pod create: the account, its existence, the token volume and its mounts. */
class ServiceAccountAdmissionTest {
    private static final String MOUNT = "/var/run/secrets/kubernetes.io/serviceaccount";
    private final TestCluster cluster = new TestCluster();

    @AfterEach
    void close() {
        cluster.close();
    }

    private StoredObject create(String ns, String yaml) {
        return cluster.registry.create(PODS, ns, TestCluster.yaml(yaml), WriteOptions.DEFAULT).object();
    }

    private static String volumeName(StoredObject pod) {
        return pod.object().at("/spec/volumes/0/name").asString();
    }

    @Test
    @DisplayName("a Pod that names no account runs as default and mounts kube-api-access-<5> in every container")
    void defaults() {
        StoredObject pod = create("default", """
                metadata: {name: p}
                spec:
                  initContainers: [{name: init, image: busybox}]
                  containers:
                  - {name: a, image: busybox}
                  - name: b
                    image: busybox
                    volumeMounts: [{name: own, mountPath: /var/run/secrets/kubernetes.io/serviceaccount}]
                  volumes: [{name: own, emptyDir: {}}]
                """);
        JsonNode spec = pod.object().get("spec");
        assertThat(spec.get("serviceAccountName").asString()).isEqualTo("default");
        assertThat(spec.get("serviceAccount").asString()).isEqualTo("default");
        String volume = spec.at("/volumes/1/name").asString();
        assertThat(volume).matches("kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}");
        assertThat(spec.at("/volumes/1/projected")).isEqualTo(TestCluster.yaml("""
                sources:
                - serviceAccountToken: {expirationSeconds: 3607, path: token}
                - configMap:
                    name: kube-root-ca.crt
                    items: [{key: ca.crt, path: ca.crt}]
                - downwardAPI:
                    items:
                    - path: namespace
                      fieldRef: {apiVersion: v1, fieldPath: metadata.namespace}
                defaultMode: 420
                """));
        JsonNode mount = TestCluster.yaml("{name: " + volume + ", readOnly: true, mountPath: " + MOUNT + "}");
        assertThat(spec.at("/initContainers/0/volumeMounts")).containsExactly(mount);
        assertThat(spec.at("/containers/0/volumeMounts")).containsExactly(mount);
        assertThat(spec.at("/containers/1/volumeMounts")).hasSize(1); // its own mount at the path stays the one
        // what admission added is no manager's, as kube-apiserver records managed fields before admission
        String managed = pod.object().at("/metadata/managedFields/0/fieldsV1").toString();
        assertThat(managed).doesNotContain("kube-api-access").doesNotContain("serviceAccount");
    }

    @Test
    @DisplayName("the volume names repeat run after run with the same seed")
    void volumeNamesAreSeeded() {
        String first = volumeName(create("default", "{metadata: {name: p}, spec: {containers: [{name: c, image: i}]}}"));
        try (TestCluster again = new TestCluster()) {
            StoredObject pod = again.registry.create(PODS, "default",
                    TestCluster.yaml("{metadata: {name: p}, spec: {containers: [{name: c, image: i}]}}"),
                    WriteOptions.DEFAULT).object();
            assertThat(volumeName(pod)).isEqualTo(first);
        }
    }

    @Test
    @DisplayName("automountServiceAccountToken: the Pod's wins over its ServiceAccount's; false mounts nothing")
    void automount() {
        cluster.registry.create(SERVICEACCOUNTS, "default", TestCluster.yaml("""
                metadata: {name: quiet}
                automountServiceAccountToken: false
                imagePullSecrets: [{name: registry}]
                """), WriteOptions.DEFAULT);
        StoredObject quiet = create("default", """
                {metadata: {name: q}, spec: {serviceAccountName: quiet, containers: [{name: c, image: i}]}}""");
        assertThat(quiet.object().at("/spec/volumes").isMissingNode()).isTrue();
        assertThat(quiet.object().at("/spec/containers/0/volumeMounts").isMissingNode()).isTrue();
        assertThat(quiet.object().at("/spec/imagePullSecrets/0/name").asString()).isEqualTo("registry");

        StoredObject asked = create("default", """
                {metadata: {name: a}, spec: {serviceAccountName: quiet, automountServiceAccountToken: true,
                 containers: [{name: c, image: i}]}}""");
        assertThat(volumeName(asked)).startsWith("kube-api-access-");

        StoredObject off = create("default", """
                {metadata: {name: o}, spec: {automountServiceAccountToken: false, containers: [{name: c, image: i}]}}""");
        assertThat(off.object().at("/spec/volumes").isMissingNode()).isTrue();
        assertThat(off.object().at("/spec/serviceAccountName").asString()).isEqualTo("default");
    }

    @Test
    @DisplayName("an account that does not exist is a 403; the deprecated serviceAccount names one too")
    void missingAccount() {
        assertThatThrownBy(() -> create("default", """
                {metadata: {name: p}, spec: {serviceAccount: runner, containers: [{name: c, image: i}]}}"""))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.code()).isEqualTo(403);
                    assertThat(e.getMessage()).isEqualTo("pods \"p\" is forbidden: error looking up service account "
                            + "default/runner: serviceaccount \"runner\" not found");
                });
    }

    @Test
    @DisplayName("a Pod created right after its namespace finds the default ServiceAccount")
    void rightAfterTheNamespace() {
        cluster.registry.create(NAMESPACES, null, TestCluster.yaml("metadata: {name: fresh}"), WriteOptions.DEFAULT);
        StoredObject pod = create("fresh", "{metadata: {name: p}, spec: {containers: [{name: c, image: i}]}}");
        assertThat(pod.object().at("/spec/serviceAccountName").asString()).isEqualTo("default");
    }
}
