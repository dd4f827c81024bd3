package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;

/** Server-side apply with field ownership (metadata.managedFields), as kube-apiserver 1.32 with structured-merge-diff. */
@SpringBootTest(properties = "kuberay-sim.controllers=false")
@AutoConfigureMockMvc
class ServerSideApplyHttpIT {
    static final String RC = "/apis/ray.io/v1/namespaces/default/rayclusters";
    static final String PODS = "/api/v1/namespaces/default/pods";

    @Autowired
    MockMvc mvc;

    static String cluster(String name, int replicas, String labels) {
        return """
                apiVersion: ray.io/v1
                kind: RayCluster
                metadata: {name: %s, labels: {%s}}
                spec:
                  headGroupSpec:
                    template: {spec: {containers: [{name: ray-head, image: rayproject/ray:2.9.0}]}}
                  workerGroupSpecs:
                  - groupName: g
                    replicas: %d
                    template: {spec: {containers: [{name: ray-worker, image: rayproject/ray:2.9.0}]}}
                """.formatted(name, labels, replicas);
    }

    MvcResult apply(String uri, String manager, String body, String extra) throws Exception {
        return mvc.perform(patch(uri + "?fieldManager=" + manager + extra)
                .contentType("application/apply-patch+yaml").content(body)).andReturn();
    }

    static JsonNode json(MvcResult r) throws Exception {
        return Json.MAPPER.readTree(r.getResponse().getContentAsString());
    }

    static JsonNode entry(JsonNode object, String manager, String operation) {
        for (JsonNode e : object.at("/metadata/managedFields")) {
            if (manager.equals(e.get("manager").asString()) && operation.equals(e.get("operation").asString())) {
                return e;
            }
        }
        return null;
    }

    @Test
    void ownershipConflictsForceAndRemovalOfDroppedFields() throws Exception {
        MvcResult created = apply(RC + "/ssa", "alice", cluster("ssa", 3, "team: ml"), "");
        assertThat(created.getResponse().getStatus()).as(created.getResponse().getContentAsString()).isEqualTo(201);
        JsonNode alice = entry(json(created), "alice", "Apply");
        assertThat(alice.get("apiVersion").asString()).isEqualTo("ray.io/v1");
        assertThat(alice.get("fieldsType").asString()).isEqualTo("FieldsV1");
        assertThat(alice.get("time").asString()).isNotEmpty();
        assertThat(alice.at("/fieldsV1/f:metadata/f:labels/f:team").isObject()).isTrue();
        assertThat(alice.at("/fieldsV1/f:spec/f:workerGroupSpecs").isEmpty()).isTrue(); // atomic list: owned whole

        MvcResult conflict = apply(RC + "/ssa", "bob", cluster("ssa", 2, "team: ml"), "");
        assertThat(conflict.getResponse().getStatus()).isEqualTo(409);
        JsonNode status = json(conflict);
        assertThat(status.get("reason").asString()).isEqualTo("Conflict");
        assertThat(status.get("message").asString())
                .isEqualTo("Apply failed with 1 conflict: conflict with \"alice\": .spec.workerGroupSpecs");
        assertThat(status.at("/details/causes/0/reason").asString()).isEqualTo("FieldManagerConflict");
        assertThat(status.at("/details/causes/0/message").asString()).isEqualTo("conflict with \"alice\"");
        assertThat(status.at("/details/causes/0/field").asString()).isEqualTo(".spec.workerGroupSpecs");

        // the same value is shared, not conflicting
        String labelOnly = """
                apiVersion: ray.io/v1
                kind: RayCluster
                metadata: {name: ssa, labels: {%s}}
                """;
        assertThat(apply(RC + "/ssa", "carol", labelOnly.formatted("team: ml"), "").getResponse().getStatus())
                .isEqualTo(200);

        MvcResult forced = apply(RC + "/ssa", "bob", cluster("ssa", 2, ""), "&force=true");
        assertThat(forced.getResponse().getStatus()).isEqualTo(200);
        JsonNode after = json(forced);
        assertThat(after.at("/spec/workerGroupSpecs/0/replicas").asInt()).isEqualTo(2);
        assertThat(entry(after, "bob", "Apply").at("/fieldsV1/f:spec/f:workerGroupSpecs").isObject()).isTrue();
        assertThat(entry(after, "alice", "Apply").at("/fieldsV1/f:spec/f:workerGroupSpecs").isMissingNode()).isTrue();

        // alice stops applying the label: carol still applies it, so it stays
        MvcResult dropped = apply(RC + "/ssa", "alice", labelOnly.formatted("x: y"), "");
        assertThat(dropped.getResponse().getStatus()).as(dropped.getResponse().getContentAsString()).isEqualTo(200);
        assertThat(json(dropped).at("/metadata/labels/team").asString()).isEqualTo("ml");
        assertThat(json(dropped).at("/spec/workerGroupSpecs/0/replicas").asInt()).isEqualTo(2);
        // carol drops it as well: nobody owns it any more and it is removed
        MvcResult gone = apply(RC + "/ssa", "carol", labelOnly.formatted(""), "");
        assertThat(json(gone).at("/metadata/labels/team").isMissingNode()).isTrue();
        assertThat(json(gone).at("/metadata/labels/x").asString()).as(json(gone).get("metadata").toString()).isEqualTo("y");

        // the same apply again changes nothing: no new resourceVersion
        String rv = json(gone).at("/metadata/resourceVersion").asString();
        MvcResult again = apply(RC + "/ssa", "alice", labelOnly.formatted("x: y"), "");
        assertThat(json(again).at("/metadata/resourceVersion").asString()).isEqualTo(rv);
    }

    @Test
    void ordinaryWritesGetUpdateEntriesNamedByFieldManagerOrUserAgent() throws Exception {
        assertThat(apply(RC + "/upd", "alice", cluster("upd", 1, ""), "").getResponse().getStatus()).isEqualTo(201);
        MvcResult patched = mvc.perform(patch(RC + "/upd").header("User-Agent", "my-tool/1.0 (linux)")
                .contentType("application/merge-patch+json").content("{\"spec\":{\"suspend\":true}}")).andReturn();
        JsonNode e = entry(json(patched), "my-tool", "Update");
        assertThat(e).isNotNull();
        assertThat(e.at("/fieldsV1/f:spec/f:suspend").isObject()).isTrue();

        // an applier now conflicts with the updater, named with its version and time
        MvcResult conflict = apply(RC + "/upd", "alice", cluster("upd", 1, "").replace("spec:\n",
                "spec:\n  suspend: false\n"), "");
        assertThat(conflict.getResponse().getStatus()).isEqualTo(409);
        assertThat(json(conflict).get("message").asString())
                .matches("Apply failed with 1 conflict: conflict with \"my-tool\" using ray\\.io/v1 at \\S+Z: "
                        + "\\.spec\\.suspend");
    }

    @Test
    void builtInListsMergeByTheirKeys() throws Exception {
        String pod = """
                apiVersion: v1
                kind: Pod
                metadata: {name: ssa-pod}
                spec:
                  containers:
                  - {name: %s, image: %s}
                """;
        assertThat(apply(PODS + "/ssa-pod", "alice", pod.formatted("a", "busybox:1"), "").getResponse().getStatus())
                .isEqualTo(201);
        MvcResult second = apply(PODS + "/ssa-pod", "bob", pod.formatted("a", "busybox:2"), "");
        assertThat(second.getResponse().getStatus()).isEqualTo(409);
        assertThat(json(second).get("message").asString())
                .isEqualTo("Apply failed with 1 conflict: conflict with \"alice\": .spec.containers[name=\"a\"].image");
        JsonNode alice = entry(json(mvc.perform(org.springframework.test.web.servlet.request.MockMvcRequestBuilders
                .get(PODS + "/ssa-pod")).andReturn()), "alice", "Apply");
        assertThat(alice.at("/fieldsV1/f:spec/f:containers/k:{\"name\":\"a\"}/.").isObject()).isTrue();
        assertThat(alice.at("/fieldsV1/f:spec/f:containers/k:{\"name\":\"a\"}/f:image").isObject()).isTrue();
    }
}
