package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * Field selectors per type, as kube-apiserver 1.32's field label conversions accept them; any other field is
 * 400 {@code field label not supported: <field>}, on lists and watches alike.
 */
@SpringBootTest(properties = "kuberay-sim.controllers=false")
@AutoConfigureMockMvc
class FieldSelectorHttpIT {
    @Autowired
    MockMvc mvc;

    @BeforeEach
    void objects() throws Exception {
        create("/api/v1/namespaces/default/serviceaccounts", "{\"metadata\":{\"name\":\"runner\"}}");
        create("/api/v1/namespaces/default/pods", """
                {"metadata":{"name":"fs-pod"},"spec":{"nodeName":"sim-node-0","restartPolicy":"Never","serviceAccountName":"runner",
                 "containers":[{"name":"c","image":"busybox"}]}}""");
        create("/api/v1/nodes", "{\"metadata\":{\"name\":\"fs-cordoned\"},\"spec\":{\"unschedulable\":true}}");
        create("/api/v1/nodes", "{\"metadata\":{\"name\":\"fs-open\"}}");
        create("/apis/batch/v1/namespaces/default/jobs", """
                {"metadata":{"name":"fs-job"},"spec":{"template":{"spec":{"restartPolicy":"Never","serviceAccountName":"runner",
                 "containers":[{"name":"c","image":"busybox"}]}}}}""");
        create("/api/v1/namespaces/default/services", """
                {"metadata":{"name":"fs-svc"},"spec":{"type":"NodePort","ports":[{"port":80}]}}""");
        create("/api/v1/namespaces/default/events", """
                {"metadata":{"name":"fs-event"},"involvedObject":{"kind":"Pod","name":"fs-pod","namespace":"default"},
                 "reason":"Started","type":"Warning","source":{"component":"kubelet"}}""");
        create("/apis/ray.io/v1/namespaces/default/rayclusters", """
                {"metadata":{"name":"fs-rc"},"spec":{"headGroupSpec":{"template":{"spec":{"containers":[
                 {"name":"ray-head","image":"rayproject/ray:2.9.0"}]}}}}}""");
    }

    void create(String collection, String body) throws Exception {
        mvc.perform(post(collection).contentType("application/json").content(body)).andReturn();
    }

    List<String> names(String uri) throws Exception {
        MvcResult r = mvc.perform(get(uri)).andReturn();
        assertThat(r.getResponse().getStatus()).as(r.getResponse().getContentAsString()).isEqualTo(200);
        List<String> names = new ArrayList<>();
        for (JsonNode item : Json.MAPPER.readTree(r.getResponse().getContentAsString()).get("items")) {
            names.add(item.at("/metadata/name").asString());
        }
        return names;
    }

    @ParameterizedTest(name = "{0}?fieldSelector={1}")
    @CsvSource(delimiter = '|', value = {
            "/api/v1/namespaces/default/pods|spec.nodeName=sim-node-0|fs-pod",
            "/api/v1/namespaces/default/pods|spec.host=sim-node-0|fs-pod",
            "/api/v1/namespaces/default/pods|spec.restartPolicy=Never,spec.schedulerName=default-scheduler|fs-pod",
            "/api/v1/namespaces/default/pods|status.phase=Pending,status.podIP=|fs-pod",
            "/api/v1/namespaces/default/pods|spec.serviceAccountName=runner,status.nominatedNodeName=|fs-pod",
            "/api/v1/nodes|spec.unschedulable=true|fs-cordoned",
            "/api/v1/nodes|spec.unschedulable=false,metadata.name=fs-open|fs-open",
            "/api/v1/namespaces|status.phase=Active,metadata.name=default|default",
            "/apis/batch/v1/namespaces/default/jobs|status.successful=0|fs-job",
            "/api/v1/namespaces/default/services|spec.type=NodePort|fs-svc",
            "/api/v1/namespaces/default/events|involvedObject.name=fs-pod,reason=Started,type=Warning,source=kubelet|fs-event",
            "/api/v1/namespaces/default/events|involvedObject.kind=Pod,involvedObject.namespace=default|fs-event",
            "/apis/ray.io/v1/namespaces/default/rayclusters|metadata.name=fs-rc,metadata.namespace=default|fs-rc",
            "/apis/ray.io/v1/rayclusters|metadata.namespace=default|fs-rc",
    })
    void supportedFieldsSelect(String collection, String selector, String expected) throws Exception {
        assertThat(names(collection + "?fieldSelector=" + selector)).contains(expected);
        assertThat(names(collection + "?fieldSelector=metadata.name=nothing-here")).isEmpty();
    }

    @ParameterizedTest(name = "{0}?fieldSelector={1}")
    @CsvSource(delimiter = '|', value = {
            "/api/v1/nodes|metadata.namespace=default",
            "/api/v1/namespaces|metadata.namespace=default",
            "/api/v1/namespaces/default/pods|spec.containers=x",
            "/api/v1/namespaces/default/configmaps|data.key=x",
            "/apis/batch/v1/namespaces/default/jobs|status.failed=0",
            "/apis/ray.io/v1/namespaces/default/rayclusters|status.state=ready",
            "/apis/ray.io/v1/namespaces/default/rayclusters|spec.suspend=true",
    })
    void otherFieldsAreBadRequests(String collection, String selector) throws Exception {
        for (String uri : List.of(collection + "?fieldSelector=" + selector,
                collection + "?watch=true&timeoutSeconds=1&fieldSelector=" + selector)) {
            MvcResult r = mvc.perform(get(uri)).andReturn();
            assertThat(r.getResponse().getStatus()).isEqualTo(400);
            JsonNode status = Json.MAPPER.readTree(r.getResponse().getContentAsString());
            assertThat(status.get("reason").asString()).isEqualTo("BadRequest");
            assertThat(status.get("message").asString())
                    .isEqualTo("field label not supported: " + selector.substring(0, selector.indexOf('=')));
        }
    }
}
