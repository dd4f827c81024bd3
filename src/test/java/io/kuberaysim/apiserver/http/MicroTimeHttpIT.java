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
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;

/**
 * metav1.MicroTime fields (a Lease's {@code acquireTime}/{@code renewTime}, an Event's {@code eventTime}) decode as Go's
 * {@code time.Parse} with six fractional digits decodes them. @kubernetes/client-node serializes its {@code Date}s with
 * three ({@code toISOString()}), so a Lease it read and writes back, or an Event it creates, is a 400 with Go's
 * parse error, as kube-apiserver answers it; six digits (what client-go writes) are taken.
 */
@SpringBootTest(properties = "kuberay-sim.controllers=false")
@AutoConfigureMockMvc
class MicroTimeHttpIT {
    static final String LEASES = "/apis/coordination.k8s.io/v1/namespaces/default/leases";
    static final String EVENTS = "/api/v1/namespaces/default/events";

    @Autowired
    MockMvc mvc;

    MvcResult send(MockHttpServletRequestBuilder request, String body) throws Exception {
        return mvc.perform(request.contentType("application/json").content(body)).andReturn();
    }

    static JsonNode body(MvcResult r) throws Exception {
        return Json.MAPPER.readTree(r.getResponse().getContentAsString());
    }

    @Test
    void aLeaseWrittenBackWithMillisecondTimesIsABadRequestInGosWords() throws Exception {
        MvcResult created = send(post(LEASES), """
                {"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"js-elector"},
                 "spec":{"holderIdentity":"a","leaseDurationSeconds":15,
                         "acquireTime":"2026-12-02T22:13:44.231332Z","renewTime":"2026-12-02T22:13:44.231332Z"}}""");
        assertThat(created.getResponse().getStatus()).as(created.getResponse().getContentAsString()).isEqualTo(201);
        String rv = body(created).at("/metadata/resourceVersion").asString();

        // what client-node sends for replaceNamespacedLease after a readNamespacedLease (Date.toISOString())
        MvcResult renewed = send(put(LEASES + "/js-elector"), """
                {"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"js-elector","namespace":"default",
                 "resourceVersion":"%s"},"spec":{"holderIdentity":"a","leaseDurationSeconds":15,
                 "acquireTime":"2026-12-02T22:13:44.231Z","renewTime":"2026-12-02T22:13:59.103Z"}}""".formatted(rv));

        assertThat(renewed.getResponse().getStatus()).isEqualTo(400);
        assertThat(body(renewed).get("reason").asString()).isEqualTo("BadRequest");
        assertThat(body(renewed).get("message").asString()).isEqualTo("Lease in version \"v1\" cannot be handled as a "
                + "Lease: parsing time \"2026-12-02T22:13:44.231Z\" as \"2006-01-02T15:04:05.000000Z07:00\": "
                + "cannot parse \".231Z\" as \".000000\"");
    }

    @Test
    void aLeaseTimeWithANumericOffsetIsTakenAsGoTakesIt() throws Exception {
        String lease = """
                {"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"%s"},
                 "spec":{"holderIdentity":"a","renewTime":"%s"}}""";

        MvcResult east = send(post(LEASES), lease.formatted("east", "2026-12-02T23:13:44.231332+01:00"));
        MvcResult west = send(post(LEASES), lease.formatted("west", "2026-12-02T17:43:44.231332-05:30"));
        MvcResult shortOffset = send(post(LEASES), lease.formatted("short", "2026-12-02T23:13:44.231332+01"));

        assertThat(east.getResponse().getStatus()).as(east.getResponse().getContentAsString()).isEqualTo(201);
        assertThat(body(east).at("/spec/renewTime").asString()).isEqualTo("2026-12-02T23:13:44.231332+01:00");
        assertThat(west.getResponse().getStatus()).as(west.getResponse().getContentAsString()).isEqualTo(201);
        assertThat(shortOffset.getResponse().getStatus()).isEqualTo(400);
        assertThat(body(shortOffset).get("message").asString()).startsWith("Lease in version \"v1\" cannot be "
                + "handled as a Lease: parsing time \"2026-12-02T23:13:44.231332+01\" as "
                + "\"2006-01-02T15:04:05.000000Z07:00\": cannot parse \"+01\" as \"Z07:00\"");
    }

    @Test
    void anEventTimeIsParsedAsAMicroTime() throws Exception {
        String event = """
                {"metadata":{"name":"%s"},"involvedObject":{"kind":"Pod","namespace":"default","name":"p"},
                 "reason":"Started","type":"Normal","eventTime":"%s","reportingComponent":"js-operator",
                 "reportingInstance":"js-operator-1","action":"Start"}""";

        MvcResult milliseconds = send(post(EVENTS), event.formatted("ms.1", "2026-12-02T22:13:44.231Z"));
        MvcResult seconds = send(post(EVENTS), event.formatted("s.1", "2026-12-02T22:13:44Z"));
        MvcResult number = send(post(EVENTS), event.formatted("n.1", "x").replace("\"x\"", "1764713624"));
        MvcResult micro = send(post(EVENTS), event.formatted("us.1", "2026-12-02T22:13:44.231000Z"));

        assertThat(milliseconds.getResponse().getStatus()).isEqualTo(400);
        assertThat(body(milliseconds).get("message").asString()).isEqualTo("Event in version \"v1\" cannot be handled "
                + "as a Event: parsing time \"2026-12-02T22:13:44.231Z\" as \"2006-01-02T15:04:05.000000Z07:00\": "
                + "cannot parse \".231Z\" as \".000000\"");
        assertThat(body(seconds).get("message").asString()).endsWith(": cannot parse \"Z\" as \".000000\"");
        assertThat(body(number).get("message").asString()).isEqualTo("Event in version \"v1\" cannot be handled "
                + "as a Event: json: cannot unmarshal number into Go value of type string");
        assertThat(micro.getResponse().getStatus()).as(micro.getResponse().getContentAsString()).isEqualTo(201);
        assertThat(body(micro).get("eventTime").asString()).isEqualTo("2026-12-02T22:13:44.231000Z");
    }
}
