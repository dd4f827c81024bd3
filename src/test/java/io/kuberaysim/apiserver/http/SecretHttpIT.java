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

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;

/**
 * core/v1 Secrets as kube-apiserver serves them: base64 data decoded as Go decodes {@code []byte}, write-only
 * stringData, the Opaque default, the type-specific required keys, immutable type and immutable Secrets.
 */
@SpringBootTest(properties = "kuberay-sim.controllers=false")
@AutoConfigureMockMvc
class SecretHttpIT {
    static final String SECRETS = "/api/v1/namespaces/default/secrets";

    @Autowired
    MockMvc mvc;

    MvcResult send(MockHttpServletRequestBuilder b, String contentType, String body) throws Exception {
        if (body != null) {
            b.contentType(contentType).content(body);
        }
        return mvc.perform(b).andReturn();
    }

    MvcResult create(String body) throws Exception {
        return send(post(SECRETS), "application/json", body);
    }

    static JsonNode body(MvcResult r) throws Exception {
        return Json.MAPPER.readTree(r.getResponse().getContentAsString());
    }

    static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    int status(String name) throws Exception {
        return send(get(SECRETS + "/" + name), null, null).getResponse().getStatus();
    }

    @Test
    void stringDataIsFoldedIntoDataAndNeverReadBackAndTheTypeDefaultsToOpaque() throws Exception {
        MvcResult created = send(post(SECRETS + "?fieldManager=tester"), "application/json", """
                {"apiVersion":"v1","kind":"Secret","metadata":{"name":"redis-password"},
                 "data":{"user":"%s","password":"%s"},"stringData":{"password":"5241590000000000"}}"""
                .formatted(b64("default"), b64("old")));
        assertThat(created.getResponse().getStatus()).as(created.getResponse().getContentAsString()).isEqualTo(201);
        JsonNode secret = body(created);
        assertThat(secret.path("type").asString()).isEqualTo("Opaque");
        assertThat(secret.has("stringData")).isFalse();
        assertThat(secret.at("/data/user").asString()).isEqualTo(b64("default"));
        assertThat(secret.at("/data/password").asString()).isEqualTo(b64("5241590000000000"));
        assertThat(secret.at("/metadata/managedFields/0/fieldsV1/f:data").has("f:password")).isTrue();
        assertThat(secret.at("/metadata/managedFields/0/fieldsV1").has("f:stringData")).isFalse();

        JsonNode read = body(send(get(SECRETS + "/redis-password"), null, null));
        assertThat(read.path("data")).isEqualTo(secret.path("data"));
        assertThat(read.has("stringData")).isFalse();

        MvcResult patched = send(patch(SECRETS + "/redis-password"), "application/merge-patch+json",
                "{\"stringData\":{\"user\":\"admin\"}}");
        assertThat(patched.getResponse().getStatus()).isEqualTo(200);
        assertThat(body(patched).at("/data/user").asString()).isEqualTo(b64("admin"));
        assertThat(body(patched).has("stringData")).isFalse();

        JsonNode table = body(send(get(SECRETS).header("Accept", DiscoveryAndTableHttpIT.TABLE_ACCEPT), null, null));
        assertThat(table.at("/columnDefinitions/1/name").asString()).isEqualTo("Type");
        assertThat(table.at("/columnDefinitions/2/name").asString()).isEqualTo("Data");
        assertThat(table.at("/rows/0/cells/1").asString()).isEqualTo("Opaque");
        assertThat(table.at("/rows/0/cells/2").asInt()).isEqualTo(2);

        JsonNode discovery = body(send(get("/api/v1"), null, null));
        assertThat(discovery.path("resources").toString()).contains("\"name\":\"secrets\"", "\"kind\":\"Secret\"");
    }

    @Test
    void dataThatIsNotBase64IsABadRequestAsGoDecodesIt() throws Exception {
        MvcResult bad = create("{\"metadata\":{\"name\":\"bad64\"},\"data\":{\"token\":\"hello world\"}}");
        assertThat(bad.getResponse().getStatus()).isEqualTo(400);
        assertThat(body(bad).path("reason").asString()).isEqualTo("BadRequest");
        assertThat(body(bad).path("message").asString()).isEqualTo(
                "Secret in version \"v1\" cannot be handled as a Secret: illegal base64 data at input byte 5");
        MvcResult number = create("{\"metadata\":{\"name\":\"bad64\"},\"data\":{\"token\":42}}");
        assertThat(body(number).path("message").asString()).isEqualTo("Secret in version \"v1\" cannot be handled "
                + "as a Secret: json: cannot unmarshal number into Go struct field Secret.data of type []uint8");
        MvcResult flag = create("{\"metadata\":{\"name\":\"bad64\"},\"immutable\":\"yes\"}");
        assertThat(flag.getResponse().getStatus()).isEqualTo(400);
        assertThat(body(flag).path("message").asString()).endsWith("Secret.immutable of type bool");
        assertThat(status("bad64")).isEqualTo(404);
    }

    @Test
    void keysSizeAndTheRequiredKeysOfEachWellKnownType() throws Exception {
        MvcResult key = create("{\"metadata\":{\"name\":\"k\"},\"stringData\":{\"a b\":\"x\"}}");
        assertThat(key.getResponse().getStatus()).isEqualTo(422);
        assertThat(body(key).at("/details/causes/0/field").asString()).isEqualTo("data[a b]");
        assertThat(body(key).path("message").asString()).startsWith("Secret \"k\" is invalid: data[a b]: Invalid value: "
                + "\"a b\": a valid config key must consist of alphanumeric characters");

        MvcResult tls = create("{\"metadata\":{\"name\":\"t\"},\"type\":\"kubernetes.io/tls\","
                + "\"stringData\":{\"ca.crt\":\"x\"}}");
        assertThat(tls.getResponse().getStatus()).isEqualTo(422);
        assertThat(body(tls).path("message").asString()).isEqualTo("Secret \"t\" is invalid: "
                + "[data[tls.crt]: Required value, data[tls.key]: Required value]");

        MvcResult basic = create("{\"metadata\":{\"name\":\"b\"},\"type\":\"kubernetes.io/basic-auth\"}");
        assertThat(body(basic).path("message").asString()).isEqualTo("Secret \"b\" is invalid: "
                + "[data[%s][username]: Required value, data[%s][password]: Required value]");
        assertThat(create("{\"metadata\":{\"name\":\"b\"},\"type\":\"kubernetes.io/basic-auth\","
                + "\"stringData\":{\"password\":\"\"}}").getResponse().getStatus()).isEqualTo(201);

        MvcResult docker = create("{\"metadata\":{\"name\":\"d\"},\"type\":\"kubernetes.io/dockerconfigjson\","
                + "\"stringData\":{\".dockerconfigjson\":\"[1]\"}}");
        assertThat(docker.getResponse().getStatus()).isEqualTo(422);
        assertThat(body(docker).path("message").asString()).isEqualTo("Secret \"d\" is invalid: data[.dockerconfigjson]:"
                + " Invalid value: \"<secret contents redacted>\": json: cannot unmarshal array into Go value of type "
                + "map[string]interface {}");
        assertThat(create("{\"metadata\":{\"name\":\"d\"},\"type\":\"kubernetes.io/dockerconfigjson\","
                + "\"stringData\":{\".dockerconfigjson\":\"{\\\"auths\\\":{}}\"}}").getResponse().getStatus())
                .isEqualTo(201);

        MvcResult token = create("{\"metadata\":{\"name\":\"sa\"},\"type\":\"kubernetes.io/service-account-token\"}");
        assertThat(body(token).at("/details/causes/0/field").asString())
                .isEqualTo("metadata.annotations[kubernetes.io/service-account.name]");

        MvcResult big = create("{\"metadata\":{\"name\":\"big\"},\"data\":{\"blob\":\""
                + Base64.getEncoder().encodeToString(new byte[1024 * 1024 + 1]) + "\"}}");
        assertThat(big.getResponse().getStatus()).isEqualTo(422);
        assertThat(body(big).path("message").asString())
                .isEqualTo("Secret \"big\" is invalid: data: Too long: may not be more than 1048576 bytes");
        for (String name : new String[] {"k", "t", "sa", "big"}) {
            assertThat(status(name)).as(name).isEqualTo(404);
        }
    }

    @Test
    void theTypeNeverChangesAndAnImmutableSecretKeepsItsData() throws Exception {
        assertThat(create("{\"metadata\":{\"name\":\"frozen\"},\"immutable\":true,\"stringData\":{\"k\":\"v\"}}")
                .getResponse().getStatus()).isEqualTo(201);
        MvcResult changed = send(patch(SECRETS + "/frozen"), "application/merge-patch+json",
                "{\"stringData\":{\"k\":\"w\"}}");
        assertThat(changed.getResponse().getStatus()).isEqualTo(422);
        assertThat(body(changed).path("message").asString()).isEqualTo("Secret \"frozen\" is invalid: data: "
                + "Forbidden: field is immutable when `immutable` is set");
        MvcResult thawed = send(patch(SECRETS + "/frozen"), "application/merge-patch+json", "{\"immutable\":false}");
        assertThat(body(thawed).at("/details/causes/0/field").asString()).isEqualTo("immutable");
        MvcResult labelled = send(patch(SECRETS + "/frozen"), "application/merge-patch+json",
                "{\"metadata\":{\"labels\":{\"team\":\"ray\"}}}");
        assertThat(labelled.getResponse().getStatus()).isEqualTo(200);
        assertThat(body(labelled).at("/data/k").asString()).isEqualTo(b64("v"));

        JsonNode opaque = body(create("{\"metadata\":{\"name\":\"typed\"},\"stringData\":{\"tls.crt\":\"c\","
                + "\"tls.key\":\"k\"}}"));
        ((tools.jackson.databind.node.ObjectNode) opaque).put("type", "kubernetes.io/tls");
        MvcResult retyped = send(put(SECRETS + "/typed"), "application/json", opaque.toString());
        assertThat(retyped.getResponse().getStatus()).isEqualTo(422);
        assertThat(body(retyped).path("message").asString()).isEqualTo("Secret \"typed\" is invalid: type: "
                + "Invalid value: \"kubernetes.io/tls\": field is immutable");
        assertThat(body(send(get(SECRETS + "/typed"), null, null)).path("type").asString()).isEqualTo("Opaque");
    }
}
