package io.kuberaysim.e2e;

import io.kuberaysim.testing.Kubectl;
import io.kuberaysim.testing.SeedManifests;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * kubectl 1.32 driven as its users drive it against the API server alone (no operator): the answers it gets for
 * the API rules of issue 17 are those of a real cluster.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "kuberay-sim.controllers=false")
class KubectlApiFidelityE2EIT {
    static final String DEMO = SeedManifests.demoRayCluster().replace("name: demo-raycluster", "name: %s");

    @LocalServerPort
    int port;
    @TempDir
    static Path dir;
    Kubectl kubectl;

    @BeforeAll
    static void kubectlInstalled() {
        assumeTrue(Kubectl.installed(), "kubectl is not on PATH: skipping the kubectl end-to-end tests");
    }

    @BeforeEach
    void kubectl() {
        kubectl = new Kubectl(port, dir);
    }

    @Test
    void scaleOnARayClusterIsNotFoundAsTheCrdHandlerAnswers() throws Exception {
        assertThat(kubectl.runWithInput(DEMO.formatted("unscalable"), "apply", "-f", "-").exit()).isZero();
        Kubectl.Result scaled = kubectl.run("scale", "raycluster", "unscalable", "--replicas=3");
        assertThat(scaled.exit()).isNotZero();
        assertThat(scaled.err()).contains("Error from server (NotFound): rayclusters.ray.io \"unscalable\" not found");
    }

    // kubectl downloads OpenAPI v2 for kinds OpenAPI v3 does not describe; with a document there (and no schema for
    // them) it validates nothing client-side and reports each unknown kind as on a cluster without its CRD
    @Test
    void aFileWithKindsThisServerDoesNotServeAppliesTheRestWithKubesMessageForThem() throws Exception {
        String file = DEMO.formatted("mixed") + """

                ---
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: redis}
                spec:
                  selector: {matchLabels: {app: redis}}
                  template:
                    metadata: {labels: {app: redis}}
                    spec: {containers: [{name: redis, image: "redis:7"}]}
                ---
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: redis-config}
                data: {maxmemory: 1gb}
                """;
        Kubectl.Result applied = kubectl.runWithInput(file, "apply", "-f", "-");
        assertThat(applied.exit()).isNotZero();
        assertThat(applied.out()).as(applied.all())
                .contains("raycluster.ray.io/mixed created", "configmap/redis-config created");
        assertThat(applied.err()).as(applied.all())
                .contains("no matches for kind \"Deployment\" in version \"apps/v1\"", "ensure CRDs are installed first")
                .doesNotContain("openapi");
    }

    // kubectl's create secret generators post protobuf; apply sends JSON with stringData
    @Test
    void secretsAsKubectlCreatesAppliesListsAndDescribesThem() throws Exception {
        Kubectl.Result generic = kubectl.run("create", "secret", "generic", "kubectl-creds",
                "--from-literal=password=s3cr3t", "--from-literal=user=admin");
        assertThat(generic.out()).as(generic.all()).isEqualTo("secret/kubectl-creds created\n");
        assertThat(kubectl.run("get", "secret", "kubectl-creds", "-o", "jsonpath={.data.password}").out())
                .isEqualTo("czNjcjN0");
        Kubectl.Result registry = kubectl.run("create", "secret", "docker-registry", "pull", "--docker-server=r.io",
                "--docker-username=u", "--docker-password=p");
        assertThat(registry.out()).as(registry.all()).contains("secret/pull created");
        Kubectl.Result applied = kubectl.runWithInput("""
                apiVersion: v1
                kind: Secret
                metadata: {name: redis-password-secret}
                type: Opaque
                stringData: {password: "5241590000000000"}
                """, "apply", "-f", "-");
        assertThat(applied.out()).as(applied.all()).contains("secret/redis-password-secret created");
        Kubectl.Result yaml = kubectl.run("get", "secret", "redis-password-secret", "-o", "yaml");
        assertThat(yaml.out()).as(yaml.all()).contains("password: NTI0MTU5MDAwMDAwMDAwMA==")
                .doesNotContain("stringData:");
        Kubectl.Result listed = kubectl.run("get", "secrets");
        assertThat(listed.out()).as(listed.all()).contains("TYPE").containsPattern("kubectl-creds\\s+Opaque\\s+2")
                .containsPattern("pull\\s+kubernetes.io/dockerconfigjson\\s+1");
        Kubectl.Result described = kubectl.run("describe", "secret", "kubectl-creds");
        assertThat(described.out()).as(described.all()).contains("Type:  Opaque")
                .containsPattern("password:\\s+6 bytes");
        Kubectl.Result invalid = kubectl.runWithInput("""
                apiVersion: v1
                kind: Secret
                metadata: {name: broken}
                data: {token: "not base64!"}
                """, "apply", "-f", "-");
        assertThat(invalid.exit()).isNotZero();
        assertThat(invalid.err()).contains("illegal base64 data at input byte 3");
    }

    @Test
    void fieldSelectorsAsKubectlSendsThem() throws Exception {
        assertThat(kubectl.runWithInput(DEMO.formatted("selected"), "apply", "-f", "-").exit()).isZero();
        assertThat(kubectl.runWithInput(DEMO.formatted("other"), "apply", "-f", "-").exit()).isZero();
        Kubectl.Result byName = kubectl.run("get", "rayclusters", "--field-selector", "metadata.name=selected",
                "-o", "name");
        assertThat(byName.out()).as(byName.all()).isEqualTo("raycluster.ray.io/selected\n");
        Kubectl.Result unsupported = kubectl.run("get", "rayclusters", "--field-selector", "status.state=ready");
        assertThat(unsupported.exit()).isNotZero();
        assertThat(unsupported.err()).contains("Error from server (BadRequest)",
                "field label not supported: status.state");
        Kubectl.Result namespaces = kubectl.run("get", "namespaces", "--field-selector", "status.phase=Active",
                "-o", "name");
        assertThat(namespaces.out()).contains("namespace/default", "namespace/kube-system");
    }

    @Test
    void leasesAreServedWithTheirHolder() throws Exception {
        Kubectl.Result created = kubectl.runWithInput("""
                apiVersion: coordination.k8s.io/v1
                kind: Lease
                metadata: {name: my-operator-lock}
                spec: {holderIdentity: my-operator-0, leaseDurationSeconds: 15}
                """, "apply", "-f", "-");
        assertThat(created.out()).as(created.all()).contains("lease.coordination.k8s.io/my-operator-lock created");
        Kubectl.Result got = kubectl.run("get", "leases");
        assertThat(got.out()).as(got.all()).contains("HOLDER").containsPattern("my-operator-lock\\s+my-operator-0");
    }

    @Test
    void serverSideApplyConflictsForceConflictsAndManagedFields() throws Exception {
        Kubectl.Result first = kubectl.runWithInput(DEMO.formatted("owned"), "apply", "--server-side", "-f", "-");
        assertThat(first.out()).as(first.all()).contains("raycluster.ray.io/owned serverside-applied");
        String scaled = DEMO.formatted("owned").replace("replicas: 2", "replicas: 5");
        assertThat(scaled).isNotEqualTo(DEMO.formatted("owned"));

        Kubectl.Result conflict = kubectl.runWithInput(scaled, "apply", "--server-side", "--field-manager=bob", "-f",
                "-");
        assertThat(conflict.exit()).isNotZero();
        assertThat(conflict.err()).contains("Apply failed with 1 conflict: conflict with \"kubectl\": "
                + ".spec.workerGroupSpecs", "--force-conflicts");

        Kubectl.Result forced = kubectl.runWithInput(scaled, "apply", "--server-side", "--field-manager=bob",
                "--force-conflicts", "-f", "-");
        assertThat(forced.out()).as(forced.all()).contains("raycluster.ray.io/owned serverside-applied");

        Kubectl.Result yaml = kubectl.run("get", "raycluster", "owned", "-o", "yaml", "--show-managed-fields");
        assertThat(yaml.out()).as(yaml.all()).contains("managedFields:", "manager: bob", "operation: Apply",
                "fieldsType: FieldsV1", "f:workerGroupSpecs: {}", "manager: kubectl");
        assertThat(kubectl.run("get", "raycluster", "owned", "-o", "yaml").out()).doesNotContain("managedFields");
    }
}
