package io.kuberaysim.controller.runtime;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.gc.RootCaCertPublisher;
import io.kuberaysim.apiserver.registry.PatchType;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.controller.runtime.reconcile.Request;
import io.kuberaysim.controller.runtime.reconcile.Result;
import io.kuberaysim.testing.SimulationHarness;
import io.kuberaysim.testing.TestCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

class ControllerManagerTest {
    private final SimulationHarness h = SimulationHarness.bare();
    private final List<String> reconciled = new CopyOnWriteArrayList<>();

    @AfterEach
    void tearDown() {
        h.close();
    }

    private Result record(Request r) {
        if (!r.name().equals(RootCaCertPublisher.CONFIG_MAP)) { // every namespace has one; not these tests' objects
            reconciled.add(r.toString());
        }
        return Result.done();
    }

    private StoredObject configMap(String name) {
        return h.create(ResourceTypes.CONFIGMAPS, "default", "{metadata: {name: " + name + "}, data: {k: v}}");
    }

    private ObjectNode ownedPod(String name, StoredObject owner, boolean controller) {
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
        ObjectNode ref = ((ObjectNode) p.get("metadata")).putArray("ownerReferences").addObject();
        ref.put("apiVersion", "v1").put("kind", owner.type().kind()).put("name", owner.name())
                .put("uid", owner.uid()).put("controller", controller);
        return p;
    }

    @Test
    void anOwnedPodEventEnqueuesItsControllerOwner() {
        StoredObject cm = configMap("owner");
        h.manager().controller("cm").forType(ResourceTypes.CONFIGMAPS).owns(ResourceTypes.PODS)
                .complete(this::record);
        h.settle();
        assertThat(reconciled).containsExactly("default/owner"); // the existing object, replayed
        reconciled.clear();

        h.client().create(ResourceTypes.PODS, "default", ownedPod("p", cm, true));
        h.settle();
        assertThat(reconciled).containsExactly("default/owner");

        reconciled.clear();
        h.client().create(ResourceTypes.PODS, "default", ownedPod("q", cm, false)); // not the controller ref
        h.settle();
        assertThat(reconciled).isEmpty();
    }

    @Test
    void predicateSuppressesStatusOnlyUpdates() {
        h.manager().controller("pods").forType(ResourceTypes.PODS,
                UpdatePredicate.GENERATION_LABELS_OR_ANNOTATIONS_CHANGED).complete(this::record);
        h.create(ResourceTypes.PODS, "default", "{metadata: {name: p}, spec: {containers: [{name: c, image: i}]}}");
        assertThat(reconciled).containsExactly("default/p");

        reconciled.clear();
        h.client().patchStatus(ResourceTypes.PODS, "default", "p", Json.MAPPER.readTree("{\"status\":{\"phase\":\"Running\"}}"));
        h.settle();
        assertThat(reconciled).isEmpty();

        h.client().patch(ResourceTypes.PODS, "default", "p", PatchType.MERGE,
                Json.MAPPER.readTree("{\"metadata\":{\"labels\":{\"a\":\"b\"}}}"));
        h.settle();
        assertThat(reconciled).containsExactly("default/p");
    }

    @Test
    void watchesMapsOtherTypesAndRequeueAfterWaitsForTheClock() {
        h.manager().controller("mapped").watches(ResourceTypes.CONFIGMAPS,
                o -> o.name().equals(RootCaCertPublisher.CONFIG_MAP) ? List.of()
                        : List.of(new Request("default", "target-of-" + o.name()))).complete(r -> {
                    reconciled.add(r.toString());
                    return reconciled.size() < 3 ? Result.requeueAfter(Duration.ofSeconds(10)) : Result.done();
                });
        configMap("x");
        assertThat(reconciled).containsExactly("default/target-of-x");
        h.advance(Duration.ofSeconds(9));
        assertThat(reconciled).hasSize(1);
        h.advance(Duration.ofSeconds(1));
        assertThat(reconciled).hasSize(2);
        h.advance(Duration.ofSeconds(30));
        assertThat(reconciled).hasSize(3);
    }

    @Test
    void legacyEventRecorderWritesAndAggregatesEvents() {
        StoredObject cm = configMap("subject");
        EventRecorder rec = h.manager().legacyEventRecorder("test-controller");
        rec.event(cm, EventRecorder.WARNING, "Broken", "Validate", "it is broken");
        h.advance(Duration.ofSeconds(30));
        rec.event(cm, EventRecorder.WARNING, "Broken", "Validate", "it is broken");
        rec.event(cm, EventRecorder.NORMAL, "Fine", "Create", "all good");

        List<StoredObject> events = h.client().list(ResourceTypes.EVENTS, "default", null);
        assertThat(events).hasSize(2);
        StoredObject broken = events.stream().filter(e -> "Broken".equals(Json.text(e.object(), "reason")))
                .findFirst().orElseThrow();
        assertThat(broken.name()).matches("subject\\.[0-9a-f]{16}");
        assertThat(broken.object().get("count").asInt()).isEqualTo(2);
        assertThat(Json.text(broken.object(), "firstTimestamp")).isEqualTo("2025-01-01T00:00:00Z");
        assertThat(Json.text(broken.object(), "lastTimestamp")).isEqualTo("2025-01-01T00:00:30Z");
        assertThat(Json.text(broken.object(), "involvedObject", "kind")).isEqualTo("ConfigMap");
        assertThat(Json.text(broken.object(), "involvedObject", "uid")).isEqualTo(cm.uid());
        assertThat(Json.text(broken.object(), "source", "component")).isEqualTo("test-controller");
        assertThat(Json.text(broken.object(), "reportingComponent")).isEqualTo("test-controller");
        assertThat(Json.text(broken.object(), "action")).isEqualTo("Validate");
        assertThat(Json.text(broken.object(), "type")).isEqualTo("Warning");

        h.advance(Duration.ofMinutes(11)); // outside the aggregation window: a new Event
        rec.event(cm, EventRecorder.WARNING, "Broken", "Validate", "it is broken");
        assertThat(h.client().list(ResourceTypes.EVENTS, "default", null)).hasSize(3);
    }

    // client-go tools/events/event_broadcaster.go recordToSink and finishSeries; event_recorder.go makeEvent
    @Test
    void eventsV1RecorderWritesEventTimeAndSeries() {
        StoredObject cm = configMap("subject");
        EventRecorder rec = h.manager().eventRecorder("test-controller");
        rec.event(cm, EventRecorder.WARNING, "Broken", "Validate", "it is broken");
        StoredObject first = h.client().list(ResourceTypes.EVENTS, "default", null).get(0);
        assertThat(first.name()).matches("subject\\.[0-9a-f]{16}");
        assertThat(Json.text(first.object(), "eventTime")).isEqualTo("2025-01-01T00:00:00.000000Z");
        assertThat(Json.text(first.object(), "reportingComponent")).isEqualTo("test-controller");
        assertThat(Json.text(first.object(), "reportingInstance")).isEqualTo("test-controller-kuberay-sim");
        assertThat(first.object().get("firstTimestamp").isNull()).isTrue();
        assertThat(first.object().get("source").isEmpty()).isTrue();
        assertThat(first.object().has("count")).isFalse();
        assertThat(first.object().has("series")).isFalse();

        h.advance(Duration.ofSeconds(30)); // the same event again (the note does not count): a series of 2
        rec.event(cm, EventRecorder.WARNING, "Broken", "Validate", "still broken");
        h.advance(Duration.ofSeconds(30)); // counted, not written until the series ends
        rec.event(cm, EventRecorder.WARNING, "Broken", "Validate", "still broken");
        StoredObject series = h.client().get(ResourceTypes.EVENTS, "default", first.name());
        assertThat(series.object().at("/series/count").asInt()).isEqualTo(2);
        assertThat(Json.text(series.object(), "series", "lastObservedTime")).isEqualTo("2025-01-01T00:00:30.000000Z");
        assertThat(Json.text(series.object(), "message")).isEqualTo("it is broken");

        h.advance(Duration.ofMinutes(7)); // the series ended: its final count is written with the next event
        rec.event(cm, EventRecorder.NORMAL, "Fine", "Create", "all good");
        series = h.client().get(ResourceTypes.EVENTS, "default", first.name());
        assertThat(series.object().at("/series/count").asInt()).isEqualTo(3);
        assertThat(Json.text(series.object(), "series", "lastObservedTime")).isEqualTo("2025-01-01T00:01:00.000000Z");
        assertThat(h.client().list(ResourceTypes.EVENTS, "default", null)).hasSize(2);
    }

    @Test
    void eventRecorderNeverThrows() {
        h.create(ResourceTypes.NAMESPACES, null, "{metadata: {name: doomed}}");
        StoredObject cm = h.create(ResourceTypes.CONFIGMAPS, "doomed", "{metadata: {name: subject}, data: {k: v}}");
        h.client().delete(ResourceTypes.NAMESPACES, null, "doomed");
        h.settle();
        // the Event's namespace is gone: the write fails inside the recorder, and the reconcile that records
        // the Event must go on as KubeRay's recorder lets it
        assertThatCode(() -> h.manager().eventRecorder("x").event(cm, EventRecorder.NORMAL, "R", "A", "m"))
                .doesNotThrowAnyException();
        h.settle();
        assertThat(h.client().list(ResourceTypes.EVENTS, "doomed", null)).isEmpty();
    }
}
