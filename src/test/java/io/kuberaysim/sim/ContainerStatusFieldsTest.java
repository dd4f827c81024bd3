package io.kuberaysim.sim;

import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.ObjectStore;
import io.kuberaysim.testing.SimulationHarness;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every container status the kubelet writes carries the fields the Kubernetes API declares required (kube's Go type
 * has no omitempty on them): typed clients such as the Python client refuse a Pod whose {@code imageID} is missing.
 */
class ContainerStatusFieldsTest {

    private static final List<String> REQUIRED = List.of("name", "image", "imageID", "ready", "restartCount");

    @Test
    void everyContainerStatusOfEveryPodVersionHasTheRequiredFields() {
        try (SimulationHarness h = SimulationHarness.withSimulatedCluster()) {
            List<JsonNode> statuses = Collections.synchronizedList(new ArrayList<>());
            List<String> problems = Collections.synchronizedList(new ArrayList<>());
            ObjectStore.Subscription sub = h.registry().store().watch(null, 0, e -> {
                if (!e.object().type().equals(ResourceTypes.PODS)) {
                    return;
                }
                JsonNode status = e.object().object().path("status");
                for (String list : List.of("initContainerStatuses", "containerStatuses")) {
                    for (JsonNode s : status.path(list)) {
                        statuses.add(s);
                        for (String field : REQUIRED) {
                            if (s.path(field).isMissingNode() || s.path(field).isNull()) {
                                problems.add(e.object().name() + " rv " + e.resourceVersion() + " " + list + " "
                                        + s.path("name").asString() + ": no " + field);
                            }
                        }
                    }
                }
            });
            h.create(ResourceTypes.PODS, "default", """
                    metadata: {name: two-with-init}
                    spec:
                      initContainers: [{name: setup, image: busybox:1.36}, {name: warm, image: busybox:1.36}]
                      containers: [{name: main, image: rayproject/ray:2.41.0}, {name: side, image: fluent/fluent-bit}]
                    """);
            h.create(ResourceTypes.PODS, "default", """
                    metadata:
                      name: crashing
                      annotations: {sim.kuberay.io/run-seconds: "3", sim.kuberay.io/exit-code: "1"}
                    spec:
                      containers: [{name: main, image: busybox}]
                    """);
            h.create(ResourceTypes.PODS, "default", """
                    metadata:
                      name: finishing
                      annotations: {sim.kuberay.io/run-seconds: "3"}
                    spec:
                      restartPolicy: Never
                      containers: [{name: main, image: busybox}]
                    """);
            h.advance(Duration.ofSeconds(60));
            sub.close();

            assertThat(problems).isEmpty();
            assertThat(statuses).extracting(s -> s.path("state").propertyNames().iterator().next())
                    .contains("waiting", "running", "terminated");

            JsonNode pod = h.client().get(ResourceTypes.PODS, "default", "two-with-init").object().path("status");
            Set<String> ids = new HashSet<>();
            for (String list : List.of("initContainerStatuses", "containerStatuses")) {
                for (JsonNode s : pod.path(list)) {
                    assertThat(s.path("imageID").asString()).contains("@sha256:");
                    ids.add(s.path("containerID").asString());
                }
            }
            assertThat(ids).as("one containerID per container").hasSize(4).allMatch(id -> id.startsWith("containerd://"));
            assertThat(pod.at("/initContainerStatuses/0/state/terminated/containerID").asString())
                    .isEqualTo(pod.at("/initContainerStatuses/0/containerID").asString());

            List<JsonNode> restarted = statuses.stream().filter(st -> st.at("/state/running").isObject()
                    && st.path("restartCount").asInt() > 0).toList();
            assertThat(restarted).as("the crashing container ran again").isNotEmpty().allSatisfy(st ->
                    assertThat(st.at("/lastState/terminated/containerID").asString())
                            .as("lastState names the container that ended, not the one that runs now")
                            .startsWith("containerd://").isNotEqualTo(st.path("containerID").asString()));
        }
    }
}
