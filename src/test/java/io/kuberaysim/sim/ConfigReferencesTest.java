package io.kuberaysim.sim;

import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.testing.SimulationHarness;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pods that read ConfigMaps and Secrets start as on a real node: a missing object or key stops them where the
 * kubelet stops (mounting volumes, creating a container), with the kubelet's reasons, messages and events, and they
 * go on by themselves once the object exists; optional references may be missing.
 */
class ConfigReferencesTest {

    static JsonNode status(SimulationHarness h, String pod) {
        return h.client().get(ResourceTypes.PODS, "default", pod).object().path("status");
    }

    static List<String> events(SimulationHarness h, String pod) {
        return h.client().list(ResourceTypes.EVENTS, "default", null).stream().map(StoredObject::object)
                .filter(e -> pod.equals(e.at("/involvedObject/name").asString()))
                .map(e -> e.path("reason").asString() + " " + e.path("message").asString() + " x"
                        + e.path("count").asInt())
                .toList();
    }

    @Test
    void anEnvironmentVariableFromAMissingSecretIsCreateContainerConfigErrorUntilTheSecretExists() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            h.create(ResourceTypes.PODS, "default", """
                    metadata: {name: head}
                    spec:
                      containers:
                      - name: ray-head
                        image: rayproject/ray:2.41.0
                        env:
                        - name: REDIS_PASSWORD
                          valueFrom: {secretKeyRef: {name: redis-password-secret, key: password}}
                      - name: sidecar
                        image: fluent/fluent-bit
                    """);
            h.advance(Duration.ofSeconds(30));
            JsonNode status = status(h, "head");
            assertThat(status.path("phase").asString()).isEqualTo("Pending");
            assertThat(status.at("/containerStatuses/0/state/waiting/reason").asString())
                    .isEqualTo("CreateContainerConfigError");
            assertThat(status.at("/containerStatuses/0/state/waiting/message").asString())
                    .isEqualTo("secret \"redis-password-secret\" not found");
            assertThat(status.at("/containerStatuses/1/state/running").isObject()).isTrue();
            assertThat(status.path("podIP").asString()).isNotEmpty();
            assertThat(status.toString()).contains("containers with unready status: [ray-head]");
            assertThat(events(h, "head")).anySatisfy(e -> assertThat(e)
                    .startsWith("Failed Error: secret \"redis-password-secret\" not found x"));

            h.create(ResourceTypes.SECRETS, "default", """
                    metadata: {name: redis-password-secret}
                    stringData: {user: default}
                    """);
            h.advance(Duration.ofSeconds(30));
            assertThat(status(h, "head").at("/containerStatuses/0/state/waiting/message").asString())
                    .isEqualTo("couldn't find key password in Secret default/redis-password-secret");

            h.client().patch(ResourceTypes.SECRETS, "default", "redis-password-secret",
                    io.kuberaysim.apiserver.registry.PatchType.MERGE,
                    io.kuberaysim.api.Json.MAPPER.readTree("{\"stringData\":{\"password\":\"x\"}}"));
            h.advance(Duration.ofSeconds(30));
            status = status(h, "head");
            assertThat(status.path("phase").asString()).isEqualTo("Running");
            assertThat(status.at("/containerStatuses/0/ready").asBoolean()).isTrue();
            assertThat(status.at("/conditions").toString()).contains("\"type\":\"Ready\",\"status\":\"True\"");
        }
    }

    @Test
    void aMissingSecretVolumeKeepsThePodInContainerCreatingWithFailedMountEventsBackingOff() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            h.create(ResourceTypes.PODS, "default", """
                    metadata: {name: tls}
                    spec:
                      containers: [{name: main, image: busybox}]
                      volumes:
                      - name: certs
                        secret: {secretName: ray-tls}
                      - name: settings
                        configMap: {name: ray-settings, optional: true}
                    """);
            h.advance(Duration.ofSeconds(200));
            JsonNode status = status(h, "tls");
            assertThat(status.path("phase").asString()).isEqualTo("Pending");
            assertThat(status.has("podIP")).isFalse();
            assertThat(status.at("/containerStatuses/0/state/waiting/reason").asString())
                    .isEqualTo("ContainerCreating");
            List<String> events = events(h, "tls").stream().filter(e -> e.startsWith("FailedMount")).toList();
            assertThat(events).hasSize(1);
            // attempts at 0.5 s, 1 s, 2 s, ... 64 s, then every 122 s: 9 in the first 200 s after the startup delay
            assertThat(events.get(0)).matches(
                    "FailedMount MountVolume.SetUp failed for volume \"certs\" : secret \"ray-tls\" not found x\\d+");
            int count = Integer.parseInt(events.get(0).replaceAll(".* x", ""));
            assertThat(count).isBetween(8, 10);

            h.create(ResourceTypes.SECRETS, "default", """
                    metadata: {name: ray-tls}
                    type: kubernetes.io/tls
                    stringData: {tls.crt: c, tls.key: k}
                    """);
            h.advance(Duration.ofSeconds(130));
            status = status(h, "tls");
            assertThat(status.path("phase").asString()).isEqualTo("Running");
            assertThat(status.path("podIP").asString()).isNotEmpty();
        }
    }

    @Test
    void missingKeysInVolumeItemsAndEnvFromAreReportedAsTheKubeletWordsThem() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            h.create(ResourceTypes.CONFIGMAPS, "default", "metadata: {name: cfg}\ndata: {a: '1'}\n");
            h.create(ResourceTypes.PODS, "default", """
                    metadata: {name: items}
                    spec:
                      containers: [{name: main, image: busybox}]
                      volumes:
                      - name: conf
                        configMap: {name: cfg, items: [{key: b, path: b.txt}]}
                    """);
            h.create(ResourceTypes.PODS, "default", """
                    metadata: {name: envfrom}
                    spec:
                      initContainers: [{name: setup, image: busybox, envFrom: [{configMapRef: {name: absent}}]}]
                      containers:
                      - name: main
                        image: busybox
                        envFrom: [{secretRef: {name: absent, optional: true}}, {configMapRef: {name: cfg}}]
                    """);
            h.advance(Duration.ofSeconds(30));
            assertThat(events(h, "items").stream().filter(e -> e.startsWith("FailedMount"))).singleElement().asString().startsWith("FailedMount MountVolume.SetUp failed "
                    + "for volume \"conf\" : configmap references non-existent config key: b x");
            JsonNode envFrom = status(h, "envfrom");
            assertThat(envFrom.at("/initContainerStatuses/0/state/waiting/reason").asString())
                    .isEqualTo("CreateContainerConfigError");
            assertThat(envFrom.at("/initContainerStatuses/0/state/waiting/message").asString())
                    .isEqualTo("configmap \"absent\" not found");
            assertThat(envFrom.at("/containerStatuses/0/state/waiting/reason").asString()).isEqualTo("PodInitializing");

            h.create(ResourceTypes.CONFIGMAPS, "default", "metadata: {name: absent}\n");
            h.advance(Duration.ofSeconds(30));
            assertThat(status(h, "envfrom").path("phase").asString()).isEqualTo("Running");
            assertThat(status(h, "envfrom").at("/initContainerStatuses/0/state/terminated/reason").asString())
                    .isEqualTo("Completed");
        }
    }
}
