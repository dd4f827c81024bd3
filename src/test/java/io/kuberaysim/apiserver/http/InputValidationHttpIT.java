package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.HttpMethod;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import tools.jackson.databind.JsonNode;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.request;

/**
 * What kube-apiserver refuses before a controller could choke on it: built-in fields of the wrong type or with
 * malformed quantities, incomplete owner references, bad finalizers, out-of-range int32 fields of Ray kinds, status
 * writes that break the schema, patches that change apiVersion or kind, and DELETE options of the wrong shape.
 */
@SpringBootTest(properties = "kuberay-sim.controllers=false")
@AutoConfigureMockMvc
class InputValidationHttpIT {
    static final String PODS = "/api/v1/namespaces/default/pods";
    static final String NODES = "/api/v1/nodes";
    static final String RC = "/apis/ray.io/v1/namespaces/default/rayclusters";
    static final String QUANTITY_ERROR = "quantities must match the regular expression "
            + "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

    @Autowired
    MockMvc mvc;

    record Reply(int code, JsonNode body, List<String> warnings) {
        String message() {
            return body.path("message").asString();
        }
    }

    Reply call(HttpMethod method, String uri, String contentType, String body) throws Exception {
        MockHttpServletRequestBuilder b = request(method, uri);
        if (contentType != null) {
            b.contentType(contentType);
        }
        if (body != null) {
            b.content(body);
        }
        MvcResult r = mvc.perform(b).andReturn();
        String text = r.getResponse().getContentAsString();
        return new Reply(r.getResponse().getStatus(), text.isEmpty() ? null : Json.MAPPER.readTree(text),
                r.getResponse().getHeaders("Warning"));
    }

    static String pod(String name, String specExtra, String containerExtra) {
        return "{\"metadata\":{\"name\":\"" + name + "\"},\"spec\":{" + specExtra
                + "\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"" + containerExtra + "}]}}";
    }

    static String rayCluster(String name, String replicas, String workerResources) {
        return """
                {"metadata":{"name":"%s"},"spec":{"headGroupSpec":{"template":{"spec":{"containers":[
                  {"name":"ray-head","image":"rayproject/ray:2.9.0"}]}}},
                 "workerGroupSpecs":[{"groupName":"g","replicas":%s,"minReplicas":0,"maxReplicas":10,
                  "template":{"spec":{"containers":[{"name":"w","image":"rayproject/ray:2.9.0"%s}]}}}]}}
                """.formatted(name, replicas, workerResources);
    }

    @BeforeEach
    void clean() throws Exception {
        for (String uri : List.of(PODS, RC)) {
            call(HttpMethod.DELETE, uri, null, null);
        }
    }

    @Test
    @DisplayName("a Pod whose cpu is 'many' is a 400 with kube-apiserver's quantity message, and is not stored")
    void malformedQuantityInAPod() throws Exception {
        Reply r = call(HttpMethod.POST, PODS, "application/json",
                pod("many", "", ",\"resources\":{\"requests\":{\"cpu\":\"many\"}}"));
        assertThat(r.code()).isEqualTo(400);
        assertThat(r.body().path("reason").asString()).isEqualTo("BadRequest");
        assertThat(r.message()).isEqualTo("Pod in version \"v1\" cannot be handled as a Pod: " + QUANTITY_ERROR);
        assertThat(call(HttpMethod.GET, PODS + "/many", null, null).code()).isEqualTo(404);

        Reply suffix = call(HttpMethod.POST, PODS, "application/json",
                pod("suffix", "", ",\"resources\":{\"limits\":{\"memory\":\"1K\"}}"));
        assertThat(suffix.message()).endsWith("unable to parse quantity's suffix");
    }

    @Test
    @DisplayName("requests above limits, negative amounts and fractional GPUs are 422 with field causes")
    void resourceRequirements() throws Exception {
        Reply r = call(HttpMethod.POST, PODS, "application/json", pod("req", "",
                ",\"resources\":{\"requests\":{\"cpu\":\"2\",\"memory\":\"-1Gi\"},\"limits\":{\"cpu\":\"1\","
                        + "\"nvidia.com/gpu\":\"0.5\"}}"));
        assertThat(r.code()).isEqualTo(422);
        assertThat(r.message()).isEqualTo("Pod \"req\" is invalid: ["
                + "spec.containers[0].resources.limits[nvidia.com/gpu]: Invalid value: \"0.5\": must be an integer, "
                + "spec.containers[0].resources.requests: Invalid value: \"2\": must be less than or equal to cpu "
                + "limit of 1, "
                + "spec.containers[0].resources.requests[memory]: Invalid value: \"-1Gi\": must be greater than or "
                + "equal to 0]");
        assertThat(r.body().at("/details/causes")).hasSize(3);
    }

    @Test
    @DisplayName("ConfigMap keys that cannot be file names, or are in data and binaryData, are 422 (ValidateConfigMap)")
    void configMapKeys() throws Exception {
        String uri = "/api/v1/namespaces/default/configmaps";
        Reply r = call(HttpMethod.POST, uri, "application/json", "{\"metadata\":{\"name\":\"keys\"},"
                + "\"data\":{\"bad key\":\"v\",\"..x\":\"v\",\"ok\":\"v\",\"same\":\"v\"},"
                + "\"binaryData\":{\"same\":\"dg==\"}}");
        assertThat(r.code()).isEqualTo(422);
        assertThat(r.body().path("reason").asString()).isEqualTo("Invalid");
        assertThat(r.message()).isEqualTo("ConfigMap \"keys\" is invalid: ["
                + "data[bad key]: Invalid value: \"bad key\": a valid config key must consist of alphanumeric "
                + "characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for "
                + "validation is '[-._a-zA-Z0-9]+'), "
                + "data[..x]: Invalid value: \"..x\": must not start with '..', "
                + "binaryData[same]: Invalid value: \"same\": duplicate of key present in data]");
        assertThat(r.body().at("/details/causes/0/field").asString()).isEqualTo("data[bad key]");
        assertThat(call(HttpMethod.GET, uri + "/keys", null, null).code()).isEqualTo(404);

        assertThat(call(HttpMethod.POST, uri, "application/json",
                "{\"metadata\":{\"name\":\"fine\"},\"data\":{\"app.properties\":\"a=1\",\"KEY_2\":\"v\"}}").code())
                .isEqualTo(201);
        assertThat(call(HttpMethod.DELETE, uri + "/fine", null, null).code()).isEqualTo(200);

        Reply big = call(HttpMethod.POST, uri, "application/json",
                "{\"metadata\":{\"name\":\"big\"},\"data\":{\"k\":\"" + "x".repeat(1024 * 1024) + "\"}}");
        assertThat(big.code()).isEqualTo(422);
        assertThat(big.message()).isEqualTo("ConfigMap \"big\" is invalid: []: Too long: may not be more than "
                + "1048576 bytes");
    }

    @Test
    @DisplayName("a Pod with terminationGracePeriodSeconds 'soon' is a 400; a negative period is a warning and counts as 1")
    void terminationGracePeriod() throws Exception {
        Reply soon = call(HttpMethod.POST, PODS, "application/json",
                pod("soon", "\"terminationGracePeriodSeconds\":\"soon\",", ""));
        assertThat(soon.code()).isEqualTo(400);
        assertThat(soon.message()).isEqualTo("Pod in version \"v1\" cannot be handled as a Pod: json: cannot "
                + "unmarshal string into Go struct field PodSpec.spec.terminationGracePeriodSeconds of type int64");

        Reply negative = call(HttpMethod.POST, PODS, "application/json",
                pod("negative", "\"terminationGracePeriodSeconds\":-5,", ""));
        assertThat(negative.code()).isEqualTo(201);
        assertThat(negative.warnings()).containsExactly("299 - \"spec.terminationGracePeriodSeconds: must be >= 0; "
                + "negative values are invalid and will be treated as 1\"");
        assertThat(call(HttpMethod.DELETE, PODS + "/negative", null, null).code()).isEqualTo(200);
    }

    @Test
    @DisplayName("an owner reference without uid, and unqualified or malformed finalizers, are 422")
    void ownerReferencesAndFinalizers() throws Exception {
        Reply owner = call(HttpMethod.POST, PODS, "application/json", "{\"metadata\":{\"name\":\"owned\","
                + "\"ownerReferences\":[{\"apiVersion\":\"ray.io/v1\",\"kind\":\"RayCluster\",\"name\":\"x\"}]},"
                + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}");
        assertThat(owner.code()).isEqualTo(422);
        assertThat(owner.message()).isEqualTo(
                "Pod \"owned\" is invalid: metadata.ownerReferences.uid: Invalid value: \"\": uid must not be empty");

        Reply uidType = call(HttpMethod.POST, PODS, "application/json", "{\"metadata\":{\"name\":\"owned\","
                + "\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"name\":\"x\",\"uid\":5}]},"
                + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}");
        assertThat(uidType.code()).isEqualTo(400);
        assertThat(uidType.message()).endsWith("json: cannot unmarshal number into Go struct field "
                + "OwnerReference.metadata.ownerReferences.uid of type types.UID");

        Reply unqualified = call(HttpMethod.POST, PODS, "application/json",
                "{\"metadata\":{\"name\":\"fin\",\"finalizers\":[\"cleanup\"]},"
                        + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}");
        assertThat(unqualified.code()).isEqualTo(422);
        assertThat(unqualified.message()).isEqualTo("Pod \"fin\" is invalid: metadata.finalizers: Invalid value: "
                + "\"cleanup\": name is neither a standard finalizer name nor is it fully qualified");

        Reply malformed = call(HttpMethod.POST, PODS, "application/json",
                "{\"metadata\":{\"name\":\"fin\",\"finalizers\":[\"a b/c\"]},"
                        + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}");
        assertThat(malformed.code()).isEqualTo(422);

        Reply custom = call(HttpMethod.POST, RC, "application/json",
                rayCluster("fin", "1", "").replace("{\"name\":\"fin\"}", "{\"name\":\"fin\",\"finalizers\":[\"cleanup\"]}"));
        assertThat(custom.code()).isEqualTo(201);
        assertThat(custom.warnings()).containsExactly("299 - \"metadata.finalizers: \\\"cleanup\\\": prefer a "
                + "domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other "
                + "finalizer writers\"");
    }

    @Test
    @DisplayName("a Node with a malformed or negative capacity is refused, also through its status subresource")
    void nodeCapacity() throws Exception {
        String node = "{\"metadata\":{\"name\":\"n1\"},\"status\":{\"capacity\":{\"cpu\":\"%s\"},"
                + "\"allocatable\":{\"cpu\":\"%s\"}}}";
        Reply bad = call(HttpMethod.POST, NODES, "application/json", node.formatted("many", "1"));
        assertThat(bad.code()).isEqualTo(400);
        assertThat(bad.message()).isEqualTo("Node in version \"v1\" cannot be handled as a Node: " + QUANTITY_ERROR);

        assertThat(call(HttpMethod.POST, NODES, "application/json", node.formatted("4", "4")).code()).isEqualTo(201);
        assertThat(call(HttpMethod.PATCH, NODES + "/n1/status", "application/merge-patch+json",
                "{\"status\":{\"capacity\":{\"cpu\":\"4\"},\"allocatable\":{\"cpu\":\"4\"}}}").code()).isEqualTo(200);
        Reply negative = call(HttpMethod.PATCH, NODES + "/n1/status", "application/merge-patch+json",
                "{\"status\":{\"allocatable\":{\"cpu\":\"-1\"}}}");
        assertThat(negative.code()).isEqualTo(422);
        assertThat(negative.message()).isEqualTo("Node \"n1\" is invalid: status.allocatable.cpu: Invalid value: "
                + "\"-1\": must be greater than or equal to 0");
        Reply malformed = call(HttpMethod.PATCH, NODES + "/n1/status", "application/merge-patch+json",
                "{\"status\":{\"allocatable\":{\"cpu\":\"lots\"}}}");
        assertThat(malformed.code()).isEqualTo(422);
        assertThat(malformed.body().at("/details/causes/0/field").asString()).isEqualTo("patch");
        assertThat(malformed.message()).endsWith(QUANTITY_ERROR);
        assertThat(call(HttpMethod.GET, NODES + "/n1", null, null).body().at("/status/allocatable/cpu").asString())
                .isEqualTo("4");
        call(HttpMethod.DELETE, NODES + "/n1", null, null);
    }

    @Test
    @DisplayName("int32 fields of a RayCluster hold only int32 values: 2147483648 and 1e30 are 422")
    void int32Range() throws Exception {
        Reply big = call(HttpMethod.POST, RC, "application/json", rayCluster("big", "2147483648", ""));
        assertThat(big.code()).isEqualTo(422);
        assertThat(big.message()).isEqualTo("RayCluster.ray.io \"big\" is invalid: spec.workerGroupSpecs[0].replicas: "
                + "Invalid value: 2147483648: spec.workerGroupSpecs[0].replicas in body should be less than or equal "
                + "to 2147483647");
        assertThat(call(HttpMethod.POST, RC, "application/json", rayCluster("huge", "1e30", "")).code())
                .isEqualTo(422);
        assertThat(call(HttpMethod.GET, RC + "/big", null, null).code()).isEqualTo(404);
    }

    @Test
    @DisplayName("a RayCluster pod template with a malformed quantity is 422 with the CRD pattern")
    void rayTemplateQuantity() throws Exception {
        Reply r = call(HttpMethod.POST, RC, "application/json",
                rayCluster("tq", "1", ",\"resources\":{\"limits\":{\"cpu\":\"many\"}}"));
        assertThat(r.code()).isEqualTo(422);
        String field = "spec.workerGroupSpecs[0].template.spec.containers[0].resources.limits.cpu";
        assertThat(r.body().at("/details/causes/0/field").asString()).isEqualTo(field);
        assertThat(r.message()).contains(field + ": Invalid value: \"many\": " + field + " in body should match '^(\\+|-)?");

        Reply type = call(HttpMethod.POST, RC, "application/json", rayCluster("tt", "1", ",\"image\":5")
                .replace("\"image\":\"rayproject/ray:2.9.0\",\"image\":5", "\"image\":5"));
        assertThat(type.code()).isEqualTo(422);
        assertThat(type.message()).contains("spec.workerGroupSpecs[0].template.spec.containers[0].image in body "
                + "must be of type string: \"integer\"");
    }

    @Test
    @DisplayName("a status write is checked against the status schema: wrong types are 422 and nothing changes")
    void statusSchema() throws Exception {
        assertThat(call(HttpMethod.POST, RC, "application/json", rayCluster("st", "1", "")).code()).isEqualTo(201);
        Reply r = call(HttpMethod.PATCH, RC + "/st/status", "application/merge-patch+json",
                "{\"status\":{\"state\":5,\"conditions\":\"x\"}}");
        assertThat(r.code()).isEqualTo(422);
        assertThat(r.body().at("/details/causes")).extracting(c -> c.get("field").asString())
                .contains("status.state", "status.conditions");
        assertThat(r.message()).contains("status.conditions in body must be of type array: \"string\"");
        assertThat(call(HttpMethod.GET, RC + "/st", null, null).body().has("status")).isFalse();

        Reply unknown = call(HttpMethod.PATCH, RC + "/st/status", "application/merge-patch+json",
                "{\"status\":{\"state\":\"ready\",\"bogus\":1}}");
        assertThat(unknown.code()).isEqualTo(200);
        assertThat(unknown.warnings()).containsExactly("299 - \"unknown field \\\"status.bogus\\\"\"");
        assertThat(unknown.body().at("/status").has("bogus")).isFalse();
    }

    @Test
    @DisplayName("PATCH may not change or remove apiVersion or kind; a built-in gets removed ones back")
    void typeMetaIsImmutable() throws Exception {
        assertThat(call(HttpMethod.POST, RC, "application/json", rayCluster("tm", "1", "")).code()).isEqualTo(201);
        Reply version = call(HttpMethod.PATCH, RC + "/tm", "application/merge-patch+json", "{\"apiVersion\":\"ray.io/v2\"}");
        assertThat(version.code()).isEqualTo(422);
        assertThat(version.message()).isEqualTo("RayCluster.ray.io \"tm\" is invalid: apiVersion: Invalid value: "
                + "\"ray.io/v2\": must be ray.io/v1");
        Reply kind = call(HttpMethod.PATCH, RC + "/tm", "application/json-patch+json",
                "[{\"op\":\"remove\",\"path\":\"/kind\"}]");
        assertThat(kind.code()).isEqualTo(422);
        assertThat(kind.message()).isEqualTo("RayCluster.ray.io \"tm\" is invalid: kind: Invalid value: \"\": must be "
                + "RayCluster");
        Reply status = call(HttpMethod.PATCH, RC + "/tm/status", "application/merge-patch+json",
                "{\"apiVersion\":\"ray.io/v2\",\"status\":{\"state\":\"ready\"}}");
        assertThat(status.code()).isEqualTo(422);
        assertThat(call(HttpMethod.GET, RC + "/tm", null, null).body().get("apiVersion").asString())
                .isEqualTo("ray.io/v1");

        assertThat(call(HttpMethod.POST, PODS, "application/json", pod("tm", "", "")).code()).isEqualTo(201);
        Reply removed = call(HttpMethod.PATCH, PODS + "/tm", "application/merge-patch+json",
                "{\"apiVersion\":null,\"kind\":null,\"metadata\":{\"labels\":{\"a\":\"b\"}}}");
        assertThat(removed.code()).isEqualTo(200);
        assertThat(removed.body().get("apiVersion").asString()).isEqualTo("v1");
        assertThat(removed.body().get("kind").asString()).isEqualTo("Pod");
        Reply changed = call(HttpMethod.PATCH, PODS + "/tm", "application/merge-patch+json", "{\"kind\":\"Service\"}");
        assertThat(changed.code()).isEqualTo(422);
        assertThat(changed.message()).isEqualTo("Pod \"tm\" is invalid: kind: Invalid value: \"Service\": must be Pod");
    }

    @Test
    @DisplayName("a JSON patch list sent as a merge patch (the Python client's patch_namespaced_custom_object) gets "
            + "kube-apiserver's decoding error and changes nothing")
    void jsonPatchListSentAsMergePatch() throws Exception {
        assertThat(call(HttpMethod.POST, RC, "application/json", rayCluster("mp", "1", "")).code()).isEqualTo(201);
        String before = call(HttpMethod.GET, RC + "/mp", null, null).body().at("/metadata/resourceVersion").asString();

        Reply list = call(HttpMethod.PATCH, RC + "/mp", "application/merge-patch+json",
                "[{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{\"a\":\"b\"}}]");
        assertThat(list.code()).isEqualTo(400);
        assertThat(list.body().get("reason").asString()).isEqualTo("BadRequest");
        assertThat(list.message()).isEqualTo("error decoding patch: json: cannot unmarshal array into Go value of "
                + "type map[string]interface {}");
        assertThat(call(HttpMethod.PATCH, RC + "/mp", "application/merge-patch+json", "\"x\"").message())
                .isEqualTo("error decoding patch: json: cannot unmarshal string into Go value of type "
                        + "map[string]interface {}");
        Reply nothing = call(HttpMethod.PATCH, RC + "/mp", "application/merge-patch+json", "null");
        assertThat(nothing.code()).isEqualTo(400);
        assertThat(nothing.message()).isEqualTo("Invalid JSON Patch");
        assertThat(call(HttpMethod.GET, RC + "/mp", null, null).body().at("/metadata/resourceVersion").asString())
                .isEqualTo(before);
    }

    @Test
    @DisplayName("DELETE options of the wrong shape are a 400 and nothing is deleted")
    void strictDeleteOptions() throws Exception {
        assertThat(call(HttpMethod.POST, RC, "application/json", rayCluster("keep", "1", "")).code()).isEqualTo(201);
        List<List<String>> cases = List.of(
                List.of("{\"dryRun\":\"All\"}",
                        "json: cannot unmarshal string into Go struct field DeleteOptions.dryRun of type []string"),
                List.of("{\"preconditions\":{\"uid\":5}}",
                        "json: cannot unmarshal number into Go struct field Preconditions.preconditions.uid of type "
                                + "types.UID"),
                List.of("{\"preconditions\":\"x\"}",
                        "json: cannot unmarshal string into Go struct field DeleteOptions.preconditions of type "
                                + "v1.Preconditions"),
                List.of("{\"gracePeriodSeconds\":\"0\"}",
                        "json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type "
                                + "int64"),
                List.of("{\"kind\":\"Pod\",\"apiVersion\":\"v1\"}", "decoded object cannot be converted to DeleteOptions"));
        for (List<String> c : cases) {
            Reply r = call(HttpMethod.DELETE, RC + "/keep", "application/json", c.get(0));
            assertThat(r.code()).as(c.get(0)).isEqualTo(400);
            assertThat(r.message()).as(c.get(0)).isEqualTo(c.get(1));
            assertThat(call(HttpMethod.GET, RC + "/keep", null, null).code()).as(c.get(0)).isEqualTo(200);
        }
        Reply dryRun = call(HttpMethod.DELETE, RC + "/keep", "application/json",
                "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"dryRun\":[\"All\"]}");
        assertThat(dryRun.code()).isEqualTo(200);
        assertThat(call(HttpMethod.GET, RC + "/keep", null, null).code()).isEqualTo(200);
    }

    static final String YAML_CLUSTER = """
            apiVersion: ray.io/v1
            kind: RayCluster
            metadata:
              name: &name yaml-aliases
              labels: {app: *name}
            spec:
              headGroupSpec:
                template: &template
                  spec:
                    containers: [{name: ray, image: rayproject/ray:2.9.0}]
              workerGroupSpecs:
              - &group {groupName: small, replicas: 1, minReplicas: 0, maxReplicas: 5, template: *template}
              - <<: *group
                groupName: large
                replicas: 3
            """;

    @Test
    @DisplayName("YAML anchors, aliases and merge keys resolve to their values")
    void yamlAliasesAndMergeKeys() throws Exception {
        Reply r = call(HttpMethod.POST, RC, "application/yaml", YAML_CLUSTER);
        assertThat(r.code()).as(String.valueOf(r.body())).isEqualTo(201);
        JsonNode stored = call(HttpMethod.GET, RC + "/yaml-aliases", null, null).body();
        assertThat(stored.at("/metadata/labels/app").asString()).isEqualTo("yaml-aliases");
        assertThat(stored.at("/spec/workerGroupSpecs/1/groupName").asString()).isEqualTo("large");
        assertThat(stored.at("/spec/workerGroupSpecs/1/replicas").asInt()).isEqualTo(3);
        assertThat(stored.at("/spec/workerGroupSpecs/1/maxReplicas").asInt()).isEqualTo(5);
        assertThat(stored.at("/spec/workerGroupSpecs/1/template/spec/containers/0/image").asString())
                .isEqualTo("rayproject/ray:2.9.0");
    }

    @Test
    @DisplayName("a billion-laughs document and a self-referencing alias are refused before they are expanded")
    void yamlAliasBombs() throws Exception {
        StringBuilder bomb = new StringBuilder("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: lol}\n"
                + "x0: &x0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (int i = 1; i <= 9; i++) {
            bomb.append("x").append(i).append(": &x").append(i).append(" [");
            for (int j = 0; j < 10; j++) {
                bomb.append(j == 0 ? "" : ", ").append("*x").append(i - 1);
            }
            bomb.append("]\n");
        }
        long start = System.nanoTime();
        Reply laughs = call(HttpMethod.POST, "/api/v1/namespaces/default/configmaps", "application/yaml",
                bomb.toString());
        assertThat(laughs.code()).isEqualTo(400);
        assertThat(laughs.message()).isEqualTo("error converting YAML to JSON: yaml: document contains excessive aliasing");
        assertThat(java.time.Duration.ofNanos(System.nanoTime() - start)).isLessThan(java.time.Duration.ofSeconds(5));

        Reply recursive = call(HttpMethod.POST, "/api/v1/namespaces/default/configmaps", "application/yaml",
                "metadata: {name: loop}\ndata: &d {a: *d}\n");
        assertThat(recursive.code()).isEqualTo(400);
        assertThat(call(HttpMethod.GET, "/api/v1/namespaces/default/configmaps/lol", null, null).code()).isEqualTo(404);
    }

    // a 200-character fieldManager used to be stored as a managedFields manager
    @Test
    @DisplayName("fieldManager: more than 128 bytes or a non-printable character is 422 on the request's options kind")
    void fieldManagerIsValidatedAsApimachineryDoes() throws Exception {
        String cm = "{\"metadata\":{\"name\":\"managed\"}}";
        String configmaps = "/api/v1/namespaces/default/configmaps";
        String longName = "m".repeat(129);
        Reply created = call(HttpMethod.POST, configmaps + "?fieldManager=" + longName, "application/json", cm);
        assertThat(created.code()).isEqualTo(422);
        assertThat(created.body().path("reason").asString()).isEqualTo("Invalid");
        assertThat(created.message()).isEqualTo("CreateOptions.meta.k8s.io \"\" is invalid: fieldManager: Too long: "
                + "may not be more than 128 bytes");
        assertThat(created.body().path("details").path("kind").asString()).isEqualTo("CreateOptions");
        assertThat(call(HttpMethod.GET, configmaps + "/managed", null, null).code()).isEqualTo(404);

        assertThat(call(HttpMethod.POST, configmaps + "?fieldManager=" + "m".repeat(128), "application/json", cm)
                .code()).isEqualTo(201);
        // a URI, not a template: MockMvc would encode the % of %01 again
        MvcResult patch = mvc.perform(request(HttpMethod.PATCH, java.net.URI.create(configmaps
                + "/managed?fieldManager=a%01b")).contentType("application/merge-patch+json")
                .content("{\"data\":{\"k\":\"v\"}}")).andReturn();
        assertThat(patch.getResponse().getStatus()).isEqualTo(422);
        assertThat(Json.MAPPER.readTree(patch.getResponse().getContentAsString()).path("message").asString()).isEqualTo("PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Invalid "
                + "value: \"a\\x01b\": invalid character U+0001 (at position 1)");
        Reply updated = call(HttpMethod.PUT, configmaps + "/managed?fieldManager=" + longName, "application/json",
                "{\"metadata\":{\"name\":\"managed\"},\"data\":{\"k\":\"v\"}}");
        assertThat(updated.code()).isEqualTo(422);
        assertThat(updated.message()).startsWith("UpdateOptions.meta.k8s.io \"\" is invalid: fieldManager: Too long");
        assertThat(call(HttpMethod.GET, configmaps + "/managed", null, null).body().has("data")).isFalse();
    }

    @Test
    @DisplayName("duplicate keys and unknown metadata fields: errors under Strict, warnings under Warn")
    void duplicatesAndUnknownMetadata() throws Exception {
        String yaml = "metadata:\n  name: dup\n  name: dup\n  bogus: 1\nspec:\n  containers: "
                + "[{name: c, image: busybox}]\n";
        Reply strict = call(HttpMethod.POST, PODS + "?fieldValidation=Strict", "application/yaml", yaml);
        assertThat(strict.code()).isEqualTo(400);
        assertThat(strict.message()).isEqualTo("Pod in version \"v1\" cannot be handled as a Pod: strict decoding "
                + "error: yaml: unmarshal errors:\n  line 3: key \"name\" already set in map");
        Reply strictMeta = call(HttpMethod.POST, PODS + "?fieldValidation=Strict", "application/yaml",
                yaml.replace("  name: dup\n  name: dup", "  name: dup"));
        assertThat(strictMeta.code()).isEqualTo(400);
        assertThat(strictMeta.message()).endsWith("strict decoding error: unknown field \"metadata.bogus\"");
        assertThat(call(HttpMethod.GET, PODS + "/dup", null, null).code()).isEqualTo(404);

        Reply warn = call(HttpMethod.POST, PODS + "?fieldValidation=Warn", "application/yaml", yaml);
        assertThat(warn.code()).isEqualTo(201);
        assertThat(warn.warnings()).containsExactly("299 - \"line 3: key \\\"name\\\" already set in map\"",
                "299 - \"unknown field \\\"metadata.bogus\\\"\"");
        assertThat(warn.body().at("/metadata").has("bogus")).isFalse();

        Reply json = call(HttpMethod.POST, PODS + "?fieldValidation=Strict", "application/json",
                "{\"metadata\":{\"name\":\"dj\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"name\":\"d\","
                        + "\"image\":\"busybox\"}]}}");
        assertThat(json.code()).isEqualTo(400);
        assertThat(json.message()).endsWith("strict decoding error: duplicate field \"name\"");
        Reply ignored = call(HttpMethod.POST, PODS + "?fieldValidation=Ignore", "application/yaml",
                yaml.replace("name: dup", "name: ignored"));
        assertThat(ignored.code()).isEqualTo(201);
        assertThat(ignored.warnings()).isEmpty();
    }
}
