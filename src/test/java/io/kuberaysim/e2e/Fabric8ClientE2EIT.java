package io.kuberaysim.e2e;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.http.WatchStreams;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.WriteOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/** The fabric8 Kubernetes client 8.0.0, unchanged, against the server on a random port. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"kuberay-sim.controllers=false", "kuberay-sim.watch-history=100"})
class Fabric8ClientE2EIT {
    static final String RC_YAML = KubectlE2EIT.DEMO;

    @LocalServerPort
    int port;
    @Autowired
    GenericRegistry registry;
    @Autowired
    WatchStreams watchStreams;

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

    NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList,
            Resource<GenericKubernetesResource>> rayClusters() {
        return client.genericKubernetesResources("ray.io/v1", "RayCluster").inNamespace("default");
    }

    GenericKubernetesResource rayCluster(String name) {
        return client.getKubernetesSerialization().unmarshal(RC_YAML.formatted(name), GenericKubernetesResource.class);
    }

    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            // polling a client-side cache filled by another thread: there is no event to wait on
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }

    @Test
    void rayClusterCrudAsGenericResource() {
        GenericKubernetesResource created = rayClusters().resource(rayCluster("f8")).create();
        assertThat(created.getMetadata().getUid()).isNotEmpty();
        assertThat(rayClusters().withName("f8").get().getMetadata().getResourceVersion())
                .isEqualTo(created.getMetadata().getResourceVersion());
        assertThat(rayClusters().list().getItems()).extracting(r -> r.getMetadata().getName()).contains("f8");

        GenericKubernetesResource current = rayClusters().withName("f8").get();
        current.getMetadata().setLabels(Map.of("team", "ml"));
        GenericKubernetesResource updated = rayClusters().resource(current).update();
        assertThat(updated.getMetadata().getLabels()).containsEntry("team", "ml");

        rayClusters().withName("f8").patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"suspend\":true}}");
        rayClusters().withName("f8").patch(PatchContext.of(PatchType.JSON),
                "[{\"op\":\"replace\",\"path\":\"/spec/workerGroupSpecs/0/replicas\",\"value\":3}]");
        GenericKubernetesResource patched = rayClusters().withName("f8").get();
        assertThat(patched.<Boolean>get("spec", "suspend")).isTrue();
        assertThat(patched.<Integer>get("spec", "workerGroupSpecs", 0, "replicas")).isEqualTo(3);

        patched.setAdditionalProperty("status", Map.of("state", "ready"));
        rayClusters().resource(patched).updateStatus();
        assertThat(rayClusters().withName("f8").get().<String>get("status", "state")).isEqualTo("ready");

        assertThat(rayClusters().withName("f8").delete()).hasSize(1);
        assertThat(rayClusters().withName("f8").get()).isNull();
    }

    @Test
    void podCrud() {
        Pod pod = new PodBuilder().withNewMetadata().withName("f8-pod").addToLabels("app", "x").endMetadata()
                .withNewSpec().addNewContainer().withName("c").withImage("busybox").endContainer().endSpec().build();
        Pod created = client.pods().inNamespace("default").resource(pod).create();
        assertThat(created.getMetadata().getUid()).isNotEmpty();
        assertThat(client.pods().inNamespace("default").withLabel("app", "x").list().getItems())
                .extracting(p -> p.getMetadata().getName()).containsExactly("f8-pod");
        client.pods().inNamespace("default").withName("f8-pod")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"b\":\"c\"}}}");
        assertThat(client.pods().inNamespace("default").withName("f8-pod").get().getMetadata().getLabels())
                .containsEntry("b", "c");
        client.pods().inNamespace("default").withName("f8-pod").withGracePeriod(0).delete();
        assertThat(client.pods().inNamespace("default").withName("f8-pod").get()).isNull();
    }

    /** Records handler calls as "ADD name", "UPDATE name", "DELETE name". */
    static final class Recorder<T extends HasMetadata> implements ResourceEventHandler<T> {
        final List<String> events = new CopyOnWriteArrayList<>();

        @Override
        public void onAdd(T obj) {
            events.add("ADD " + obj.getMetadata().getName());
        }

        @Override
        public void onUpdate(T oldObj, T newObj) {
            if (!oldObj.getMetadata().getResourceVersion().equals(newObj.getMetadata().getResourceVersion())) {
                events.add("UPDATE " + newObj.getMetadata().getName());
            }
        }

        @Override
        public void onDelete(T obj, boolean deletedFinalStateUnknown) {
            events.add("DELETE " + obj.getMetadata().getName());
        }
    }

    @Test
    void informersSeeAddUpdateDeleteInOrderAndRecoverFromA410() throws Exception {
        rayClusters().resource(rayCluster("inf-before")).create();
        Recorder<GenericKubernetesResource> rcEvents = new Recorder<>();
        Recorder<Pod> podEvents = new Recorder<>();
        SharedIndexInformer<GenericKubernetesResource> rcInformer = rayClusters().inform(rcEvents, 0);
        SharedIndexInformer<Pod> podInformer = client.pods().inNamespace("default").inform(podEvents, 0);
        try {
            await("initial sync", () -> rcInformer.hasSynced() && podInformer.hasSynced()
                    && rcEvents.events.contains("ADD inf-before"));
            await("watches open", () -> watchStreams.activeCount() >= 2);

            rayClusters().resource(rayCluster("inf-a")).create();
            rayClusters().withName("inf-a").patch(PatchContext.of(PatchType.JSON_MERGE),
                    "{\"metadata\":{\"labels\":{\"x\":\"1\"}}}");
            rayClusters().withName("inf-a").delete();
            client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName("inf-pod")
                    .endMetadata().withNewSpec().addNewContainer().withName("c").withImage("busybox").endContainer()
                    .endSpec().build()).create();
            client.pods().inNamespace("default").withName("inf-pod")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"y\":\"2\"}}}");
            client.pods().inNamespace("default").withName("inf-pod").withGracePeriod(0).delete();

            await("RayCluster events", () -> rcEvents.events.contains("DELETE inf-a"));
            assertThat(rcEvents.events).containsSubsequence("ADD inf-a", "UPDATE inf-a", "DELETE inf-a");
            await("Pod events", () -> podEvents.events.contains("DELETE inf-pod"));
            assertThat(podEvents.events).containsSubsequence("ADD inf-pod", "UPDATE inf-pod", "DELETE inf-pod");

            // the server drops every watch with 410 Expired; the informers must relist and keep working
            int before = rcEvents.events.size();
            watchStreams.expireAll("forced by test");
            rayClusters().resource(rayCluster("inf-after")).create();
            await("RayCluster added after the 410", () -> rcEvents.events.contains("ADD inf-after"));
            await("informer cache converged", () -> rcInformer.getStore().listKeys()
                    .containsAll(List.of("default/inf-before", "default/inf-after"))
                    && !rcInformer.getStore().listKeys().contains("default/inf-a"));
            assertThat(rcEvents.events.subList(before, rcEvents.events.size())).doesNotContain("DELETE inf-before");
        } finally {
            rcInformer.close();
            podInformer.close();
        }
    }

    @Test
    void watchReceivesEventsAndAnExpiredResourceVersionIsGone() throws Exception {
        BlockingQueue<String> events = new LinkedBlockingQueue<>();
        CompletableFuture<WatcherException> closed = new CompletableFuture<>();
        Watcher<GenericKubernetesResource> watcher = new Watcher<>() {
            @Override
            public void eventReceived(Action action, GenericKubernetesResource resource) {
                events.add(action + " " + resource.getMetadata().getName());
            }

            @Override
            public void onClose(WatcherException cause) {
                closed.complete(cause);
            }
        };
        try (Watch ignored = rayClusters().watch(watcher)) {
            rayClusters().resource(rayCluster("watched")).create();
            rayClusters().withName("watched").patch(PatchContext.of(PatchType.JSON_MERGE),
                    "{\"spec\":{\"suspend\":true}}");
            rayClusters().withName("watched").delete();
            List<String> seen = new java.util.ArrayList<>();
            while (!seen.contains("DELETED watched")) {
                String e = events.poll(30, TimeUnit.SECONDS);
                assertThat(e).as("events so far: %s", seen).isNotNull();
                seen.add(e);
            }
            assertThat(seen).containsSubsequence("ADDED watched", "MODIFIED watched", "DELETED watched");
        }

        for (int i = 0; i < 150; i++) {
            ObjectNode cm = Json.object();
            cm.putObject("metadata").put("name", "churn-" + i);
            registry.create(ResourceTypes.CONFIGMAPS, "default", cm, WriteOptions.DEFAULT);
        }
        CompletableFuture<WatcherException> gone = new CompletableFuture<>();
        try (Watch ignored = rayClusters().withResourceVersion("1").watch(new Watcher<GenericKubernetesResource>() {
            @Override
            public void eventReceived(Action action, GenericKubernetesResource resource) {
            }

            @Override
            public void onClose(WatcherException cause) {
                gone.complete(cause);
            }
        })) {
            WatcherException e = gone.get(30, TimeUnit.SECONDS);
            assertThat(e.isHttpGone()).isTrue();
        }
    }
}
