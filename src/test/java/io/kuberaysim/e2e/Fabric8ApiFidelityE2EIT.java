package io.kuberaysim.e2e;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The fabric8 client, unchanged, using the API rules of issue 17 against the API server alone. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "kuberay-sim.controllers=false")
class Fabric8ApiFidelityE2EIT {
    @LocalServerPort
    int port;
    KubernetesClient client;

    @BeforeEach
    void connect() {
        Config config = new ConfigBuilder().withMasterUrl("http://127.0.0.1:" + port).withNamespace("default")
                .withRequestRetryBackoffLimit(0).build();
        client = new KubernetesClientBuilder().withConfig(config).build();
    }

    @AfterEach
    void disconnect() {
        client.close();
    }

    @Test
    void secretsWithStringDataAnImmutableTypeAndKubesValidationErrors() {
        Secret created = client.secrets().resource(new SecretBuilder().withNewMetadata().withName("fabric8-creds")
                .endMetadata().addToStringData("password", "s3cr3t").build()).create();
        assertThat(created.getType()).isEqualTo("Opaque");
        assertThat(created.getStringData()).isNullOrEmpty();
        assertThat(new String(Base64.getDecoder().decode(client.secrets().withName("fabric8-creds").get().getData()
                .get("password")), StandardCharsets.UTF_8)).isEqualTo("s3cr3t");
        KubernetesClientException retyped = catchThrowableOfType(KubernetesClientException.class,
                () -> client.secrets().withName("fabric8-creds").edit(s -> new SecretBuilder(s)
                        .withType("kubernetes.io/tls").build()));
        assertThat(retyped.getCode()).isEqualTo(422);
        // as ValidateSecretUpdate: the immutable type, then the new type's own rules
        assertThat(retyped.getStatus().getDetails().getCauses()).extracting("field")
                .containsExactly("type", "data[tls.crt]", "data[tls.key]");
        KubernetesClientException tls = catchThrowableOfType(KubernetesClientException.class,
                () -> client.secrets().resource(new SecretBuilder().withNewMetadata().withName("fabric8-tls")
                        .endMetadata().withType("kubernetes.io/tls").build()).create());
        assertThat(tls.getStatus().getDetails().getCauses()).extracting("field")
                .containsExactly("data[tls.crt]", "data[tls.key]");
    }

    @Test
    void fieldSelectorsOnPodsAndNodesAndKubesErrorForOthers() {
        client.pods().resource(new PodBuilder().withNewMetadata().withName("on-node-1").endMetadata()
                .withNewSpec().withNodeName("sim-node-1").addNewContainer().withName("c").withImage("busybox")
                .endContainer().endSpec().build()).create();
        client.pods().resource(new PodBuilder().withNewMetadata().withName("unbound").endMetadata()
                .withNewSpec().addNewContainer().withName("c").withImage("busybox").endContainer().endSpec()
                .build()).create();
        assertThat(client.pods().withField("spec.nodeName", "sim-node-1").list().getItems())
                .extracting(HasMetadata::getMetadata).extracting("name").containsExactly("on-node-1");
        assertThat(client.pods().withoutField("spec.nodeName", "").list().getItems())
                .extracting(HasMetadata::getMetadata).extracting("name").containsExactly("on-node-1");

        client.nodes().resource(new NodeBuilder().withNewMetadata().withName("cordoned").endMetadata()
                .withNewSpec().withUnschedulable(true).endSpec().build()).create();
        assertThat(client.nodes().withField("spec.unschedulable", "true").list().getItems())
                .extracting(HasMetadata::getMetadata).extracting("name").containsExactly("cordoned");

        KubernetesClientException e = catchThrowableOfType(KubernetesClientException.class,
                () -> client.nodes().withField("metadata.namespace", "default").list());
        assertThat(e.getCode()).isEqualTo(400);
        assertThat(e.getStatus().getMessage()).isEqualTo("field label not supported: metadata.namespace");
    }

    @Test
    void leaderElectionWithALeaseLock() throws Exception {
        CompletableFuture<String> leader = new CompletableFuture<>();
        CompletableFuture<Void> leading = new CompletableFuture<>();
        LeaderElector elector = client.leaderElector().withConfig(new LeaderElectionConfigBuilder()
                .withName("sim-operator").withLock(new LeaseLock("default", "sim-operator-lock", "candidate-a"))
                .withLeaseDuration(Duration.ofSeconds(15)).withRenewDeadline(Duration.ofSeconds(10))
                .withRetryPeriod(Duration.ofSeconds(2))
                .withLeaderCallbacks(new LeaderCallbacks(() -> leading.complete(null), () -> { }, leader::complete))
                .build()).build();
        CompletableFuture<?> running = elector.start();
        try {
            leading.get(30, TimeUnit.SECONDS);
            assertThat(leader.get(30, TimeUnit.SECONDS)).isEqualTo("candidate-a");
            Lease lease = client.leases().inNamespace("default").withName("sim-operator-lock").get();
            assertThat(lease.getSpec().getHolderIdentity()).isEqualTo("candidate-a");
            assertThat(lease.getSpec().getLeaseDurationSeconds()).isEqualTo(15);
        } finally {
            running.cancel(true);
        }
    }

    @Test
    void serverSideApplyConflictsAndForceConflicts() {
        ConfigMap mine = new ConfigMapBuilder().withNewMetadata().withName("ssa-settings").endMetadata()
                .addToData("mode", "fast").build();
        client.configMaps().resource(mine).fieldManager("alice").serverSideApply();
        ConfigMap theirs = new ConfigMapBuilder().withNewMetadata().withName("ssa-settings").endMetadata()
                .addToData("mode", "safe").build();

        KubernetesClientException e = catchThrowableOfType(KubernetesClientException.class,
                () -> client.configMaps().resource(theirs).fieldManager("bob").serverSideApply());
        assertThat(e.getCode()).isEqualTo(409);
        assertThat(e.getStatus().getMessage())
                .isEqualTo("Apply failed with 1 conflict: conflict with \"alice\": .data.mode");
        assertThat(e.getStatus().getDetails().getCauses().get(0).getField()).isEqualTo(".data.mode");

        ConfigMap forced = client.configMaps().resource(theirs).fieldManager("bob").forceConflicts().serverSideApply();
        assertThat(forced.getData()).containsEntry("mode", "safe");
        assertThat(forced.getMetadata().getManagedFields()).extracting("manager").containsExactly("bob");
    }
}
