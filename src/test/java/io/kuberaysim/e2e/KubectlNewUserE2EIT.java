package io.kuberaysim.e2e;

import io.kuberaysim.testing.Kubectl;
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
 * What a new user who knows kubectl meets in the first hour (the API server alone, no operator): the answers kubectl
 * 1.32 gets are those of a cluster with KubeRay's CRDs installed.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "kuberay-sim.controllers=false")
class KubectlNewUserE2EIT {
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

    // kubectl validates strictly by default: a typo is an error, not a field silently kept
    @Test
    void aTypoInAPodIsRefusedByDefaultAndWarnedWithValidateWarn() throws Exception {
        String pod = """
                apiVersion: v1
                kind: Pod
                metadata: {name: typo-pod}
                spec:
                  containers:
                  - name: app
                    image: busybox
                    resorces: {limits: {cpu: "1"}}
                """;
        Kubectl.Result strict = kubectl.runWithInput(pod, "apply", "-f", "-");
        assertThat(strict.exit()).as(strict.all()).isNotZero();
        assertThat(strict.err()).as(strict.all()).contains("Error from server (BadRequest)",
                "Pod in version \"v1\" cannot be handled as a Pod: strict decoding error: "
                        + "unknown field \"spec.containers[0].resorces\"");
        assertThat(kubectl.run("get", "pod", "typo-pod").exit()).isNotZero();

        Kubectl.Result warned = kubectl.runWithInput(pod, "apply", "--validate=warn", "-f", "-");
        assertThat(warned.exit()).as(warned.all()).isZero();
        assertThat(warned.err()).as(warned.all()).contains("unknown field \"spec.containers[0].resorces\"");
        assertThat(warned.out()).contains("pod/typo-pod created");
    }

    @Test
    void aTypoInARayClustersPodTemplateIsRefusedAsKubeRaysCrdSchemaRefusesIt() throws Exception {
        String cluster = """
                apiVersion: ray.io/v1
                kind: RayCluster
                metadata: {name: typo-cluster}
                spec:
                  headGroupSpec:
                    rayStartParams: {}
                    template:
                      spec:
                        containers:
                        - name: ray-head
                          image: rayproject/ray:2.41.0
                          resorces: {limits: {cpu: "1"}}
                  workerGroupSpecs:
                  - groupName: small
                    replicas: 1
                    rayStartParams: {}
                    template:
                      spec:
                        containers:
                        - name: ray-worker
                          image: rayproject/ray:2.41.0
                          imagePullPolicy: IfNotPresent
                        nodeSelektor: {pool: cpu}
                """;
        Kubectl.Result strict = kubectl.runWithInput(cluster, "apply", "-f", "-");
        assertThat(strict.exit()).as(strict.all()).isNotZero();
        assertThat(strict.err()).as(strict.all()).contains("Error from server (BadRequest)", "strict decoding error: "
                + "unknown field \"spec.headGroupSpec.template.spec.containers[0].resorces\", "
                + "unknown field \"spec.workerGroupSpecs[0].template.spec.nodeSelektor\"");

        Kubectl.Result serverSide = kubectl.runWithInput(cluster, "apply", "--server-side", "-f", "-");
        assertThat(serverSide.exit()).as(serverSide.all()).isNotZero();
        assertThat(serverSide.err()).as(serverSide.all())
                .contains("unknown field \"spec.headGroupSpec.template.spec.containers[0].resorces\"");

        Kubectl.Result fixed = kubectl.runWithInput(cluster.replace("resorces", "resources")
                .replace("nodeSelektor", "nodeSelector"), "apply", "-f", "-");
        assertThat(fixed.exit()).as(fixed.all()).isZero();
        assertThat(fixed.err()).as(fixed.all()).doesNotContain("unknown field");
    }

    // KubeRay's samples ray-cluster.mtls.yaml, ray-cluster.network-policy-deny-all.yaml, ray-cluster.historyserver.yaml
    @Test
    void kubeRaysNewerClusterOptionsApplyAndAreKept() throws Exception {
        Kubectl.Result applied = kubectl.runWithInput("""
                apiVersion: ray.io/v1
                kind: RayCluster
                metadata: {name: options}
                spec:
                  tlsOptions: {enabled: true}
                  networkPolicy:
                    mode: DenyAll
                    head:
                      egressRules:
                      - ports: [{protocol: UDP, port: 53}]
                  historyServerOptions:
                    collectorOptions: {image: "quay.io/kuberay/collector:latest", imagePullPolicy: IfNotPresent}
                  headGroupSpec:
                    rayStartParams: {}
                    template:
                      spec:
                        containers: [{name: ray-head, image: "rayproject/ray:2.41.0"}]
                """, "apply", "-f", "-");
        assertThat(applied.exit()).as(applied.all()).isZero();
        assertThat(applied.out()).contains("raycluster.ray.io/options created");
        assertThat(kubectl.run("get", "raycluster", "options", "-o",
                "jsonpath={.spec.tlsOptions.enabled} {.spec.networkPolicy.mode} "
                        + "{.spec.networkPolicy.head.egressRules[0].ports[0].port} "
                        + "{.spec.historyServerOptions.collectorOptions.image}").out())
                .isEqualTo("true DenyAll 53 quay.io/kuberay/collector:latest");
    }

    // the first thing a Ray user does with a head Pod: kubectl exec -it <head> -- ray status
    @Test
    void execAttachAndPortForwardSayThatNoContainerRunsInsteadOfNotFound() throws Exception {
        assertThat(kubectl.run("run", "head", "--image=rayproject/ray:2.41.0").exit()).isZero();
        Kubectl.Result exec = kubectl.run("exec", "head", "--", "ray", "status");
        assertThat(exec.exit()).isNotZero();
        assertThat(exec.err()).as(exec.all()).contains("Error from server (BadRequest): pod \"head\" runs no "
                + "containers on kuberay-sim's simulated kubelet: pods/exec is not supported");
        Kubectl.Result attach = kubectl.run("attach", "head");
        assertThat(attach.err()).as(attach.all()).contains("pods/attach is not supported");
        // kubectl forwards only to a Running Pod (no scheduler or kubelet runs in this context)
        assertThat(kubectl.run("patch", "pod", "head", "--subresource=status", "--type=merge",
                "-p", "{\"status\":{\"phase\":\"Running\"}}").exit()).isZero();
        Kubectl.Result forward = kubectl.run("port-forward", "pod/head", "18265:8265");
        assertThat(forward.exit()).isNotZero();
        assertThat(forward.err()).as(forward.all()).contains("pods/portforward is not supported");
        Kubectl.Result missing = kubectl.run("exec", "no-such-pod", "--", "ls");
        assertThat(missing.err()).as(missing.all()).contains("Error from server (NotFound): pods \"no-such-pod\" not found");
    }

    // a fresh namespace holds what kube-controller-manager puts in every one, and a Pod runs as its default account
    @Test
    void aNewNamespaceHasTheDefaultServiceAccountAndTheRootCaAndPodsMountTheToken() throws Exception {
        assertThat(kubectl.run("create", "namespace", "team-a").exit()).isZero();
        Kubectl.Result run = kubectl.run("run", "app", "-n", "team-a", "--image=busybox");
        assertThat(run.exit()).as(run.all()).isZero();
        Kubectl.Result accounts = kubectl.run("get", "serviceaccounts", "-n", "team-a");
        assertThat(accounts.out()).as(accounts.all()).containsPattern("(?m)^NAME +SECRETS +AGE$")
                .containsPattern("(?m)^default +0 +");
        Kubectl.Result ca = kubectl.run("get", "configmap", "kube-root-ca.crt", "-n", "team-a",
                "-o", "jsonpath={.data.ca\\.crt}");
        assertThat(ca.out()).as(ca.all()).startsWith("-----BEGIN CERTIFICATE-----");
        Kubectl.Result pod = kubectl.run("get", "pod", "app", "-n", "team-a", "-o",
                "jsonpath={.spec.serviceAccountName} {.spec.volumes[0].name} {.spec.containers[0].volumeMounts[0].mountPath}");
        assertThat(pod.out()).as(pod.all())
                .matches("default kube-api-access-[a-z0-9]{5} /var/run/secrets/kubernetes.io/serviceaccount");
    }
}
