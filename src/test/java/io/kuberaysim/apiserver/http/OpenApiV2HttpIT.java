package io.kuberaysim.apiserver.http;

import com.google.protobuf.CodedInputStream;
import io.kuberaysim.api.Json;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import tools.jackson.databind.JsonNode;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;

/**
 * {@code /openapi/v2} answers a Swagger 2.0 document without paths or definitions, in the protobuf form client-go
 * asks for (with a content type Go's media-type parser reads) and in JSON.
 */
@SpringBootTest(properties = "kuberay-sim.controllers=false")
@AutoConfigureMockMvc
class OpenApiV2HttpIT {
    @Autowired
    MockMvc mvc;

    @Test
    void protobufAsClientGoAsksForIt() throws Exception {
        MvcResult r = mvc.perform(get("/openapi/v2")
                .header("Accept", "application/com.github.proto-openapi.spec.v2@v1.0+protobuf")).andReturn();
        assertThat(r.getResponse().getStatus()).isEqualTo(200);
        assertThat(r.getResponse().getContentType())
                .isEqualTo("application/com.github.proto-openapi.spec.v2.v1.0+protobuf").doesNotContain("@");
        Map<Integer, byte[]> document = fields(r.getResponse().getContentAsByteArray());
        assertThat(document).containsOnlyKeys(1, 2, 8, 9); // swagger, info, paths, definitions
        assertThat(new String(document.get(1))).isEqualTo("2.0");
        Map<Integer, byte[]> info = fields(document.get(2));
        assertThat(new String(info.get(1))).isEqualTo("Kubernetes");
        assertThat(new String(info.get(2))).isEqualTo("v1.32.0");
        assertThat(document.get(8)).isEmpty();
        assertThat(document.get(9)).isEmpty();
    }

    @Test
    void jsonOtherwise() throws Exception {
        MvcResult r = mvc.perform(get("/openapi/v2")).andReturn();
        assertThat(r.getResponse().getStatus()).isEqualTo(200);
        assertThat(r.getResponse().getContentType()).startsWith("application/json");
        JsonNode doc = Json.MAPPER.readTree(r.getResponse().getContentAsString());
        assertThat(doc.path("swagger").asString()).isEqualTo("2.0");
        assertThat(doc.path("paths").isEmpty()).isTrue();
        assertThat(doc.path("definitions").isEmpty()).isTrue();
    }

    /** The length-delimited fields of a protobuf message by number (this document has no other wire type). */
    private static Map<Integer, byte[]> fields(byte[] message) throws Exception {
        Map<Integer, byte[]> out = new LinkedHashMap<>();
        CodedInputStream in = CodedInputStream.newInstance(message);
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            assertThat(tag & 7).as("wire type of field " + (tag >>> 3)).isEqualTo(2);
            out.put(tag >>> 3, in.readByteArray());
        }
        return out;
    }
}
