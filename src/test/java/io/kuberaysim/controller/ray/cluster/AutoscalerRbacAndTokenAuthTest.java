package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.testing.SimulationHarness;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.Base64;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What KubeRay creates next to the Pods: the autoscaler's ServiceAccount, Role and RoleBinding for an autoscaling
 * cluster ({@code reconcileAutoscaler*}, {@code common/rbac.go}), and Ray token authentication's Secret and
 * environment ({@code reconcileAuthSecret}, {@code configureTokenAuth}).
 */
class AutoscalerRbacAndTokenAuthTest {
    static final String NS = "default";

    static String cluster(String name, String specExtra, String headSpecExtra) {
        return """
                apiVersion: ray.io/v1
                kind: RayCluster
                metadata: {name: %s}
                spec:
                  rayVersion: "2.53.0"
                %s
                  headGroupSpec:
                    rayStartParams: {}
                    template:
                      spec:
                %s
                        containers:
                        - name: ray-head
                          image: rayproject/ray:2.53.0
                          resources: {limits: {cpu: "1", memory: 2Gi}}
                  workerGroupSpecs:
                  - groupName: wg
                    replicas: 1
                    minReplicas: 0
                    maxReplicas: 3
                    rayStartParams: {}
                    template:
                      spec:
                        containers:
                        - name: ray-worker
                          image: rayproject/ray:2.53.0
                          resources: {limits: {cpu: "1", memory: 2Gi}}
                """.formatted(name, specExtra.indent(2).stripTrailing(), headSpecExtra.indent(8).stripTrailing());
    }

    static List<String> events(SimulationHarness h, String involved) {
        return h.client().list(ResourceTypes.EVENTS, NS, null).stream().map(StoredObject::object)
                .filter(e -> involved.equals(e.at("/involvedObject/name").asString()))
                .map(e -> e.path("reason").asString() + ": " + e.path("message").asString()).toList();
    }

    static JsonNode env(JsonNode container, String name) {
        for (JsonNode e : container.path("env")) {
            if (name.equals(e.path("name").asString())) {
                return e;
            }
        }
        return null;
    }

    @Test
    void anAutoscalingClusterGetsItsAutoscalersServiceAccountRoleAndRoleBindingOwnedByIt() {
        try (SimulationHarness h = SimulationHarness.withOperator()) {
            h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("scaled", "enableInTreeAutoscaling: true", ""));
            h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("fixed", "", ""));
            h.advance(Duration.ofSeconds(60));
            StoredObject sa = h.client().get(ResourceTypes.SERVICEACCOUNTS, NS, "scaled");
            StoredObject role = h.client().get(ResourceTypes.ROLES, NS, "scaled");
            StoredObject binding = h.client().get(ResourceTypes.ROLEBINDINGS, NS, "scaled");
            assertThat(sa).isNotNull();
            assertThat(sa.labels()).containsEntry("ray.io/cluster", "scaled")
                    .containsEntry("app.kubernetes.io/created-by", "kuberay-operator");
            assertThat(sa.object().at("/metadata/ownerReferences/0/kind").asString()).isEqualTo("RayCluster");
            assertThat(role.object().path("rules").toString()).contains("pods/resize", "rayclusters");
            assertThat(binding.object().at("/subjects/0/name").asString()).isEqualTo("scaled");
            assertThat(binding.object().at("/roleRef/name").asString()).isEqualTo("scaled");
            assertThat(h.client().get(ResourceTypes.PODS, NS, "scaled-head").object().at("/spec/serviceAccountName")
                    .asString()).isEqualTo("scaled");
            assertThat(events(h, "scaled")).contains("CreatedServiceAccount: Created service account default/scaled",
                    "CreatedRole: Created role default/scaled", "CreatedRoleBinding: Created role binding default/scaled");
            assertThat(h.client().get(ResourceTypes.SERVICEACCOUNTS, NS, "fixed")).isNull();
            assertThat(h.client().get(ResourceTypes.ROLES, NS, "fixed")).isNull();

            h.client().delete(ResourceTypes.RAYCLUSTERS, NS, "scaled");
            h.advance(Duration.ofSeconds(60));
            assertThat(h.client().get(ResourceTypes.ROLEBINDINGS, NS, "scaled")).isNull(); // garbage collected
        }
    }

    @Test
    void aServiceAccountTheUserNamesMustExistOrTheClusterGetsNoPods() {
        try (SimulationHarness h = SimulationHarness.withOperator()) {
            h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("own-sa", "enableInTreeAutoscaling: true",
                    "serviceAccountName: ray-autoscaler"));
            h.advance(Duration.ofSeconds(30));
            assertThat(h.client().get(ResourceTypes.PODS, NS, "own-sa-head")).isNull();
            assertThat(h.client().get(ResourceTypes.SERVICEACCOUNTS, NS, "ray-autoscaler")).isNull();
            assertThat(events(h, "own-sa")).anySatisfy(e -> assertThat(e).startsWith(
                    "AutoscalerServiceAccountNotFound: Failed to reconcile RayCluster default/own-sa. If users specify "
                            + "ServiceAccountName for the head Pod, they need to create a ServiceAccount themselves. "
                            + "However, ServiceAccount ray-autoscaler is not found."));

            h.create(ResourceTypes.SERVICEACCOUNTS, NS, "metadata: {name: ray-autoscaler}\n");
            h.advance(Duration.ofSeconds(30));
            assertThat(h.client().get(ResourceTypes.PODS, NS, "own-sa-head")).isNotNull();
            assertThat(h.client().get(ResourceTypes.ROLEBINDINGS, NS, "own-sa").object().at("/subjects/0/name")
                    .asString()).isEqualTo("ray-autoscaler");
        }
    }

    @Test
    void withoutTheAutoscalerAMissingServiceAccountIsRefusedByAdmissionAndKubeRayReportsIt() {
        try (SimulationHarness h = SimulationHarness.withOperator()) {
            h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("plain-sa", "", "serviceAccountName: ray-runner"));
            h.advance(Duration.ofSeconds(30));
            assertThat(h.client().get(ResourceTypes.PODS, NS, "plain-sa-head")).isNull();
            assertThat(events(h, "plain-sa")).anySatisfy(e -> assertThat(e).isEqualTo(
                    "FailedToCreateHeadPod: Failed to create head Pod default/plain-sa, pods \"plain-sa-head\" is "
                            + "forbidden: error looking up service account default/ray-runner: serviceaccount "
                            + "\"ray-runner\" not found"));

            h.create(ResourceTypes.SERVICEACCOUNTS, NS, "metadata: {name: ray-runner}\n");
            h.advance(Duration.ofSeconds(30));
            assertThat(h.client().get(ResourceTypes.PODS, NS, "plain-sa-head").object()
                    .at("/spec/serviceAccountName").asString()).isEqualTo("ray-runner");
        }
    }

    @Test
    void tokenAuthGetsASecretWithARandomTokenAndEveryRayContainerReadsIt() {
        try (SimulationHarness h = SimulationHarness.withOperator()) {
            h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("authed",
                    "enableInTreeAutoscaling: true\nauthOptions: {mode: token}", ""));
            h.advance(Duration.ofSeconds(60));
            StoredObject secret = h.client().get(ResourceTypes.SECRETS, NS, "authed");
            assertThat(secret).isNotNull();
            assertThat(secret.object().at("/metadata/ownerReferences/0/name").asString()).isEqualTo("authed");
            byte[] token = Base64.getDecoder().decode(Base64.getDecoder().decode(
                    secret.object().at("/data/auth_token").asString()));
            assertThat(token).hasSize(32);

            JsonNode head = h.client().get(ResourceTypes.PODS, NS, "authed-head").object();
            for (JsonNode c : head.at("/spec/containers")) {
                assertThat(env(c, "RAY_AUTH_MODE").path("value").asString()).as(c.path("name").asString())
                        .isEqualTo("token");
                assertThat(env(c, "RAY_AUTH_TOKEN").at("/valueFrom/secretKeyRef").toString())
                        .isEqualTo("{\"name\":\"authed\",\"key\":\"auth_token\"}");
            }
            StoredObject worker = h.client().list(ResourceTypes.PODS, NS, "ray.io/node-type=worker").get(0);
            JsonNode init = worker.object().at("/spec/initContainers/0");
            assertThat(init.path("name").asString()).isEqualTo("wait-gcs-ready");
            assertThat(env(init, "RAY_AUTH_TOKEN")).isNotNull();
            assertThat(h.client().get(ResourceTypes.RAYCLUSTERS, NS, "authed").object().at("/status/state")
                    .asString()).isEqualTo("ready");

            // deleted by hand, the Secret comes back with a new token (KubeRay owns and watches it)
            h.client().delete(ResourceTypes.SECRETS, NS, "authed");
            h.advance(Duration.ofSeconds(5));
            assertThat(h.client().get(ResourceTypes.SECRETS, NS, "authed")).isNotNull();
        }
    }

    @Test
    void aUsersTokenSecretIsReadNotCreatedAndPodsWaitForIt() {
        try (SimulationHarness h = SimulationHarness.withOperator()) {
            h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("byo",
                    "authOptions: {mode: token, secretName: my-token}", ""));
            h.advance(Duration.ofSeconds(60));
            assertThat(h.client().get(ResourceTypes.SECRETS, NS, "byo")).isNull();
            assertThat(h.client().get(ResourceTypes.SECRETS, NS, "my-token")).isNull();
            JsonNode head = h.client().get(ResourceTypes.PODS, NS, "byo-head").object();
            assertThat(head.at("/status/containerStatuses/0/state/waiting/message").asString())
                    .isEqualTo("secret \"my-token\" not found");

            h.create(ResourceTypes.SECRETS, NS, "metadata: {name: my-token}\nstringData: {auth_token: s3cr3t}\n");
            h.advance(Duration.ofSeconds(60));
            assertThat(h.client().get(ResourceTypes.RAYCLUSTERS, NS, "byo").object().at("/status/state").asString())
                    .isEqualTo("ready");
        }
    }

    @Test
    void kubernetesTokenAuthMountsAProjectedServiceAccountTokenInsteadOfASecret() {
        try (SimulationHarness h = SimulationHarness.withOperator()) {
            h.create(ResourceTypes.RAYCLUSTERS, NS, cluster("k8s-auth",
                    "authOptions: {mode: token, enableK8sTokenAuth: true}", "").replace("2.53.0", "2.55.0"));
            h.advance(Duration.ofSeconds(60));
            assertThat(h.client().get(ResourceTypes.SECRETS, NS, "k8s-auth")).isNull();
            JsonNode head = h.client().get(ResourceTypes.PODS, NS, "k8s-auth-head").object();
            JsonNode ray = head.at("/spec/containers/0");
            assertThat(env(ray, "RAY_ENABLE_K8S_TOKEN_AUTH").path("value").asString()).isEqualTo("true");
            assertThat(env(ray, "RAY_AUTH_TOKEN")).isNull();
            assertThat(ray.path("volumeMounts").toString()).contains("/var/run/secrets/ray.io/serviceaccount");
            assertThat(head.at("/spec/volumes").toString()).contains("\"serviceAccountToken\":{\"path\":\"token\"}");
            assertThat(head.at("/status/phase").asString()).isEqualTo("Running");
        }
    }

    @Test
    void checkNameClipsLongNamesAndLeadingDigitsAsKubeRayDoes() {
        assertThat(io.kuberaysim.controller.ray.RayLabels.checkName("a".repeat(60) + "b")).hasSize(50).endsWith("b");
        assertThat(io.kuberaysim.controller.ray.RayLabels.checkName("1abc")).isEqualTo("rabc");
        assertThat(io.kuberaysim.controller.ray.RayLabels.checkName("abc")).isEqualTo("abc");
    }
}
