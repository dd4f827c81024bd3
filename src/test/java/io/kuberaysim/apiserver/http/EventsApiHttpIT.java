package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * events.k8s.io/v1 Events served from the core Event storage, as kube-apiserver serves them
 * (pkg/apis/events/v1/conversion.go, pkg/apis/core/validation/events.go ValidateEventCreate/Update, the
 * events.k8s.io field label conversions).
 */
@SpringBootTest(properties = "kuberay-sim.controllers=false")
@AutoConfigureMockMvc
class EventsApiHttpIT {
    static final String NEW = "/apis/events.k8s.io/v1/namespaces/default/events";
    static final String CORE = "/api/v1/namespaces/default/events";

    @Autowired
    MockMvc mvc;

    MvcResult send(MockHttpServletRequestBuilder b, String contentType, String body) throws Exception {
        if (body != null) {
            b.contentType(contentType).content(body);
        }
        return mvc.perform(b).andReturn();
    }

    static JsonNode body(MvcResult r) throws Exception {
        return Json.MAPPER.readTree(r.getResponse().getContentAsString());
    }

    static String newEvent(String name, String regarding) {
        return """
                {"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"%s"},
                 "eventTime":"2025-01-01T00:00:00.000000Z","reportingController":"raycluster-controller",
                 "reportingInstance":"raycluster-controller-host","action":"Create","reason":"CreatedService",
                 "regarding":{"apiVersion":"ray.io/v1","kind":"RayCluster","namespace":"default","name":"%s"},
                 "note":"Created service default/%s-head-svc","type":"Normal"}""".formatted(name, regarding, regarding);
    }

    @Test
    void createdThroughEventsK8sIoReadThroughCoreWithKubesFieldMapping() throws Exception {
        MvcResult created = send(post(NEW), "application/json", newEvent("a.1", "a"));
        assertThat(created.getResponse().getStatus()).as(created.getResponse().getContentAsString()).isEqualTo(201);
        JsonNode served = body(created);
        assertThat(served.get("apiVersion").asString()).isEqualTo("events.k8s.io/v1");
        assertThat(served.get("note").asString()).isEqualTo("Created service default/a-head-svc");
        assertThat(served.at("/regarding/name").asString()).isEqualTo("a");
        assertThat(served.get("deprecatedFirstTimestamp").isNull()).isTrue();
        assertThat(served.get("deprecatedSource").isEmpty()).isTrue();
        assertThat(served.has("deprecatedCount")).isFalse();

        JsonNode core = body(send(get(CORE + "/a.1"), null, null));
        assertThat(core.get("apiVersion").asString()).isEqualTo("v1");
        assertThat(core.get("message").asString()).isEqualTo("Created service default/a-head-svc");
        assertThat(core.at("/involvedObject/kind").asString()).isEqualTo("RayCluster");
        assertThat(core.get("reportingComponent").asString()).isEqualTo("raycluster-controller");
        assertThat(core.get("eventTime").asString()).isEqualTo("2025-01-01T00:00:00.000000Z");
        assertThat(core.get("firstTimestamp").isNull()).isTrue();
        assertThat(core.get("source").isEmpty()).isTrue();
        assertThat(core.get("metadata").get("resourceVersion").asString())
                .isEqualTo(served.get("metadata").get("resourceVersion").asString());
    }

    @Test
    void legacyEventReadThroughEventsK8sIoShowsDeprecatedFields() throws Exception {
        assertThat(send(post(CORE), "application/json", """
                {"metadata":{"name":"old.1"},"involvedObject":{"kind":"Pod","namespace":"default","name":"old"},
                 "reason":"Started","message":"Started container ray-head","type":"Normal",
                 "source":{"component":"kubelet"},"firstTimestamp":"2025-01-01T00:00:00Z",
                 "lastTimestamp":"2025-01-01T00:00:05Z","count":3}""").getResponse().getStatus()).isEqualTo(201);
        JsonNode e = body(send(get(NEW + "/old.1"), null, null));
        assertThat(e.get("kind").asString()).isEqualTo("Event");
        assertThat(e.get("apiVersion").asString()).isEqualTo("events.k8s.io/v1");
        assertThat(e.get("eventTime").isNull()).isTrue();
        assertThat(e.at("/regarding/name").asString()).isEqualTo("old");
        assertThat(e.get("note").asString()).isEqualTo("Started container ray-head");
        assertThat(e.at("/deprecatedSource/component").asString()).isEqualTo("kubelet");
        assertThat(e.get("deprecatedCount").asInt()).isEqualTo(3);
        assertThat(e.get("deprecatedLastTimestamp").asString()).isEqualTo("2025-01-01T00:00:05Z");
        assertThat(e.has("involvedObject") || e.has("message") || e.has("count")).isFalse();
    }

    @Test
    void listSelectsOnRegardingAndRejectsCoreOnlyLabels() throws Exception {
        send(post(NEW), "application/json", newEvent("b.1", "b"));
        send(post(NEW), "application/json", newEvent("c.1", "c"));
        JsonNode list = body(send(get(NEW).param("fieldSelector", "regarding.name=b,reportingController="
                + "raycluster-controller"), null, null));
        assertThat(list.get("kind").asString()).isEqualTo("EventList");
        assertThat(list.get("apiVersion").asString()).isEqualTo("events.k8s.io/v1");
        assertThat(list.get("items")).hasSize(1);
        assertThat(list.at("/items/0/regarding/name").asString()).isEqualTo("b");

        MvcResult bad = send(get(NEW).param("fieldSelector", "involvedObject.name=b"), null, null);
        assertThat(bad.getResponse().getStatus()).isEqualTo(400);
        assertThat(body(bad).get("message").asString()).isEqualTo("field label not supported: involvedObject.name");
    }

    @Test
    void strictValidationAndErrorsNameTheEventsGroup() throws Exception {
        MvcResult noTime = send(post(NEW), "application/json", newEvent("d.1", "d")
                .replace("\"eventTime\":\"2025-01-01T00:00:00.000000Z\",", "")
                .replace("\"type\":\"Normal\"", "\"type\":\"Info\",\"deprecatedCount\":2"));
        assertThat(noTime.getResponse().getStatus()).isEqualTo(422);
        String message = body(noTime).get("message").asString();
        assertThat(message).startsWith("Event.events.k8s.io \"d.1\" is invalid: [")
                .contains("eventTime: Required value", "type: Invalid value: \"\": has invalid value: Info",
                        "count: Invalid value: \"\": needs to be unset");
        assertThat(body(noTime).at("/details/group").asString()).isEqualTo("events.k8s.io");

        MvcResult missing = send(get(NEW + "/nope"), null, null);
        assertThat(missing.getResponse().getStatus()).isEqualTo(404);
        assertThat(body(missing).get("message").asString()).isEqualTo("events.events.k8s.io \"nope\" not found");

        MvcResult wrongVersion = send(post(NEW), "application/json", newEvent("e.1", "e")
                .replace("\"apiVersion\":\"events.k8s.io/v1\"", "\"apiVersion\":\"v1\""));
        assertThat(wrongVersion.getResponse().getStatus()).isEqualTo(400);
        assertThat(body(wrongVersion).get("message").asString()).isEqualTo(
                "the API version in the data (v1) does not match the expected API version (events.k8s.io/v1)");
    }

    @Test
    void seriesPatchAsClientGoSendsItAndImmutableNote() throws Exception {
        send(post(NEW), "application/json", newEvent("f.1", "f"));
        MvcResult series = send(patch(NEW + "/f.1"), "application/strategic-merge-patch+json",
                "{\"series\":{\"count\":2,\"lastObservedTime\":\"2025-01-01T00:00:30.000000Z\"}}");
        assertThat(series.getResponse().getStatus()).as(series.getResponse().getContentAsString()).isEqualTo(200);
        assertThat(body(series).at("/series/count").asInt()).isEqualTo(2);
        assertThat(body(send(get(CORE + "/f.1"), null, null)).at("/series/lastObservedTime").asString())
                .isEqualTo("2025-01-01T00:00:30.000000Z");

        MvcResult note = send(patch(NEW + "/f.1"), "application/merge-patch+json", "{\"note\":\"changed\"}");
        assertThat(note.getResponse().getStatus()).isEqualTo(422);
        assertThat(body(note).get("message").asString())
                .isEqualTo("Event.events.k8s.io \"f.1\" is invalid: message: Invalid value: \"changed\": "
                        + "field is immutable");

        MvcResult shortSeries = send(patch(NEW + "/f.1"), "application/merge-patch+json",
                "{\"series\":{\"count\":1}}");
        assertThat(body(shortSeries).get("message").asString()).isEqualTo("Event.events.k8s.io \"f.1\" is invalid: "
                + "series.count: Invalid value: \"\": should be at least 2");

        MvcResult deleted = send(delete(NEW + "/f.1"), null, null);
        assertThat(deleted.getResponse().getStatus()).as(deleted.getResponse().getContentAsString()).isEqualTo(200);
        // the Event store does not return deleted objects: a Success Status naming the served group
        assertThat(body(deleted).get("status").asString()).isEqualTo("Success");
        assertThat(body(deleted).at("/details/group").asString()).isEqualTo("events.k8s.io");
        assertThat(body(deleted).at("/details/kind").asString()).isEqualTo("events");
        assertThat(body(deleted).at("/details/name").asString()).isEqualTo("f.1");
        assertThat(send(get(CORE + "/f.1"), null, null).getResponse().getStatus()).isEqualTo(404);
    }

    // pkg/apis/core/validation/events.go legacyValidateEvent: applies to core/v1 writes too
    @Test
    void coreEventWithEventTimeNeedsItsReportingFields() throws Exception {
        MvcResult r = send(post(CORE), "application/json", """
                {"metadata":{"name":"h.1"},"involvedObject":{"kind":"Pod","namespace":"default","name":"h"},
                 "eventTime":"2025-01-01T00:00:00.000000Z","reason":"Started","type":"Normal"}""");
        assertThat(r.getResponse().getStatus()).isEqualTo(422);
        // as kube: the empty controller also fails IsQualifiedName
        assertThat(body(r).get("message").asString()).startsWith("Event \"h.1\" is invalid: [reportingController: "
                + "Required value, reportingController: Invalid value: \"\": name part must be non-empty")
                .endsWith("reportingInstance: Required value, action: Required value]");
        MvcResult otherNs = send(post(CORE), "application/json", """
                {"metadata":{"name":"h.2"},"involvedObject":{"kind":"Pod","namespace":"elsewhere","name":"h"},
                 "reason":"Started","type":"Normal"}""");
        assertThat(body(otherNs).get("message").asString()).isEqualTo("Event \"h.2\" is invalid: "
                + "involvedObject.namespace: Invalid value: \"elsewhere\": does not match event.namespace");
    }

    @Test
    void discoveryAndTableAsForCoreEvents() throws Exception {
        JsonNode resources = body(send(get("/apis/events.k8s.io/v1"), null, null));
        assertThat(resources.at("/resources/0/name").asString()).isEqualTo("events");
        assertThat(resources.at("/resources/0/shortNames/0").asString()).isEqualTo("ev");
        assertThat(body(send(get("/openapi/v3/apis/events.k8s.io/v1"), null, null))
                .at("/components/schemas/io.k8s.api.events.v1.Event/properties/regarding/type").asString())
                .isEqualTo("object");

        send(post(NEW), "application/json", newEvent("g.1", "g"));
        JsonNode table = body(send(get(NEW).header("Accept", DiscoveryAndTableHttpIT.TABLE_ACCEPT)
                .param("fieldSelector", "regarding.name=g"), null, null));
        assertThat(table.get("kind").asString()).isEqualTo("Table");
        assertThat(table.at("/columnDefinitions/0/name").asString()).isEqualTo("Last Seen");
        JsonNode cells = table.at("/rows/0/cells");
        assertThat(cells.get(3).asString()).isEqualTo("raycluster/g");
        assertThat(cells.get(5).asString()).isEqualTo("raycluster-controller, raycluster-controller-host");
    }
}
