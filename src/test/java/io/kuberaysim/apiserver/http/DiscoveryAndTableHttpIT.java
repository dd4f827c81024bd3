package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import io.kuberaysim.controller.runtime.clock.Clock;
import io.kuberaysim.controller.runtime.clock.VirtualClock;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/** Discovery, /version, the OpenAPI v3 documents kubectl reads, and Table responses, through MockMvc. */
@SpringBootTest(properties = "kuberay-sim.controllers=false")
@AutoConfigureMockMvc
class DiscoveryAndTableHttpIT {
    static final String AGGREGATED_ACCEPT = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,"
            + "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";
    static final String TABLE_ACCEPT = "application/json;as=Table;v=v1;g=meta.k8s.io,"
            + "application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";

    @Autowired
    MockMvc mvc;
    @Autowired
    Clock clock;

    MvcResult get(String uri, String accept) throws Exception {
        var b = org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get(uri);
        if (accept != null) {
            b.header("Accept", accept);
        }
        return mvc.perform(b).andReturn();
    }

    static JsonNode body(MvcResult r) throws Exception {
        return Json.MAPPER.readTree(r.getResponse().getContentAsString());
    }

    @Test
    void versionAnswersKubernetes132() throws Exception {
        JsonNode v = body(get("/version", null));
        assertThat(v.get("major").asString()).isEqualTo("1");
        assertThat(v.get("minor").asString()).isEqualTo("32");
        assertThat(v.get("gitVersion").asString()).isEqualTo("v1.32.0");
    }

    @Test
    void aggregatedDiscoveryHasTheExactContentTypeAndRayResources() throws Exception {
        MvcResult r = get("/apis", AGGREGATED_ACCEPT);
        assertThat(r.getResponse().getContentType())
                .isEqualTo("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList");
        JsonNode list = body(r);
        assertThat(list.get("kind").asString()).isEqualTo("APIGroupDiscoveryList");
        JsonNode ray = null;
        for (JsonNode item : list.get("items")) {
            if (item.at("/metadata/name").asString().equals("ray.io")) {
                ray = item;
            }
        }
        assertThat(ray).isNotNull();
        JsonNode rc = ray.at("/versions/0/resources/0");
        assertThat(rc.get("resource").asString()).isEqualTo("rayclusters");
        assertThat(rc.get("scope").asString()).isEqualTo("Namespaced");
        assertThat(rc.get("singularResource").asString()).isEqualTo("raycluster");
        assertThat(rc.at("/responseKind/kind").asString()).isEqualTo("RayCluster");
        assertThat(rc.at("/categories/0").asString()).isEqualTo("all");
        assertThat(rc.at("/subresources/0/subresource").asString()).isEqualTo("status");

        JsonNode core = body(get("/api", AGGREGATED_ACCEPT));
        assertThat(core.at("/items/0/metadata/name").asString()).isEmpty();
        List<String> shortNames = new ArrayList<>();
        core.at("/items/0/versions/0/resources").forEach(res -> res.path("shortNames")
                .forEach(s -> shortNames.add(s.asString())));
        assertThat(shortNames).contains("po", "svc", "ev", "ns", "no", "cm");
    }

    @Test
    void legacyDiscoveryWithoutTheAggregatedAccept() throws Exception {
        MvcResult api = get("/api", "application/json, */*");
        assertThat(api.getResponse().getContentType()).isEqualTo("application/json");
        assertThat(body(api).get("kind").asString()).isEqualTo("APIVersions");
        assertThat(body(api).at("/versions/0").asString()).isEqualTo("v1");

        JsonNode groups = body(get("/apis", null));
        assertThat(groups.get("kind").asString()).isEqualTo("APIGroupList");
        assertThat(groups.get("groups")).extracting(g -> g.get("name").asString()).containsExactly("events.k8s.io",
                "batch", "coordination.k8s.io", "rbac.authorization.k8s.io", "apiextensions.k8s.io", "ray.io", "sim.kuberay.io",
                "authorization.k8s.io", "authentication.k8s.io");

        JsonNode sim = body(get("/apis/sim.kuberay.io/v1alpha1", null));
        assertThat(sim.get("resources")).extracting(r -> r.get("name").asString() + ":" + r.get("namespaced"))
                .containsExactly("podlifecyclerules:true", "nodelifecyclerules:false", "faultschedules:true",
                        "faultschedules/status:true");

        JsonNode ray = body(get("/apis/ray.io/v1", null));
        assertThat(ray.get("kind").asString()).isEqualTo("APIResourceList");
        assertThat(ray.get("groupVersion").asString()).isEqualTo("ray.io/v1");
        assertThat(ray.get("resources")).extracting(r -> r.get("name").asString())
                .containsExactly("rayclusters", "rayclusters/status", "rayjobs", "rayjobs/status", "rayservices",
                        "rayservices/status");

        JsonNode v1 = body(get("/api/v1", null));
        JsonNode ns = null;
        for (JsonNode r : v1.get("resources")) {
            if (r.get("name").asString().equals("namespaces")) {
                ns = r;
            }
        }
        assertThat(ns.get("namespaced").asBoolean()).isFalse();
        assertThat(ns.at("/shortNames/0").asString()).isEqualTo("ns");

        assertThat(body(get("/apis/batch", null)).at("/preferredVersion/groupVersion").asString())
                .isEqualTo("batch/v1");
        assertThat(get("/apis/nope.io/v1", null).getResponse().getStatus()).isEqualTo(404);
    }

    @Test
    void openApiIndexAndRayDocumentForKubectl() throws Exception {
        JsonNode index = body(get("/openapi/v3", null));
        assertThat(index.get("paths").propertyNames()).containsExactlyInAnyOrder("api/v1", "apis/events.k8s.io/v1",
                "apis/batch/v1", "apis/coordination.k8s.io/v1", "apis/rbac.authorization.k8s.io/v1",
                "apis/apiextensions.k8s.io/v1", "apis/ray.io/v1", "apis/sim.kuberay.io/v1alpha1",
                "apis/authorization.k8s.io/v1", "apis/authentication.k8s.io/v1");
        // the CRDs are read-only: their document has the read operations alone
        JsonNode crds = body(get(index.at("/paths/apis~1apiextensions.k8s.io~1v1/serverRelativeURL").asString(), null));
        assertThat(crds.get("paths").properties()).extracting(p -> p.getKey() + " " + p.getValue().propertyNames())
                .containsExactly("/apis/apiextensions.k8s.io/v1/customresourcedefinitions [get]",
                        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{name} [get]");
        String url = index.at("/paths/apis~1ray.io~1v1/serverRelativeURL").asString();
        assertThat(url).startsWith("/openapi/v3/apis/ray.io/v1?hash=");

        JsonNode doc = body(get(url, null));
        JsonNode rc = doc.at("/components/schemas/io.ray.v1.RayCluster");
        assertThat(rc.at("/x-kubernetes-group-version-kind/0/kind").asString()).isEqualTo("RayCluster");
        assertThat(rc.at("/properties/spec/properties/workerGroupSpecs/description").asString()).isNotEmpty();
        JsonNode patchOp = doc.at("/paths/~1apis~1ray.io~1v1~1namespaces~1{namespace}~1rayclusters~1{name}/patch");
        assertThat(patchOp.get("parameters")).extracting(p -> p.get("name").asString()).contains("fieldValidation");
        assertThat(patchOp.at("/x-kubernetes-group-version-kind/kind").asString()).isEqualTo("RayCluster");

        JsonNode core = body(get("/openapi/v3/api/v1", null));
        assertThat(core.at("/components/schemas/io.k8s.api.core.v1.Pod/x-kubernetes-group-version-kind/0/kind")
                .asString()).isEqualTo("Pod");
    }

    @Test
    void rayClusterTableHasKubeRayPrinterColumnsAndAges() throws Exception {
        mvc.perform(post("/apis/ray.io/v1/namespaces/default/rayclusters").contentType("application/yaml")
                .content(ResourceHttpIT.MANIFEST.formatted("tabled"))).andReturn();
        mvc.perform(patch("/apis/ray.io/v1/namespaces/default/rayclusters/tabled/status")
                .contentType("application/merge-patch+json")
                .content("{\"status\":{\"state\":\"ready\",\"desiredWorkerReplicas\":2,\"desiredCPU\":\"5\","
                        + "\"head\":{\"podIP\":\"10.0.0.7\"}}}")).andReturn();
        ((VirtualClock) clock).advance(Duration.ofMinutes(3));

        MvcResult r = get("/apis/ray.io/v1/namespaces/default/rayclusters", TABLE_ACCEPT);
        JsonNode table = body(r);
        assertThat(table.get("kind").asString()).isEqualTo("Table");
        assertThat(table.get("apiVersion").asString()).isEqualTo("meta.k8s.io/v1");
        List<String> names = new ArrayList<>();
        List<Integer> priorities = new ArrayList<>();
        table.get("columnDefinitions").forEach(c -> {
            names.add(c.get("name").asString());
            priorities.add(c.get("priority").asInt());
        });
        assertThat(names).containsExactly("Name", "desired workers", "available workers", "cpus", "memory", "gpus",
                "tpus", "status", "age", "head pod IP", "head service IP");
        assertThat(priorities).containsExactly(0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 1);
        JsonNode row = null;
        for (JsonNode candidate : table.get("rows")) {
            if (candidate.at("/cells/0").asString().equals("tabled")) {
                row = candidate;
            }
        }
        assertThat(row).isNotNull();
        assertThat(row.at("/cells/1").asInt()).isEqualTo(2);
        assertThat(row.at("/cells/2").isNull()).isTrue();
        assertThat(row.at("/cells/3").asString()).isEqualTo("5");
        assertThat(row.at("/cells/7").asString()).isEqualTo("ready");
        assertThat(row.at("/cells/8").asString()).isEqualTo("3m");
        assertThat(row.at("/cells/9").asString()).isEqualTo("10.0.0.7");
        assertThat(row.at("/object/kind").asString()).isEqualTo("PartialObjectMetadata");
        assertThat(row.at("/object/metadata/namespace").asString()).isEqualTo("default");
        assertThat(row.at("/object/spec").isMissingNode()).isTrue();

        JsonNode full = body(get("/apis/ray.io/v1/namespaces/default/rayclusters/tabled?includeObject=Object",
                TABLE_ACCEPT));
        assertThat(full.get("rows")).hasSize(1);
        assertThat(full.at("/rows/0/object/kind").asString()).isEqualTo("RayCluster");
        assertThat(full.at("/rows/0/object/spec/workerGroupSpecs/0/groupName").asString()).isEqualTo("g");

        JsonNode plain = body(get("/apis/ray.io/v1/namespaces/default/rayclusters/tabled", "application/json"));
        assertThat(plain.get("kind").asString()).isEqualTo("RayCluster");
    }

    @Test
    void podTableShowsReadyStatusRestartsAndWideColumns() throws Exception {
        mvc.perform(post("/api/v1/namespaces/default/pods").contentType("application/json")
                .content("{\"metadata\":{\"name\":\"tp\"},\"spec\":{\"nodeName\":\"n1\",\"containers\":"
                        + "[{\"name\":\"c\",\"image\":\"busybox\"}]}}")).andReturn();
        mvc.perform(patch("/api/v1/namespaces/default/pods/tp/status").contentType("application/merge-patch+json")
                .content("{\"status\":{\"phase\":\"Pending\",\"containerStatuses\":[{\"name\":\"c\",\"ready\":false,"
                        + "\"restartCount\":0,\"image\":\"busybox\",\"imageID\":\"\",\"state\":{\"waiting\":"
                        + "{\"reason\":\"ContainerCreating\"}}}]}}")).andReturn();
        JsonNode table = body(get("/api/v1/namespaces/default/pods/tp", TABLE_ACCEPT));
        List<String> names = new ArrayList<>();
        table.get("columnDefinitions").forEach(c -> names.add(c.get("name").asString()));
        assertThat(names).containsExactly("Name", "Ready", "Status", "Restarts", "Age", "IP", "Node",
                "Nominated Node", "Readiness Gates");
        JsonNode cells = table.at("/rows/0/cells");
        assertThat(cells.get(1).asString()).isEqualTo("0/1");
        assertThat(cells.get(2).asString()).isEqualTo("ContainerCreating");
        assertThat(cells.get(3).asString()).isEqualTo("0");
        assertThat(cells.get(6).asString()).isEqualTo("n1");

        JsonNode services = body(get("/api/v1/namespaces/default/services", TABLE_ACCEPT));
        List<String> svcCols = new ArrayList<>();
        services.get("columnDefinitions").forEach(c -> svcCols.add(c.get("name").asString()));
        assertThat(svcCols).containsExactly("Name", "Type", "Cluster-IP", "External-IP", "Port(s)", "Age",
                "Selector");
    }

    @Test
    void humanDurationsMatchKubectl() {
        assertThat(HumanDuration.human(Duration.ofSeconds(45))).isEqualTo("45s");
        assertThat(HumanDuration.human(Duration.ofSeconds(90))).isEqualTo("90s");
        assertThat(HumanDuration.human(Duration.ofSeconds(120))).isEqualTo("2m");
        assertThat(HumanDuration.human(Duration.ofSeconds(330))).isEqualTo("5m30s");
        assertThat(HumanDuration.human(Duration.ofMinutes(42))).isEqualTo("42m");
        assertThat(HumanDuration.human(Duration.ofMinutes(185))).isEqualTo("3h5m");
        assertThat(HumanDuration.human(Duration.ofHours(3))).isEqualTo("3h");
        assertThat(HumanDuration.human(Duration.ofHours(30))).isEqualTo("30h");
        assertThat(HumanDuration.human(Duration.ofHours(51))).isEqualTo("2d3h");
        assertThat(HumanDuration.human(Duration.ofDays(2))).isEqualTo("2d");
        assertThat(HumanDuration.human(Duration.ofDays(400))).isEqualTo("400d");
        assertThat(HumanDuration.human(Duration.ofDays(800))).isEqualTo("2y70d");
        assertThat(HumanDuration.human(Duration.ofDays(3000))).isEqualTo("8y");
        assertThat(HumanDuration.human(Duration.ofSeconds(-1))).isEqualTo("0s");
        assertThat(HumanDuration.human(Duration.ofSeconds(-5))).isEqualTo("<invalid>");
    }

    // client-go's metadata client (controller-runtime's metadata-only watches) got the whole objects back, kind
    // ConfigMapList, which it cannot decode as a PartialObjectMetadataList
    @Test
    void partialObjectMetadataAsTheMetadataClientAsksForIt() throws Exception {
        String accept = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,"
                + "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";
        mvc.perform(post("/api/v1/namespaces/default/configmaps").contentType("application/json")
                .content("{\"metadata\":{\"name\":\"meta-only\",\"labels\":{\"app\":\"x\"}},"
                        + "\"data\":{\"secret\":\"value\"}}")).andReturn();
        JsonNode list = body(get("/api/v1/namespaces/default/configmaps?labelSelector=app", accept));
        assertThat(list.path("kind").asString()).isEqualTo("PartialObjectMetadataList");
        assertThat(list.path("apiVersion").asString()).isEqualTo("meta.k8s.io/v1");
        assertThat(list.at("/metadata/resourceVersion").asString()).isNotEmpty();
        assertThat(list.path("items")).hasSize(1);
        JsonNode item = list.path("items").get(0);
        assertThat(item.path("kind").asString()).isEqualTo("PartialObjectMetadata");
        assertThat(item.at("/metadata/name").asString()).isEqualTo("meta-only");
        assertThat(item.at("/metadata/labels/app").asString()).isEqualTo("x");
        assertThat(item.has("data")).isFalse();

        JsonNode one = body(get("/api/v1/namespaces/default/configmaps/meta-only",
                accept.replace("PartialObjectMetadataList", "PartialObjectMetadata")));
        assertThat(one.path("kind").asString()).isEqualTo("PartialObjectMetadata");
        assertThat(one.at("/metadata/uid").asString()).isNotEmpty();
        assertThat(one.has("data")).isFalse();

        assertThat(body(get("/api/v1/namespaces/default/configmaps/meta-only", "application/json"))
                .path("kind").asString()).isEqualTo("ConfigMap");
        // the first view the client names wins, whichever it is (was: a Table whenever one was named anywhere)
        String metaFirst = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,"
                + "application/json;as=Table;g=meta.k8s.io;v=v1";
        assertThat(body(get("/api/v1/namespaces/default/configmaps/meta-only", metaFirst)).path("kind").asString())
                .isEqualTo("PartialObjectMetadata");
        String tableFirst = "application/json;as=Table;g=meta.k8s.io;v=v1,"
                + "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1";
        assertThat(body(get("/api/v1/namespaces/default/configmaps/meta-only", tableFirst)).path("kind").asString())
                .isEqualTo("Table");
    }
}
