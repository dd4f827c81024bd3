package io.kuberaysim.apiserver.registry;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.apiserver.validation.QuantityFormat;
import io.kuberaysim.testing.TestCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.util.List;

import static io.kuberaysim.api.ResourceTypes.JOBS;
import static io.kuberaysim.api.ResourceTypes.PODS;
import static io.kuberaysim.api.ResourceTypes.RAYCLUSTERS;
import static io.kuberaysim.api.ResourceTypes.SERVICES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The generic registry's kube-apiserver rules, resource by resource. */
class GenericRegistryTest {
    private final TestCluster cluster = new TestCluster();
    private final GenericRegistry registry = cluster.registry;

    static final String RAYCLUSTER = """
            apiVersion: ray.io/v1
            kind: RayCluster
            metadata:
              name: demo
              labels: {app: demo}
            spec:
              rayVersion: "2.9.0"
              headGroupSpec:
                rayStartParams: {}
                template:
                  spec:
                    containers:
                    - name: ray-head
                      image: rayproject/ray:2.9.0
              workerGroupSpecs:
              - groupName: small
                replicas: 2
                rayStartParams: {}
                template:
                  spec:
                    containers:
                    - name: ray-worker
                      image: rayproject/ray:2.9.0
            status:
              state: ready
            """;

    @AfterEach
    void close() {
        cluster.close();
    }

    private StoredObject createCluster() {
        return registry.create(RAYCLUSTERS, "default", TestCluster.yaml(RAYCLUSTER), WriteOptions.DEFAULT).object();
    }

    private static ApiException api(Runnable r) {
        try {
            r.run();
        } catch (ApiException e) {
            return e;
        }
        throw new AssertionError("expected an ApiException");
    }

    @Test
    @DisplayName("create sets uid, creationTimestamp, generation 1, a resourceVersion, drops status and applies CRD defaults")
    void createSetsServerFields() {
        StoredObject o = createCluster();
        JsonNode meta = o.metadata();
        assertThat(meta.get("uid").asString()).matches("[0-9a-f-]{36}");
        assertThat(meta.get("creationTimestamp").asString()).isEqualTo("2025-01-01T00:00:00Z");
        assertThat(meta.get("generation").asInt()).isEqualTo(1);
        assertThat(meta.get("resourceVersion").asString()).isEqualTo(Long.toString(o.resourceVersion()));
        assertThat(meta.get("namespace").asString()).isEqualTo("default");
        assertThat(o.object().has("status")).isFalse();
        JsonNode wg = o.object().at("/spec/workerGroupSpecs/0");
        assertThat(wg.get("minReplicas").asInt()).isZero();
        assertThat(wg.get("maxReplicas").asInt()).isEqualTo(2147483647);
        assertThat(wg.get("numOfHosts").asInt()).isEqualTo(1);
    }

    @Test
    void generationMovesOnlyWhenTheSpecChanges() {
        StoredObject o = createCluster();
        ObjectNode labelsOnly = o.copy();
        ((ObjectNode) labelsOnly.at("/metadata/labels")).put("extra", "x");
        StoredObject afterLabels = registry.update(RAYCLUSTERS, "default", "demo", labelsOnly, false,
                WriteOptions.DEFAULT).object();
        assertThat(afterLabels.metadata().get("generation").asInt()).isEqualTo(1);
        assertThat(afterLabels.resourceVersion()).isGreaterThan(o.resourceVersion());

        ObjectNode spec = afterLabels.copy();
        ((ObjectNode) spec.get("spec")).put("rayVersion", "2.10.0");
        StoredObject afterSpec = registry.update(RAYCLUSTERS, "default", "demo", spec, false, WriteOptions.DEFAULT)
                .object();
        assertThat(afterSpec.metadata().get("generation").asInt()).isEqualTo(2);

        ObjectNode status = afterSpec.copy();
        status.putObject("status").put("state", "ready");
        StoredObject afterStatus = registry.update(RAYCLUSTERS, "default", "demo", status, true,
                WriteOptions.DEFAULT).object();
        assertThat(afterStatus.metadata().get("generation").asInt()).isEqualTo(2);
        assertThat(afterStatus.object().at("/status/state").asString()).isEqualTo("ready");
    }

    @Test
    @DisplayName("the main endpoint ignores status; /status ignores everything but status")
    void statusSubresourceSplit() {
        StoredObject o = createCluster();
        ObjectNode viaMain = o.copy();
        viaMain.putObject("status").put("state", "ready");
        StoredObject unchanged = registry.update(RAYCLUSTERS, "default", "demo", viaMain, false,
                WriteOptions.DEFAULT).object();
        assertThat(unchanged.object().has("status")).isFalse();
        assertThat(unchanged.resourceVersion()).isEqualTo(o.resourceVersion());

        ObjectNode viaStatus = o.copy();
        viaStatus.putObject("status").put("state", "ready");
        ((ObjectNode) viaStatus.get("spec")).put("rayVersion", "9.9.9");
        ((ObjectNode) viaStatus.at("/metadata/labels")).put("sneaky", "yes");
        StoredObject s = registry.update(RAYCLUSTERS, "default", "demo", viaStatus, true, WriteOptions.DEFAULT)
                .object();
        assertThat(s.object().at("/status/state").asString()).isEqualTo("ready");
        assertThat(s.object().at("/spec/rayVersion").asString()).isEqualTo("2.9.0");
        assertThat(s.labels()).doesNotContainKey("sneaky");
    }

    @Test
    @DisplayName("a /status write from a body handed over stores what a copied body stores; only the copy spares the body")
    void statusWriteFromABodyHandedOver() {
        StoredObject o = createCluster();
        ObjectNode copied = (ObjectNode) Json.MAPPER.readTree("""
                {"metadata": {"name": "demo", "resourceVersion": "%d"},
                 "status": {"state": "ready", "unknownField": 1}}""".formatted(o.resourceVersion()));
        ObjectNode handedOver = copied.deepCopy();
        StoredObject viaCopy = registry.update(RAYCLUSTERS, "default", "demo", copied, true, WriteOptions.DEFAULT)
                .object();
        assertThat(copied.at("/status/unknownField").isMissingNode()).isFalse(); // the caller's body as it was
        ((ObjectNode) handedOver.get("metadata")).put("resourceVersion", Long.toString(viaCopy.resourceVersion()));
        ((ObjectNode) handedOver.get("status")).put("state", "suspended");
        StoredObject viaHandOver = registry.updateDecoded(RAYCLUSTERS, "default", "demo", handedOver, true,
                WriteOptions.DEFAULT).object();
        assertThat(viaHandOver.object().get("status").toString()).isEqualTo("{\"state\":\"suspended\"}");
        assertThat(viaHandOver.object().get("spec")).isSameAs(o.object().get("spec"));
        assertThat(viaHandOver.metadata().get("labels")).isSameAs(o.metadata().get("labels"));
        assertThat(handedOver.at("/status/unknownField").isMissingNode()).isTrue(); // pruned in the body itself
    }

    @Test
    void staleOrMissingResourceVersionOnAnUpdate() {
        StoredObject o = createCluster();
        ObjectNode noRv = o.copy();
        ((ObjectNode) noRv.get("metadata")).remove("resourceVersion");
        ApiException e = api(() -> registry.update(RAYCLUSTERS, "default", "demo", noRv, false, WriteOptions.DEFAULT));
        assertThat(e.code()).isEqualTo(422);
        assertThat(e.getMessage()).isEqualTo("rayclusters.ray.io \"demo\" is invalid: metadata.resourceVersion: "
                + "Invalid value: 0x0: must be specified for an update");

        ObjectNode stale = o.copy();
        ((ObjectNode) stale.get("spec")).put("rayVersion", "2.10.0");
        registry.update(RAYCLUSTERS, "default", "demo", stale, false, WriteOptions.DEFAULT);
        ApiException c = api(() -> registry.update(RAYCLUSTERS, "default", "demo", stale, false,
                WriteOptions.DEFAULT));
        assertThat(c.code()).isEqualTo(409);
        assertThat(c.getMessage()).isEqualTo("Operation cannot be fulfilled on rayclusters.ray.io \"demo\": the object "
                + "has been modified; please apply your changes to the latest version and try again");
    }

    @Test
    void errorsForNamesNamespacesAndDuplicates() {
        createCluster();
        ApiException dup = api(this::createCluster);
        assertThat(dup.code()).isEqualTo(409);
        assertThat(dup.getMessage()).isEqualTo("rayclusters.ray.io \"demo\" already exists");

        ApiException ns = api(() -> registry.create(RAYCLUSTERS, "nope", TestCluster.yaml(RAYCLUSTER),
                WriteOptions.DEFAULT));
        assertThat(ns.code()).isEqualTo(404);
        assertThat(ns.getMessage()).isEqualTo("namespaces \"nope\" not found");

        ObjectNode longName = TestCluster.yaml(RAYCLUSTER);
        ((ObjectNode) longName.get("metadata")).put("name", "a".repeat(254));
        ApiException tooLong = api(() -> registry.create(RAYCLUSTERS, "default", longName, WriteOptions.DEFAULT));
        assertThat(tooLong.code()).isEqualTo(422);
        assertThat(tooLong.getMessage()).contains("metadata.name: Invalid value: \"" + "a".repeat(254)
                + "\": must be no more than 253 characters");
        // a custom resource's name is a DNS-1123 subdomain: KubeRay's own limits are its controllers' to report
        ObjectNode kubeRayRefuses = TestCluster.yaml(RAYCLUSTER);
        ((ObjectNode) kubeRayRefuses.get("metadata")).put("name", "1.example-" + "a".repeat(50));
        assertThat(registry.create(RAYCLUSTERS, "default", kubeRayRefuses, WriteOptions.DEFAULT).object().name())
                .startsWith("1.example-");

        ObjectNode badNs = TestCluster.yaml(RAYCLUSTER);
        ((ObjectNode) badNs.get("metadata")).put("namespace", "other");
        assertThat(api(() -> registry.create(RAYCLUSTERS, "default", badNs, WriteOptions.DEFAULT)).getMessage())
                .isEqualTo("the namespace of the provided object does not match the namespace sent on the request");
    }

    @Test
    void generateNameAddsFiveCharacters() {
        ObjectNode pod = pod(null);
        ((ObjectNode) pod.get("metadata")).put("generateName", "web-");
        StoredObject o = registry.create(PODS, "default", pod, WriteOptions.DEFAULT).object();
        assertThat(o.name()).matches("web-[bcdfghjklmnpqrstvwxz2456789]{5}");
    }

    @Test
    @DisplayName("fieldValidation: Strict rejects unknown fields, Warn reports and drops them, Ignore drops them")
    void fieldValidationModes() {
        ObjectNode body = TestCluster.yaml(RAYCLUSTER);
        ((ObjectNode) body.get("spec")).put("foo", 1);
        ApiException strict = api(() -> registry.create(RAYCLUSTERS, "default", body,
                new WriteOptions(false, WriteOptions.FieldValidation.STRICT, null, null)));
        assertThat(strict.code()).isEqualTo(400);
        assertThat(strict.getMessage()).isEqualTo("RayCluster in version \"v1\" cannot be handled as a RayCluster: "
                + "strict decoding error: unknown field \"spec.foo\"");
        WriteResult warn = registry.create(RAYCLUSTERS, "default", body, WriteOptions.DEFAULT);
        assertThat(warn.warnings()).containsExactly("unknown field \"spec.foo\"");
        assertThat(warn.object().object().at("/spec").has("foo")).isFalse();
    }

    @Test
    void dryRunStoresNothing() {
        WriteResult r = registry.create(RAYCLUSTERS, "default", TestCluster.yaml(RAYCLUSTER),
                new WriteOptions(true, WriteOptions.FieldValidation.WARN, null, null));
        assertThat(r.object().name()).isEqualTo("demo");
        assertThat(registry.store().get(RAYCLUSTERS, "default", "demo")).isNull();
        long rv = registry.store().revision();
        createCluster();
        registry.delete(RAYCLUSTERS, "default", "demo", new DeleteOptions(null, null, null, null, true, null));
        assertThat(registry.store().get(RAYCLUSTERS, "default", "demo")).isNotNull();
        assertThat(registry.store().revision()).isEqualTo(rv + 1);
    }

    @Test
    @DisplayName("finalizers keep a deleted object with deletionTimestamp until the last one is removed")
    void finalizersHoldDeletion() {
        ObjectNode body = TestCluster.yaml(RAYCLUSTER);
        ((ObjectNode) body.get("metadata")).putArray("finalizers").add("example.com/hold");
        registry.create(RAYCLUSTERS, "default", body, WriteOptions.DEFAULT);
        DeleteResult r = registry.delete(RAYCLUSTERS, "default", "demo", DeleteOptions.DEFAULT);
        assertThat(r.gone()).isFalse();
        assertThat(r.object().metadata().get("deletionTimestamp")).isNotNull();
        assertThat(r.object().metadata().get("generation").asInt()).isEqualTo(2);

        ObjectNode addFinalizer = r.object().copy();
        ((tools.jackson.databind.node.ArrayNode) addFinalizer.at("/metadata/finalizers")).add("another");
        ApiException e = api(() -> registry.update(RAYCLUSTERS, "default", "demo", addFinalizer, false,
                WriteOptions.DEFAULT));
        assertThat(e.code()).isEqualTo(422);

        registry.patch(RAYCLUSTERS, "default", "demo", PatchType.MERGE,
                Json.MAPPER.readTree("{\"metadata\":{\"finalizers\":null}}"), false, WriteOptions.DEFAULT);
        assertThat(registry.store().get(RAYCLUSTERS, "default", "demo")).isNull();
    }

    @Test
    void patchTypes() {
        createCluster();
        StoredObject merged = registry.patch(RAYCLUSTERS, "default", "demo", PatchType.MERGE,
                Json.MAPPER.readTree("{\"spec\":{\"suspend\":true}}"), false, WriteOptions.DEFAULT).object();
        assertThat(merged.object().at("/spec/suspend").asBoolean()).isTrue();
        StoredObject json = registry.patch(RAYCLUSTERS, "default", "demo", PatchType.JSON,
                Json.MAPPER.readTree("[{\"op\":\"replace\",\"path\":\"/spec/workerGroupSpecs/0/replicas\",\"value\":4}]"),
                false, WriteOptions.DEFAULT).object();
        assertThat(json.object().at("/spec/workerGroupSpecs/0/replicas").asInt()).isEqualTo(4);
        assertThat(json.metadata().get("generation").asInt()).isEqualTo(3);

        ApiException smp = api(() -> registry.patch(RAYCLUSTERS, "default", "demo", PatchType.STRATEGIC,
                Json.MAPPER.readTree("{}"), false, WriteOptions.DEFAULT));
        assertThat(smp.code()).isEqualTo(415);
        assertThat(smp.getMessage()).isEqualTo("the body of the request was in an unknown format - accepted media "
                + "types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml");

        ApiException badOp = api(() -> registry.patch(RAYCLUSTERS, "default", "demo", PatchType.JSON,
                Json.MAPPER.readTree("[{\"op\":\"remove\",\"path\":\"/spec/nothing\"}]"), false, WriteOptions.DEFAULT));
        assertThat(badOp.code()).isEqualTo(422);

        ApiException typeErr = api(() -> registry.patch(RAYCLUSTERS, "default", "demo", PatchType.MERGE,
                Json.MAPPER.readTree("{\"spec\":{\"workerGroupSpecs\":[{\"groupName\":\"g\",\"replicas\":\"two\","
                        + "\"template\":{}}]}}"), false, WriteOptions.DEFAULT));
        assertThat(typeErr.code()).isEqualTo(422);
        assertThat(registry.store().get(RAYCLUSTERS, "default", "demo").object()
                .at("/spec/workerGroupSpecs/0/replicas").asInt()).isEqualTo(4);
    }

    @Test
    void mergePatchOfACustomResourceChangesWhatItReachesAndChecksIt() {
        createCluster();
        StoredObject before = registry.store().get(RAYCLUSTERS, "default", "demo");

        // metadata only: spec and status as stored, generation unchanged
        StoredObject annotated = registry.patch(RAYCLUSTERS, "default", "demo", PatchType.MERGE,
                Json.MAPPER.readTree("{\"metadata\":{\"annotations\":{\"a\":\"b\"}}}"), false,
                WriteOptions.DEFAULT).object();
        assertThat(annotated.object().at("/metadata/annotations/a").asString()).isEqualTo("b");
        assertThat(annotated.object().get("spec")).isEqualTo(before.object().get("spec"));
        assertThat(annotated.metadata().get("generation").asInt()).isEqualTo(1);
        assertThat(annotated.resourceVersion()).isGreaterThan(before.resourceVersion());

        // a spec change without metadata in the patch: pruned, defaulted and checked where the patch reaches
        WriteResult grown = registry.patch(RAYCLUSTERS, "default", "demo", PatchType.MERGE, Json.MAPPER.readTree(
                "{\"spec\":{\"workerGroupSpecs\":[{\"groupName\":\"big\",\"replicas\":3,\"bogus\":1,"
                        + "\"rayStartParams\":{},\"template\":{\"spec\":{\"containers\":[{\"name\":\"w\","
                        + "\"image\":\"rayproject/ray:2.9.0\"}]}}}]}}"), false, WriteOptions.DEFAULT);
        JsonNode group = grown.object().object().at("/spec/workerGroupSpecs/0");
        assertThat(grown.warnings()).containsExactly("unknown field \"spec.workerGroupSpecs[0].bogus\"");
        assertThat(group.has("bogus")).isFalse();
        assertThat(group.get("maxReplicas").asInt()).isEqualTo(Integer.MAX_VALUE);
        assertThat(grown.object().metadata().get("generation").asInt()).isEqualTo(2);
        assertThat(grown.object().object().at("/metadata/annotations/a").asString()).isEqualTo("b");
        assertThat(grown.object().object().get("status")).isEqualTo(before.object().get("status"));

        ApiException invalid = api(() -> registry.patch(RAYCLUSTERS, "default", "demo", PatchType.MERGE,
                Json.MAPPER.readTree("{\"spec\":{\"rayVersion\":3}}"), false, WriteOptions.DEFAULT));
        assertThat(invalid.code()).isEqualTo(422);
        assertThat(registry.store().get(RAYCLUSTERS, "default", "demo").resourceVersion())
                .isEqualTo(grown.object().resourceVersion());
    }

    @Test
    void serverSideApplyCreatesThenMerges() {
        ObjectNode body = TestCluster.yaml(RAYCLUSTER);
        WriteOptions apply = new WriteOptions(false, WriteOptions.FieldValidation.STRICT, "kubectl", false);
        WriteResult created = registry.patch(RAYCLUSTERS, "default", "demo", PatchType.APPLY, body, false, apply);
        assertThat(created.created()).isTrue();
        ((ObjectNode) body.get("spec")).put("rayVersion", "2.10.0");
        WriteResult updated = registry.patch(RAYCLUSTERS, "default", "demo", PatchType.APPLY, body, false, apply);
        assertThat(updated.created()).isFalse();
        assertThat(updated.object().object().at("/spec/rayVersion").asString()).isEqualTo("2.10.0");
        ApiException noManager = api(() -> registry.patch(RAYCLUSTERS, "default", "demo", PatchType.APPLY, body,
                false, WriteOptions.DEFAULT));
        assertThat(noManager.getMessage()).isEqualTo("PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: "
                + "Required value: is required for apply patch");
    }

    static ObjectNode pod(String name) {
        ObjectNode p = TestCluster.yaml("""
                apiVersion: v1
                kind: Pod
                metadata: {labels: {app: web}}
                spec:
                  containers:
                  - name: c
                    image: busybox:1
                """);
        if (name != null) {
            ((ObjectNode) p.get("metadata")).put("name", name);
        }
        return p;
    }

    @Test
    @DisplayName("default, kube-system and kube-public may not be deleted (403, NamespaceLifecycle admission)")
    void immortalNamespacesCannotBeDeleted() {
        for (String ns : List.of("default", "kube-system", "kube-public")) {
            assertThatThrownBy(() -> registry.delete(io.kuberaysim.api.ResourceTypes.NAMESPACES, null, ns,
                    DeleteOptions.DEFAULT))
                    .isInstanceOfSatisfying(ApiException.class, e -> {
                        assertThat(e.code()).isEqualTo(403);
                        assertThat(e.getMessage())
                                .isEqualTo("namespaces \"" + ns + "\" is forbidden: this namespace may not be deleted");
                    });
            assertThat(registry.reader().get(io.kuberaysim.api.ResourceTypes.NAMESPACES, null, ns).isDeleting())
                    .isFalse();
        }
    }

    @Test
    void podDefaultsAndGracefulDeletion() {
        StoredObject p = registry.create(PODS, "default", pod("p"), WriteOptions.DEFAULT).object();
        assertThat(p.object().at("/status/phase").asString()).isEqualTo("Pending");
        assertThat(p.object().at("/spec/restartPolicy").asString()).isEqualTo("Always");
        // an unscheduled pod goes at once
        assertThat(registry.delete(PODS, "default", "p", DeleteOptions.DEFAULT).gone()).isTrue();

        registry.create(PODS, "default", pod("q"), WriteOptions.DEFAULT);
        registry.patch(PODS, "default", "q", PatchType.MERGE,
                Json.MAPPER.readTree("{\"spec\":{\"nodeName\":\"node-1\"}}"), false, WriteOptions.DEFAULT);
        DeleteResult r = registry.delete(PODS, "default", "q", DeleteOptions.DEFAULT);
        assertThat(r.gone()).isFalse();
        assertThat(r.object().metadata().get("deletionGracePeriodSeconds").asInt()).isEqualTo(30);
        assertThat(registry.delete(PODS, "default", "q", DeleteOptions.immediate()).gone()).isTrue();
    }

    @Test
    @DisplayName("a write over a stored object is decoded as strictly as a create, whatever part of it changed")
    void writesOverStoredObjectsAreDecodedStrictly() {
        registry.create(PODS, "default", pod("p"), WriteOptions.DEFAULT);
        ApiException patched = api(() -> registry.patch(PODS, "default", "p", PatchType.MERGE,
                Json.MAPPER.readTree("{\"spec\":{\"terminationGracePeriodSeconds\":\"30\"}}"), false,
                WriteOptions.DEFAULT));
        assertThat(patched.code()).isEqualTo(422);
        assertThat(patched.getMessage()).contains("json: cannot unmarshal string into Go struct field "
                + "PodSpec.spec.terminationGracePeriodSeconds of type int64");

        ApiException nested = api(() -> registry.patch(PODS, "default", "p", PatchType.STRATEGIC,
                Json.MAPPER.readTree("{\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":"
                        + "{\"limits\":{\"cpu\":\"lots\"}}}]}}"), false, WriteOptions.DEFAULT));
        assertThat(nested.code()).isEqualTo(422);
        assertThat(nested.getMessage()).contains("quantities must match the regular expression");

        ObjectNode status = registry.store().get(PODS, "default", "p").copy();
        ((ObjectNode) status.get("status")).put("startTime", 5);
        ApiException put = api(() -> registry.update(PODS, "default", "p", status, true, WriteOptions.DEFAULT));
        assertThat(put.code()).isEqualTo(400);
        assertThat(put.getMessage()).isEqualTo("Pod in version \"v1\" cannot be handled as a Pod: json: cannot "
                + "unmarshal number into Go struct field PodStatus.status.startTime of type string");

        ObjectNode labels = registry.store().get(PODS, "default", "p").copy();
        ((ObjectNode) labels.at("/metadata/labels")).put("tier", 1);
        assertThat(api(() -> registry.update(PODS, "default", "p", labels, false, WriteOptions.DEFAULT)).getMessage())
                .endsWith("json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type "
                        + "string");
        assertThat(registry.store().get(PODS, "default", "p").object().at("/status/startTime").isMissingNode())
                .isTrue();
    }

    @Test
    @DisplayName("a wrong type deep in a Pod (a volume source, a probe, an affinity term) or a RayCluster's Pod template is refused with Go's message")
    void deepWrongTypesAreRefused() {
        String prefix = "Pod in version \"v1\" cannot be handled as a Pod: json: cannot unmarshal ";
        ObjectNode volume = pod("volume");
        volume.withObject("spec").putArray("volumes").addObject().put("name", "v").putObject("hostPath").put("path", 1);
        assertThat(refusal(volume)).isEqualTo(prefix + "number into Go struct field "
                + "HostPathVolumeSource.spec.volumes.hostPath.path of type string");

        ObjectNode probe = pod("probe");
        ((ObjectNode) probe.at("/spec/containers/0")).putObject("livenessProbe").put("periodSeconds", "10");
        assertThat(refusal(probe)).isEqualTo(prefix + "string into Go struct field "
                + "Probe.spec.containers.livenessProbe.periodSeconds of type int32");

        ObjectNode affinity = pod("affinity");
        affinity.withObject("spec").withObject("affinity").withObject("nodeAffinity")
                .withObject("requiredDuringSchedulingIgnoredDuringExecution").putArray("nodeSelectorTerms").addObject()
                .putArray("matchExpressions").addObject().put("key", "zone").put("operator", "In").put("values", "a");
        assertThat(refusal(affinity)).isEqualTo(prefix + "string into Go struct field NodeSelectorRequirement.spec."
                + "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms."
                + "matchExpressions.values of type []string");

        ObjectNode podAffinity = pod("pod-affinity");
        podAffinity.withObject("spec").withObject("affinity").withObject("podAntiAffinity")
                .putArray("preferredDuringSchedulingIgnoredDuringExecution").addObject().put("weight", 1)
                .putObject("podAffinityTerm").put("topologyKey", 5);
        assertThat(refusal(podAffinity)).isEqualTo(prefix + "number into Go struct field PodAffinityTerm.spec."
                + "affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution.podAffinityTerm."
                + "topologyKey of type string");
        assertThat(registry.store().list(PODS, "default").items()).isEmpty();

        ObjectNode cluster = TestCluster.yaml(RAYCLUSTER);
        ((ObjectNode) cluster.at("/spec/headGroupSpec/template/spec")).putArray("volumes").addObject()
                .put("name", "v").putObject("emptyDir").put("sizeLimit", "lots");
        ((ObjectNode) cluster.at("/spec/workerGroupSpecs/0/template/spec/containers/0")).putObject("readinessProbe")
                .putObject("exec").put("command", "ray status");
        ApiException refused = api(() -> registry.create(RAYCLUSTERS, "default", cluster, WriteOptions.DEFAULT));
        assertThat(refused.code()).isEqualTo(422);
        assertThat(refused.getMessage()).isEqualTo("RayCluster.ray.io \"demo\" is invalid: ["
                + "spec.headGroupSpec.template.spec.volumes[0].emptyDir.sizeLimit: Invalid value: \"lots\": "
                + "spec.headGroupSpec.template.spec.volumes[0].emptyDir.sizeLimit in body should match '"
                + QuantityFormat.CRD_PATTERN + "', spec.workerGroupSpecs[0].template.spec.containers[0].readinessProbe."
                + "exec.command: Invalid value: \"string\": spec.workerGroupSpecs[0].template.spec.containers[0]."
                + "readinessProbe.exec.command in body must be of type array: \"string\"]");
    }

    private String refusal(ObjectNode pod) {
        ApiException e = api(() -> registry.create(PODS, "default", pod, WriteOptions.DEFAULT));
        assertThat(e.code()).isEqualTo(400);
        return e.getMessage();
    }

    @Test
    void podSpecIsImmutableButForImages() {
        registry.create(PODS, "default", pod("p"), WriteOptions.DEFAULT);
        registry.patch(PODS, "default", "p", PatchType.STRATEGIC, Json.MAPPER.readTree(
                "{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox:2\"}]}}"), false, WriteOptions.DEFAULT);
        ApiException e = api(() -> registry.patch(PODS, "default", "p", PatchType.MERGE,
                Json.MAPPER.readTree("{\"spec\":{\"restartPolicy\":\"Never\"}}"), false, WriteOptions.DEFAULT));
        assertThat(e.code()).isEqualTo(422);
        assertThat(e.getMessage()).startsWith("Pod \"p\" is invalid: spec: Forbidden: pod updates may not change");

        registry.patch(PODS, "default", "p", PatchType.MERGE, Json.MAPPER.readTree(
                "{\"spec\":{\"nodeName\":\"n1\",\"activeDeadlineSeconds\":60}}"), false, WriteOptions.DEFAULT);
        registry.patch(PODS, "default", "p", PatchType.STRATEGIC, Json.MAPPER.readTree(
                "{\"spec\":{\"containers\":[{\"name\":\"c\",\"imagePullPolicy\":\"Always\"}]}}"), false,
                WriteOptions.DEFAULT);
        for (String forbidden : List.of("{\"spec\":{\"nodeName\":\"n2\"}}",
                "{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox:3\",\"workingDir\":\"/x\"}]}}")) {
            assertThat(api(() -> registry.patch(PODS, "default", "p", PatchType.STRATEGIC,
                    Json.MAPPER.readTree(forbidden), false, WriteOptions.DEFAULT)).code()).as(forbidden).isEqualTo(422);
        }
        assertThat(registry.store().get(PODS, "default", "p").object().at("/spec/containers/0/image").asString())
                .isEqualTo("busybox:2");
    }

    @Test
    void servicesGetSequentialClusterIpsOrNone() {
        ObjectNode svc = TestCluster.yaml("""
                metadata: {name: a}
                spec: {ports: [{port: 80}]}
                """);
        StoredObject a = registry.create(SERVICES, "default", svc, WriteOptions.DEFAULT).object();
        assertThat(a.object().at("/spec/clusterIP").asString()).isEqualTo("10.96.0.1");
        assertThat(a.object().at("/spec/ports/0/targetPort").asInt()).isEqualTo(80);
        ObjectNode headless = TestCluster.yaml("""
                metadata: {name: b}
                spec: {clusterIP: None}
                """);
        assertThat(registry.create(SERVICES, "default", headless, WriteOptions.DEFAULT).object()
                .object().at("/spec/clusterIP").asString()).isEqualTo("None");
    }

    @Test
    void jobsDefaultToOrphanAndGetSelectorLabels() {
        ObjectNode job = TestCluster.yaml("""
                metadata: {name: j}
                spec:
                  template:
                    spec:
                      restartPolicy: Never
                      containers: [{name: c, image: busybox}]
                """);
        StoredObject j = registry.create(JOBS, "default", job, WriteOptions.DEFAULT).object();
        assertThat(j.object().at("/spec/backoffLimit").asInt()).isEqualTo(6);
        assertThat(j.object().at("/spec/template/metadata/labels/job-name").asString()).isEqualTo("j");
        DeleteResult r = registry.delete(JOBS, "default", "j", DeleteOptions.DEFAULT);
        assertThat(r.gone()).isFalse();
        assertThat(r.object().metadata().get("finalizers").get(0).asString()).isEqualTo("orphan");
        cluster.settle();
        assertThat(registry.store().get(JOBS, "default", "j")).isNull();
    }

    @Test
    @DisplayName("lists filter by label and field selectors and page with opaque continue tokens")
    void listSelectorsAndPaging() {
        for (int i = 0; i < 5; i++) {
            ObjectNode p = pod("p" + i);
            ((ObjectNode) p.at("/metadata/labels")).put("idx", Integer.toString(i));
            registry.create(PODS, "default", p, WriteOptions.DEFAULT);
        }
        assertThat(registry.reader().list(PODS, "default", ListOptions.labels("idx in (1,3)")).items())
                .extracting(StoredObject::name).containsExactly("p1", "p3");
        assertThat(registry.reader().list(PODS, "default", ListOptions.fields("metadata.name=p4")).items())
                .extracting(StoredObject::name).containsExactly("p4");
        assertThat(registry.reader().list(PODS, "default", ListOptions.fields("status.phase!=Running")).items())
                .hasSize(5);
        ApiException bad = api(() -> registry.reader().list(PODS, "default", ListOptions.fields("spec.foo=x")));
        assertThat(bad.code()).isEqualTo(400);
        assertThat(bad.getMessage()).isEqualTo("field label not supported: spec.foo");
        assertThat(api(() -> registry.reader().list(PODS, "default", ListOptions.labels("a in (")))
                .code()).isEqualTo(400);

        ListResult first = registry.reader().list(PODS, "default",
                new ListOptions(null, null, 2L, null, null, null, false, false));
        assertThat(first.items()).extracting(StoredObject::name).containsExactly("p0", "p1");
        assertThat(first.remainingItemCount()).isEqualTo(3);
        ListResult second = registry.reader().list(PODS, "default",
                new ListOptions(null, null, 2L, first.continueToken(), null, null, false, false));
        assertThat(second.items()).extracting(StoredObject::name).containsExactly("p2", "p3");
        ListResult third = registry.reader().list(PODS, "default",
                new ListOptions(null, null, 2L, second.continueToken(), null, null, false, false));
        assertThat(third.items()).extracting(StoredObject::name).containsExactly("p4");
        assertThat(third.continueToken()).isNull();
    }

    @Test
    @DisplayName("a watch sends objects entering a selection as ADDED and leaving it as DELETED")
    void watchSelectorTransitions() {
        registry.create(PODS, "default", pod("p"), WriteOptions.DEFAULT);
        List<String> seen = new java.util.ArrayList<>();
        registry.reader().watch(PODS, "default", ListOptions.labels("tier=front"),
                e -> seen.add(e.type() + " " + e.object().name()));
        registry.patch(PODS, "default", "p", PatchType.MERGE,
                Json.MAPPER.readTree("{\"metadata\":{\"labels\":{\"tier\":\"front\"}}}"), false, WriteOptions.DEFAULT);
        registry.patch(PODS, "default", "p", PatchType.MERGE,
                Json.MAPPER.readTree("{\"metadata\":{\"annotations\":{\"a\":\"b\"}}}"), false, WriteOptions.DEFAULT);
        registry.patch(PODS, "default", "p", PatchType.MERGE,
                Json.MAPPER.readTree("{\"metadata\":{\"labels\":{\"tier\":null}}}"), false, WriteOptions.DEFAULT);
        assertThat(seen).containsExactly("ADDED p", "MODIFIED p", "DELETED p");
    }

    @Test
    void namespaceDeletionRemovesItsContent() {
        registry.create(io.kuberaysim.api.ResourceTypes.NAMESPACES, null,
                TestCluster.yaml("metadata: {name: team}"), WriteOptions.DEFAULT);
        registry.create(PODS, "team", pod("p"), WriteOptions.DEFAULT);
        // a finalizer keeps the namespace Terminating long enough to be observed
        registry.create(io.kuberaysim.api.ResourceTypes.CONFIGMAPS, "team",
                TestCluster.yaml("metadata: {name: held, finalizers: [example.com/hold]}"), WriteOptions.DEFAULT);
        DeleteResult r = registry.delete(io.kuberaysim.api.ResourceTypes.NAMESPACES, null, "team",
                DeleteOptions.DEFAULT);
        assertThat(r.object().object().at("/status/phase").asString()).isEqualTo("Terminating");
        cluster.settle();
        ApiException forbidden = api(() -> registry.create(PODS, "team", pod("q"), WriteOptions.DEFAULT));
        assertThat(forbidden.code()).isEqualTo(403);
        assertThat(forbidden.getMessage()).isEqualTo("pods \"q\" is forbidden: unable to create new content in "
                + "namespace team because it is being terminated");
        assertThat(registry.store().get(PODS, "team", "p")).isNull();
        registry.patch(io.kuberaysim.api.ResourceTypes.CONFIGMAPS, "team", "held", PatchType.MERGE,
                Json.MAPPER.readTree("{\"metadata\":{\"finalizers\":null}}"), false, WriteOptions.DEFAULT);
        cluster.settle();
        assertThat(registry.store().get(io.kuberaysim.api.ResourceTypes.NAMESPACES, null, "team")).isNull();
    }

    @Test
    void deletePreconditions() {
        StoredObject o = createCluster();
        ApiException e = api(() -> registry.delete(RAYCLUSTERS, "default", "demo",
                new DeleteOptions(null, null, "other-uid", null, false, null)));
        assertThat(e.code()).isEqualTo(409);
        assertThat(e.getMessage()).contains("Precondition failed: UID in precondition: other-uid, UID in object meta: "
                + o.uid());
        assertThat(registry.delete(RAYCLUSTERS, "default", "demo",
                new DeleteOptions(null, null, o.uid(), null, false, null)).gone()).isTrue();
        cluster.advance(Duration.ofSeconds(1));
    }
}
