package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import tools.jackson.databind.JsonNode;

import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * kubectl's typed generators post protobuf: the bodies below are what kubectl 1.32 sent for
 * {@code kubectl create namespace x}, {@code create configmap cm1 --from-literal=a=b --from-literal=c=d} and
 * {@code create service clusterip s1 --tcp=80:8080}.
 */
@SpringBootTest(properties = "kuberay-sim.controllers=false")
@AutoConfigureMockMvc
class ProtobufBodyHttpIT {
    static final String PROTOBUF = "application/vnd.kubernetes.protobuf";
    static final String NAMESPACE = "6b3873000a0f0a02763112094e616d65737061636512190a110a017812001a0022002a0032003800"
            + "420012001a020a001a002200";
    static final String CONFIG_MAP = "6b3873000a0f0a0276311209436f6e6669674d617012250a130a03636d3112001a0022002a00"
            + "32003800420012060a016112016212060a01631201641a002200";
    static final String SERVICE = "6b3873000a0d0a02763112075365727669636512660a1d0a02733112001a0022002a0032003800"
            + "42005a090a036170701202733112410a1b0a0738302d38303830120354435018502207080010903f1a00280012090a0361707012"
            + "0273311a002209436c757374657249503a00420052005a00600068001a020a001a002200";

    @Autowired
    MockMvc mvc;

    JsonNode send(String uri, String hex, int expected) throws Exception {
        MvcResult r = mvc.perform(post(uri).contentType(PROTOBUF).accept(PROTOBUF + ",application/json")
                .content(HexFormat.of().parseHex(hex))).andReturn();
        String text = r.getResponse().getContentAsString();
        assertThat(r.getResponse().getStatus()).as(text).isEqualTo(expected);
        return Json.MAPPER.readTree(text);
    }

    @Test
    @DisplayName("kubectl create namespace / configmap / service (protobuf bodies) create the objects")
    void kubectlGeneratorsCreateObjects() throws Exception {
        JsonNode ns = send("/api/v1/namespaces", NAMESPACE, 201);
        assertThat(ns.at("/metadata/name").asString()).isEqualTo("x");
        assertThat(ns.at("/status/phase").asString()).isEqualTo("Active");

        JsonNode cm = send("/api/v1/namespaces/default/configmaps", CONFIG_MAP, 201);
        assertThat(cm.at("/metadata/name").asString()).isEqualTo("cm1");
        assertThat(cm.at("/data/a").asString()).isEqualTo("b");
        assertThat(cm.at("/data/c").asString()).isEqualTo("d");

        JsonNode svc = send("/api/v1/namespaces/default/services", SERVICE, 201);
        assertThat(svc.at("/spec/type").asString()).isEqualTo("ClusterIP");
        assertThat(svc.at("/spec/selector/app").asString()).isEqualTo("s1");
        assertThat(svc.at("/spec/ports/0/name").asString()).isEqualTo("80-8080");
        assertThat(svc.at("/spec/ports/0/port").asInt()).isEqualTo(80);
        assertThat(svc.at("/spec/ports/0/targetPort").asInt()).isEqualTo(8080);
        assertThat(svc.at("/spec/ports/0/protocol").asString()).isEqualTo("TCP");

        MvcResult got = mvc.perform(get("/api/v1/namespaces/x")).andReturn();
        assertThat(got.getResponse().getStatus()).isEqualTo(200);
    }

    @Test
    @DisplayName("a protobuf kind that is not mapped is 415, a truncated body 400, never a 500")
    void unsupportedAndMalformed() throws Exception {
        String pod = CONFIG_MAP.replace("436f6e6669674d6170", "506f64000000000000"); // an unmapped kind
        JsonNode unsupported = send("/api/v1/namespaces/default/pods", pod, 415);
        assertThat(unsupported.get("reason").asString()).isEqualTo("UnsupportedMediaType");
        JsonNode truncated = send("/api/v1/namespaces/default/configmaps", CONFIG_MAP.substring(0, 60), 400);
        assertThat(truncated.get("reason").asString()).isEqualTo("BadRequest");
    }
}
