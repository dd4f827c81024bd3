package io.kuberaysim.controller.runtime.cache;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.apiserver.registry.PatchType;
import io.kuberaysim.apiserver.storage.InMemoryObjectStore;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.config.TestWiring;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import io.kuberaysim.testing.TestCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class SharedInformerTest {
    private VirtualClock clock;
    private KubeClient client;
    private GenericRegistry registry;

    private void setUp(int history) {
        clock = new VirtualClock();
        registry = TestWiring.registry(new InMemoryObjectStore(history), clock);
        client = new KubeClient(registry);
        // the account the ServiceAccount controller keeps (not running here), which Pods run as
        client.create(ResourceTypes.SERVICEACCOUNTS, "default", TestCluster.yaml("metadata: {name: default}"));
    }

    @AfterEach
    void tearDown() {
        clock.close();
    }

    private static ObjectNode pod(String name, String... labels) {
        ObjectNode p = TestCluster.yaml("""
                apiVersion: v1
                kind: Pod
                metadata: {name: x}
                spec:
                  containers:
                  - name: c
                    image: busybox:1
                """);
        ((ObjectNode) p.get("metadata")).put("name", name);
        ObjectNode l = ((ObjectNode) p.get("metadata")).putObject("labels");
        for (int i = 0; i < labels.length; i += 2) {
            l.put(labels[i], labels[i + 1]);
        }
        return p;
    }

    /** Records handler calls as "op name@rv". */
    private static final class Recorder implements InformerHandler {
        final List<String> calls = new ArrayList<>();

        @Override
        public void onAdd(StoredObject o) {
            calls.add("add " + o.name());
        }

        @Override
        public void onUpdate(StoredObject oldObj, StoredObject newObj) {
            calls.add("update " + newObj.name() + " " + oldObj.labels() + "->" + newObj.labels());
        }

        @Override
        public void onDelete(StoredObject o) {
            calls.add("delete " + o.name());
        }
    }

    private static ObjectNode labelPatch(String k, String v) {
        ObjectNode p = Json.object();
        p.putObject("metadata").putObject("labels").put(k, v);
        return p;
    }

    @Test
    void handlersSeeAddUpdateDeleteInWriteOrder() {
        setUp(10_000);
        client.create(ResourceTypes.PODS, "default", pod("existing"));
        SharedInformer informer = new SharedInformer(ResourceTypes.PODS, registry.reader(), clock);
        Recorder rec = new Recorder();
        informer.addHandler(rec);
        informer.start();
        clock.awaitIdle();
        assertThat(informer.hasSynced()).isTrue();

        client.create(ResourceTypes.PODS, "default", pod("a"));
        client.patch(ResourceTypes.PODS, "default", "a", PatchType.MERGE, labelPatch("k", "1"));
        client.delete(ResourceTypes.PODS, "default", "existing",
                io.kuberaysim.apiserver.registry.DeleteOptions.immediate());
        client.patch(ResourceTypes.PODS, "default", "a", PatchType.MERGE, labelPatch("k", "2"));
        clock.awaitIdle();

        assertThat(rec.calls).containsExactly("add existing", "add a", "update a {}->{k=1}", "delete existing",
                "update a {k=1}->{k=2}");
        assertThat(informer.get("default", "a").labels()).containsEntry("k", "2");
        assertThat(informer.get("default", "existing")).isNull();
    }

    @Test
    void lateHandlerIsToldAboutCachedObjectsFirst() {
        setUp(10_000);
        SharedInformer informer = new SharedInformer(ResourceTypes.PODS, registry.reader(), clock);
        informer.start();
        client.create(ResourceTypes.PODS, "default", pod("b"));
        client.create(ResourceTypes.PODS, "default", pod("a"));
        clock.awaitIdle();
        Recorder rec = new Recorder();
        informer.addHandler(rec);
        clock.awaitIdle();
        assertThat(rec.calls).containsExactly("add a", "add b");
    }

    @Test
    void cacheEqualsStoreAfterManyWritesAndIndexesFollowChanges() {
        setUp(100_000);
        SharedInformer informer = new SharedInformer(ResourceTypes.PODS, registry.reader(), clock);
        informer.start();
        for (int i = 0; i < 300; i++) {
            client.create(ResourceTypes.PODS, "default", pod("p" + i, "ray.io/cluster", "c" + (i % 10)));
        }
        for (int i = 0; i < 300; i += 3) {
            client.patch(ResourceTypes.PODS, "default", "p" + i, PatchType.MERGE, labelPatch("ray.io/cluster", "moved"));
        }
        for (int i = 1; i < 300; i += 7) {
            client.delete(ResourceTypes.PODS, "default", "p" + i,
                    io.kuberaysim.apiserver.registry.DeleteOptions.immediate());
        }
        for (int i = 0; i < 300; i += 5) { // same labels and owners: the indexes find the new version
            if (i % 7 != 1) {
                client.patchStatus(ResourceTypes.PODS, "default", "p" + i,
                        Json.MAPPER.readTree("{\"status\":{\"message\":\"m" + i + "\"}}"));
            }
        }
        clock.awaitIdle();

        List<StoredObject> store = client.list(ResourceTypes.PODS, null, null);
        assertThat(informer.list(null, null)).containsExactlyElementsOf(store);
        assertThat(informer.list("default", Map.of("ray.io/cluster", "c4")))
                .containsExactlyElementsOf(client.list(ResourceTypes.PODS, "default", "ray.io/cluster=c4"));
        assertThat(informer.list(null, Map.of("ray.io/cluster", "moved")))
                .hasSize(86) // 100 moved, 14 of them deleted
                .containsExactlyElementsOf(client.list(ResourceTypes.PODS, null, "ray.io/cluster=moved"));
        assertThat(informer.list("other", Map.of("ray.io/cluster", "moved"))).isEmpty();
        assertThat(informer.list(null, Map.of("ray.io/cluster", "nope"))).isEmpty();
    }

    @Test
    void byOwnerFindsDependents() {
        setUp(10_000);
        SharedInformer informer = new SharedInformer(ResourceTypes.PODS, registry.reader(), clock);
        informer.start();
        ObjectNode p = pod("child");
        ObjectNode ref = ((ObjectNode) p.get("metadata")).putArray("ownerReferences").addObject();
        ref.put("apiVersion", "v1").put("kind", "ConfigMap").put("name", "cm").put("uid", "owner-uid");
        client.create(ResourceTypes.PODS, "default", p);
        client.create(ResourceTypes.PODS, "default", pod("other"));
        clock.awaitIdle();
        assertThat(informer.byOwner("owner-uid")).extracting(StoredObject::name).containsExactly("child");
        assertThat(informer.byOwner("nobody")).isEmpty();
    }

    @Test
    void relistsAfterTheWatchExpiredAndReportsWhatChangedMeanwhile() {
        setUp(5);
        client.create(ResourceTypes.PODS, "default", pod("doomed"));
        SharedInformer informer = new SharedInformer(ResourceTypes.PODS, registry.reader(), clock);
        Recorder rec = new Recorder();
        informer.addHandler(rec);
        informer.start();
        clock.awaitIdle();

        // The watch drops and, before it resumes, more writes happen than the history keeps: resuming gets 410.
        clock.execute(() -> {
            informer.dropWatch();
            client.delete(ResourceTypes.PODS, "default", "doomed",
                    io.kuberaysim.apiserver.registry.DeleteOptions.immediate());
            for (int i = 0; i < 10; i++) {
                client.create(ResourceTypes.PODS, "default", pod("n" + i));
            }
        });
        clock.awaitIdle();

        assertThat(informer.list(null, null)).containsExactlyElementsOf(client.list(ResourceTypes.PODS, null, null));
        assertThat(rec.calls).contains("delete doomed", "add n0", "add n9");
        // and the new watch works
        client.create(ResourceTypes.PODS, "default", pod("after"));
        clock.awaitIdle();
        assertThat(informer.get("default", "after")).isNotNull();
    }
}
