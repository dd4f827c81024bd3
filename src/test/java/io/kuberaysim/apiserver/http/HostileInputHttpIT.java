package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import io.kuberaysim.apiserver.registry.GenericRegistry;
import io.kuberaysim.testing.RawHttp;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hostile and careless requests over a real port: malformed JSON and YAML, wrong types at every level of every kind,
 * bad names, selectors and list options, patches of every type, DELETE options, methods, paths and headers. Each one
 * must get a metav1 Status with the expected code (never a 5xx), within a few seconds, and must leave the store as it
 * was: nothing is written by a refused request (the store's revision does not move), and what an accepted request
 * answers is exactly what is stored.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = HttpEdgeTestProperties.ALL)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostileInputHttpIT {
    static final String NS = "/api/v1/namespaces/default";
    static final String RC = "/apis/ray.io/v1/namespaces/default/rayclusters";
    static final String RJ = "/apis/ray.io/v1/namespaces/default/rayjobs";
    static final String RS = "/apis/ray.io/v1/namespaces/default/rayservices";
    static final String PODS = NS + "/pods";
    static final String SVC = NS + "/services";
    static final String CM = NS + "/configmaps";
    static final String EV = NS + "/events";
    static final String JOBS = "/apis/batch/v1/namespaces/default/jobs";
    static final String NODES = "/api/v1/nodes";
    static final String NAMESPACES = "/api/v1/namespaces";
    static final List<String> COLLECTIONS = List.of(RC, RJ, RS, PODS, SVC, CM, EV, JOBS, NODES, NAMESPACES);
    static final String JSON = "application/json";
    static final String YAML = "application/yaml";
    static final String MERGE = "application/merge-patch+json";
    static final String JSON_PATCH = "application/json-patch+json";
    static final String SMP = "application/strategic-merge-patch+json";
    static final String APPLY = "application/apply-patch+yaml";

    static final String POD = "{\"metadata\":{\"name\":\"hostile-pod\",\"labels\":{\"a\":\"b\"},\"annotations\":{\"a\":\"b\"}},"
            + "\"spec\":{\"restartPolicy\":\"Always\",\"terminationGracePeriodSeconds\":30,\"nodeSelector\":{\"a\":\"b\"},"
            + "\"hostNetwork\":false,\"containers\":[{\"name\":\"c\",\"image\":\"busybox\",\"ports\":[{\"containerPort\":80}],"
            + "\"resources\":{\"requests\":{\"cpu\":\"100m\"},\"limits\":{\"cpu\":\"1\"}}}]}}";
    static final String RAY_CLUSTER = "{\"metadata\":{\"name\":\"hostile-rc\"},\"spec\":{\"rayVersion\":\"2.9.0\","
            + "\"enableInTreeAutoscaling\":false,\"suspend\":false,\"headGroupSpec\":{\"rayStartParams\":{},\"template\":"
            + "{\"spec\":{\"containers\":[{\"name\":\"ray-head\",\"image\":\"rayproject/ray:2.9.0\",\"ports\":"
            + "[{\"containerPort\":6379}],\"resources\":{\"limits\":{\"cpu\":\"1\"}}}]}}},\"workerGroupSpecs\":[{\"groupName\":"
            + "\"g\",\"replicas\":1,\"minReplicas\":0,\"maxReplicas\":5,\"rayStartParams\":{},\"template\":{\"spec\":"
            + "{\"containers\":[{\"name\":\"w\",\"image\":\"rayproject/ray:2.9.0\"}]}}}]}}";
    static final String JOB = "{\"metadata\":{\"name\":\"hostile-job\"},\"spec\":{\"backoffLimit\":1,\"parallelism\":1,"
            + "\"suspend\":false,\"template\":{\"spec\":{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"c\","
            + "\"image\":\"busybox\"}]}}}}";
    static final String SERVICE = "{\"metadata\":{\"name\":\"hostile-svc\"},\"spec\":{\"type\":\"ClusterIP\",\"selector\":"
            + "{\"a\":\"b\"},\"ports\":[{\"port\":80,\"targetPort\":8080}]}}";
    static final String RAY_JOB = "{\"metadata\":{\"name\":\"hostile-rj\"},\"spec\":{\"entrypoint\":\"python x.py\","
            + "\"shutdownAfterJobFinishes\":true,\"backoffLimit\":0,\"submissionMode\":\"K8sJobMode\"}}";
    static final String RAY_SERVICE = "{\"metadata\":{\"name\":\"hostile-rs\"},\"spec\":{\"serveConfigV2\":\"applications: []\","
            + "\"rayClusterConfig\":{\"headGroupSpec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"h\",\"image\":"
            + "\"rayproject/ray:2.9.0\"}]}}}}}}";

    @LocalServerPort
    int port;
    @Autowired
    GenericRegistry registry;

    /**
     * One request and the code it must get.
     *
     * @param accepted a 2xx whose answer must be what is stored
     */
    record Case(String name, String method, String path, String contentType, String accept, byte[] body, int code) {
        boolean accepted() {
            return code < 300;
        }

        String identity() {
            return method + " " + path + " " + contentType + " " + accept + " "
                    + (body == null ? "" : new String(body, StandardCharsets.UTF_8));
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static final List<Case> CASES = new ArrayList<>();

    static void add(String name, String method, String path, String contentType, String body, int code) {
        CASES.add(new Case(name, method, path, contentType, null,
                body == null ? null : body.getBytes(StandardCharsets.UTF_8), code));
    }

    static void post(String name, String path, String body, int code) {
        add(name, "POST", path, JSON, body, code);
    }

    /** {@code base} with one JSON fragment replaced, e.g. a field's value swapped for one of the wrong type. */
    static String with(String base, String from, String to) {
        if (!base.contains(from)) {
            throw new IllegalArgumentException(from + " not in " + base);
        }
        return base.replace(from, to);
    }

    static {
        malformedBodies();
        wrongTypes();
        badNames();
        listOptions();
        patches();
        deleteOptions();
        methodsPathsAndHeaders();
    }

    static void malformedBodies() {
        List<String> json = List.of("{", "{\"metadata\":", "{\"metadata\":{\"name\":\"x\"}", "{\"a\":tru}", "{'a':1}",
                "{\"a\":1,}", "[1,2]", "\"just a string\"", "42", "null");
        List<String> yaml = List.of("a: [b", "a: {b: c", "a:\n\tb: 1", "a: *undefined", "- a\n- b");
        for (String path : COLLECTIONS) {
            for (String doc : json) {
                post("malformed JSON " + doc + " to " + path, path, doc, 400);
            }
            for (String doc : yaml) {
                add("malformed YAML " + doc.replace("\n", "\\n") + " to " + path, "POST", path, YAML, doc, 400);
            }
        }
        StringBuilder bomb = new StringBuilder("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: lol}\n"
                + "x0: &x0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (int i = 1; i <= 9; i++) {
            bomb.append("x").append(i).append(": &x").append(i).append(" [");
            for (int j = 0; j < 10; j++) {
                bomb.append(j == 0 ? "" : ", ").append("*x").append(i - 1);
            }
            bomb.append("]\n");
        }
        add("billion laughs", "POST", CM, YAML, bomb.toString(), 400);
        add("self-referencing alias", "POST", CM, YAML, "metadata: {name: loop}\ndata: &d {a: *d}\n", 400);
        add("YAML with only a comment", "POST", CM, YAML, "# nothing here\n", 400);
        add("empty YAML document", "POST", CM, YAML, "---\n...\n", 400);
        add("YAML sent as JSON", "POST", CM, JSON, "metadata:\n  name: x\n", 400);
        add("empty JSON body", "POST", CM, JSON, "", 400);
        add("body over the limit", "POST", CM, JSON, "{\"metadata\":{\"name\":\"big\"},\"data\":{\"a\":\""
                + "x".repeat(70_000) + "\"}}", 413);
        add("invalid UTF-8", "POST", CM, JSON, null, 400);
        CASES.set(CASES.size() - 1, new Case("invalid UTF-8", "POST", CM, JSON, null,
                new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'}, 400));
        add("protobuf garbage for a Namespace", "POST", NAMESPACES, "application/vnd.kubernetes.protobuf", "garbage", 400);
    }

    static void wrongTypes() {
        // Pod: typed like kube-apiserver's Go types (400), semantics checked after (422)
        String[][] pod = {
                {"\"metadata\":{\"name\":\"hostile-pod\",\"labels\"", "\"metadata\":\"x\",\"m\":{\"labels\"", "400"},
                {"\"name\":\"hostile-pod\"", "\"name\":5", "400"},
                {"\"name\":\"hostile-pod\"", "\"name\":{}", "400"},
                {"\"name\":\"hostile-pod\"", "\"name\":true", "400"},
                {"\"name\":\"hostile-pod\"", "\"name\":null", "422"},
                {"\"labels\":{\"a\":\"b\"}", "\"labels\":[]", "400"},
                {"\"labels\":{\"a\":\"b\"}", "\"labels\":\"a=b\"", "400"},
                {"\"labels\":{\"a\":\"b\"}", "\"labels\":{\"a\":5}", "400"},
                {"\"labels\":{\"a\":\"b\"}", "\"labels\":{\"a\":{}}", "400"},
                {"\"labels\":{\"a\":\"b\"}", "\"labels\":{\"a b\":\"c\"}", "422"},
                {"\"annotations\":{\"a\":\"b\"}", "\"annotations\":[]", "400"},
                {"\"annotations\":{\"a\":\"b\"}", "\"annotations\":{\"a\":5}", "400"},
                {"\"annotations\":{\"a\":\"b\"}", "\"ownerReferences\":\"x\"", "400"},
                {"\"annotations\":{\"a\":\"b\"}", "\"ownerReferences\":[5]", "400"},
                {"\"annotations\":{\"a\":\"b\"}", "\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"name\":\"x\",\"uid\":5}]", "400"},
                {"\"annotations\":{\"a\":\"b\"}", "\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"name\":\"x\",\"uid\":\"u\",\"controller\":\"yes\"}]", "400"},
                {"\"annotations\":{\"a\":\"b\"}", "\"ownerReferences\":[{}]", "422"},
                {"\"annotations\":{\"a\":\"b\"}", "\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"name\":\"x\"}]", "422"},
                {"\"annotations\":{\"a\":\"b\"}", "\"finalizers\":\"x\"", "400"},
                {"\"annotations\":{\"a\":\"b\"}", "\"finalizers\":[5]", "400"},
                {"\"annotations\":{\"a\":\"b\"}", "\"finalizers\":[\"a b\"]", "422"},
                {"\"annotations\":{\"a\":\"b\"}", "\"finalizers\":[\"cleanup\"]", "422"},
                {"\"spec\":{\"restartPolicy\"", "\"spec\":\"x\",\"s\":{\"restartPolicy\"", "400"},
                {"\"spec\":{\"restartPolicy\"", "\"spec\":[],\"s\":{\"restartPolicy\"", "400"},
                {"\"containers\":[", "\"containers\":{},\"c\":[", "400"},
                {"\"containers\":[", "\"containers\":\"c\",\"c\":[", "400"},
                {"\"containers\":[", "\"containers\":[],\"c\":[", "422"},
                {"\"containers\":[", "\"containers\":[5],\"c\":[", "400"},
                {"\"name\":\"c\",\"image\"", "\"name\":5,\"image\"", "400"},
                {"\"image\":\"busybox\"", "\"image\":5", "400"},
                {"\"image\":\"busybox\"", "\"image\":[]", "400"},
                {"\"resources\":{", "\"resources\":[],\"r\":{", "400"},
                {"\"limits\":{\"cpu\":\"1\"}", "\"limits\":[]", "400"},
                {"\"limits\":{\"cpu\":\"1\"}", "\"limits\":{\"cpu\":{}}", "400"},
                {"\"limits\":{\"cpu\":\"1\"}", "\"limits\":{\"cpu\":\"many\"}", "400"},
                {"\"limits\":{\"cpu\":\"1\"}", "\"limits\":{\"cpu\":\"1K\"}", "400"},
                {"\"limits\":{\"cpu\":\"1\"}", "\"limits\":{\"cpu\":true}", "400"},
                {"\"limits\":{\"cpu\":\"1\"}", "\"limits\":{\"cpu\":\"-1\"}", "422"},
                {"\"limits\":{\"cpu\":\"1\"}", "\"limits\":{\"cpu\":\"1\",\"nvidia.com/gpu\":\"0.5\"}", "422"},
                {"\"requests\":{\"cpu\":\"100m\"}", "\"requests\":{\"cpu\":\"2\"}", "422"},
                {"\"requests\":{\"cpu\":\"100m\"}", "\"requests\":{\"cpu\":\"100m\",\"nvidia.com/gpu\":\"1\"}", "422"},
                {"\"requests\":{\"cpu\":\"100m\"}", "\"requests\":{\"cpus\":\"1\"}", "422"},
                {"\"ports\":[{\"containerPort\":80}]", "\"ports\":\"80\"", "400"},
                {"\"ports\":[{\"containerPort\":80}]", "\"ports\":[{\"containerPort\":\"80\"}]", "400"},
                {"\"ports\":[{\"containerPort\":80}]", "\"ports\":[{\"containerPort\":2147483648}]", "400"},
                {"\"ports\":[{\"containerPort\":80}]", "\"ports\":[{\"containerPort\":1.5}]", "400"},
                {"\"terminationGracePeriodSeconds\":30", "\"terminationGracePeriodSeconds\":\"soon\"", "400"},
                {"\"terminationGracePeriodSeconds\":30", "\"terminationGracePeriodSeconds\":1.5", "400"},
                {"\"terminationGracePeriodSeconds\":30", "\"terminationGracePeriodSeconds\":true", "400"},
                {"\"terminationGracePeriodSeconds\":30", "\"terminationGracePeriodSeconds\":1e30", "400"},
                {"\"restartPolicy\":\"Always\"", "\"restartPolicy\":5", "400"},
                {"\"restartPolicy\":\"Always\"", "\"restartPolicy\":\"Sometimes\"", "422"},
                {"\"nodeSelector\":{\"a\":\"b\"}", "\"nodeSelector\":[]", "400"},
                {"\"nodeSelector\":{\"a\":\"b\"}", "\"nodeSelector\":{\"a\":5}", "400"},
                {"\"hostNetwork\":false", "\"hostNetwork\":\"true\"", "400"},
                {"\"hostNetwork\":false", "\"hostNetwork\":false,\"activeDeadlineSeconds\":\"1h\"", "400"},
                {"\"hostNetwork\":false", "\"hostNetwork\":false,\"tolerations\":{}", "400"},
                {"\"hostNetwork\":false", "\"hostNetwork\":false,\"volumes\":[{\"name\":5}]", "400"},
                {"\"hostNetwork\":false", "\"hostNetwork\":false,\"initContainers\":[{\"name\":\"i\",\"image\":\"b\","
                        + "\"resources\":{\"requests\":{\"memory\":\"lots\"}}}]", "400"},
        };
        for (String[] m : pod) {
            post("Pod " + m[1], PODS, with(POD, m[0], m[1]), Integer.parseInt(m[2]));
        }
        add("Pod with status phase 5", "POST", PODS, JSON, with(POD, "\"spec\":{", "\"status\":{\"phase\":5},\"spec\":{"), 400);
        add("Pod with status \"x\"", "POST", PODS, JSON, with(POD, "\"spec\":{", "\"status\":\"x\",\"spec\":{"), 400);

        // RayCluster: a structural schema (422), typed metadata (400), typed pod templates (422)
        String[][] rc = {
                {"\"spec\":{\"rayVersion\"", "\"spec\":5,\"s\":{\"rayVersion\"", "422"},
                {"\"spec\":{\"rayVersion\"", "\"spec\":[],\"s\":{\"rayVersion\"", "422"},
                {"\"headGroupSpec\":{", "\"headGroupSpec\":[],\"h\":{", "422"},
                {"\"headGroupSpec\":{", "\"headGroupSpec\":null,\"h\":{", "422"},
                {"\"workerGroupSpecs\":[", "\"workerGroupSpecs\":{},\"w\":[", "422"},
                {"\"workerGroupSpecs\":[", "\"workerGroupSpecs\":[5],\"w\":[", "422"},
                {"\"replicas\":1", "\"replicas\":\"two\"", "422"},
                {"\"replicas\":1", "\"replicas\":1.5", "422"},
                {"\"replicas\":1", "\"replicas\":2147483648", "422"},
                {"\"replicas\":1", "\"replicas\":1e30", "422"},
                {"\"replicas\":1", "\"replicas\":true", "422"},
                {"\"replicas\":1", "\"replicas\":-2147483649", "422"},
                {"\"minReplicas\":0", "\"minReplicas\":\"0\"", "422"},
                {"\"maxReplicas\":5", "\"maxReplicas\":[]", "422"},
                {"\"maxReplicas\":5", "\"maxReplicas\":99999999999", "422"},
                {"\"groupName\":\"g\"", "\"groupName\":5", "422"},
                {"\"rayStartParams\":{},\"template\":{\"spec\":{\"containers\":[{\"name\":\"w\"",
                        "\"rayStartParams\":[],\"template\":{\"spec\":{\"containers\":[{\"name\":\"w\"", "422"},
                {"\"rayStartParams\":{},\"template\":{\"spec\":{\"containers\":[{\"name\":\"w\"",
                        "\"rayStartParams\":{\"num-cpus\":1},\"template\":{\"spec\":{\"containers\":[{\"name\":\"w\"", "422"},
                {"\"enableInTreeAutoscaling\":false", "\"enableInTreeAutoscaling\":\"yes\"", "422"},
                {"\"suspend\":false", "\"suspend\":\"true\"", "422"},
                {"\"rayVersion\":\"2.9.0\"", "\"rayVersion\":2.9", "422"},
                {"\"template\":{\"spec\":{\"containers\":[{\"name\":\"w\"", "\"template\":\"pod\",\"t\":{\"spec\":{\"containers\":[{\"name\":\"w\"", "422"},
                {"{\"name\":\"w\",\"image\":\"rayproject/ray:2.9.0\"}", "{\"name\":\"w\",\"image\":5}", "422"},
                {"\"resources\":{\"limits\":{\"cpu\":\"1\"}}", "\"resources\":{\"limits\":{\"cpu\":\"many\"}}", "422"},
                {"\"resources\":{\"limits\":{\"cpu\":\"1\"}}", "\"resources\":{\"limits\":{\"cpu\":{}}}", "422"},
                {"[{\"containerPort\":6379}]", "[{\"containerPort\":\"6379\"}]", "422"},
                {"[{\"containerPort\":6379}]", "[{\"containerPort\":2147483648}]", "422"},
                {"{\"name\":\"hostile-rc\"}", "{\"name\":\"hostile-rc\",\"labels\":[]}", "400"},
                {"{\"name\":\"hostile-rc\"}", "{\"name\":5}", "400"},
                {"{\"name\":\"hostile-rc\"}", "{\"name\":\"hostile-rc\",\"ownerReferences\":[{\"uid\":5}]}", "400"},
                {"{\"name\":\"hostile-rc\"}", "{\"name\":\"hostile-rc\",\"finalizers\":[\"a b\"]}", "422"},
                {"{\"name\":\"hostile-rc\"}", "{\"name\":\"hostile-rc\",\"ownerReferences\":[{\"kind\":\"X\"}]}", "422"},
        };
        for (String[] m : rc) {
            post("RayCluster " + m[1], RC, with(RAY_CLUSTER, m[0], m[1]), Integer.parseInt(m[2]));
        }

        String[][] job = {
                {"\"backoffLimit\":1", "\"backoffLimit\":\"x\"", "400"},
                {"\"backoffLimit\":1", "\"backoffLimit\":-1", "422"},
                {"\"parallelism\":1", "\"parallelism\":1.5", "400"},
                {"\"suspend\":false", "\"suspend\":\"no\"", "400"},
                {"\"template\":{\"spec\"", "\"template\":\"x\",\"t\":{\"spec\"", "400"},
                {"\"image\":\"busybox\"", "\"image\":5", "400"},
                {"\"restartPolicy\":\"Never\"", "\"restartPolicy\":\"Always\"", "422"},
                {"\"containers\":[{", "\"containers\":[{\"resources\":{\"requests\":{\"cpu\":\"x\"}},", "400"},
        };
        for (String[] m : job) {
            post("Job " + m[1], JOBS, with(JOB, m[0], m[1]), Integer.parseInt(m[2]));
        }
        String[][] svc = {
                {"\"ports\":[{\"port\":80,", "\"ports\":\"80\",\"p\":[{\"port\":80,", "400"},
                {"\"port\":80", "\"port\":\"80\"", "400"},
                {"\"port\":80", "\"port\":70000", "422"},
                {"\"type\":\"ClusterIP\"", "\"type\":5", "400"},
                {"\"selector\":{\"a\":\"b\"}", "\"selector\":[]", "400"},
                {"\"targetPort\":8080", "\"targetPort\":{}", "400"},
        };
        for (String[] m : svc) {
            post("Service " + m[1], SVC, with(SERVICE, m[0], m[1]), Integer.parseInt(m[2]));
        }
        post("ConfigMap data is a list", CM, "{\"metadata\":{\"name\":\"c\"},\"data\":[]}", 400);
        post("ConfigMap data value a number", CM, "{\"metadata\":{\"name\":\"c\"},\"data\":{\"a\":1}}", 400);
        post("ConfigMap binaryData value a number", CM, "{\"metadata\":{\"name\":\"c\"},\"binaryData\":{\"a\":5}}", 400);
        post("Node capacity many", NODES, "{\"metadata\":{\"name\":\"n\"},\"status\":{\"capacity\":{\"cpu\":\"many\"}}}", 400);
        post("Node unschedulable yes", NODES, "{\"metadata\":{\"name\":\"n\"},\"spec\":{\"unschedulable\":\"yes\"}}", 400);
        post("Node taints a string", NODES, "{\"metadata\":{\"name\":\"n\"},\"spec\":{\"taints\":\"x\"}}", 400);
        post("Node name with an underscore", NODES, "{\"metadata\":{\"name\":\"bad_name\"}}", 422);
        post("Namespace finalizers a string", NAMESPACES, "{\"metadata\":{\"name\":\"n\"},\"spec\":{\"finalizers\":\"k\"}}", 400);
        post("Namespace name in capitals", NAMESPACES, "{\"metadata\":{\"name\":\"UPPER\"}}", 422);
        post("Event count a string", EV, "{\"metadata\":{\"name\":\"e\"},\"involvedObject\":{\"kind\":\"Pod\",\"name\":\"p\"},"
                + "\"count\":\"x\"}", 400);
        post("Event involvedObject a string", EV, "{\"metadata\":{\"name\":\"e\"},\"involvedObject\":\"x\"}", 400);
        post("Event without involvedObject", EV, "{\"metadata\":{\"name\":\"e\"},\"reason\":\"x\"}", 422);
        String[][] rj = {
                {"\"entrypoint\":\"python x.py\"", "\"entrypoint\":5", "422"},
                {"\"shutdownAfterJobFinishes\":true", "\"shutdownAfterJobFinishes\":\"yes\"", "422"},
                {"\"backoffLimit\":0", "\"backoffLimit\":-1", "422"},
                {"\"submissionMode\":\"K8sJobMode\"", "\"submissionMode\":\"Weird\"", "422"},
        };
        for (String[] m : rj) {
            post("RayJob " + m[1], RJ, with(RAY_JOB, m[0], m[1]), Integer.parseInt(m[2]));
        }
        post("RayService serveConfigV2 a number", RS, with(RAY_SERVICE, "\"serveConfigV2\":\"applications: []\"",
                "\"serveConfigV2\":5"), 422);
        post("RayService rayClusterConfig a list", RS, with(RAY_SERVICE, "\"rayClusterConfig\":{\"headGroupSpec\"",
                "\"rayClusterConfig\":[],\"r\":{\"headGroupSpec\""), 422);
    }

    static void badNames() {
        for (String name : List.of("Bad", "a".repeat(254), "a_b", "a..b", "-a", "a-", "%C3%BCn%C3%AF")) {
            post("RayCluster named " + name, RC, with(RAY_CLUSTER, "\"name\":\"hostile-rc\"", "\"name\":\"" + name + "\""),
                    422);
        }
        post("RayCluster with an empty name", RC, with(RAY_CLUSTER, "\"name\":\"hostile-rc\"", "\"name\":\"\""), 422);
        for (String name : List.of("Bad", "a".repeat(254), "a..b", "-a", "a b", "a/b")) {
            post("Pod named " + name, PODS, with(POD, "\"name\":\"hostile-pod\"", "\"name\":\"" + name + "\""), 422);
        }
        post("RayCluster generateName in capitals", RC, with(RAY_CLUSTER, "\"name\":\"hostile-rc\"",
                "\"generateName\":\"Bad-\""), 422);
        post("Pod generateName with an underscore", PODS, with(POD, "\"name\":\"hostile-pod\"",
                "\"generateName\":\"x_\""), 422);
        post("Pod in another namespace than the URL", PODS, with(POD, "\"name\":\"hostile-pod\"",
                "\"name\":\"hostile-pod\",\"namespace\":\"kube-system\""), 400);
        post("RayCluster in another namespace than the URL", RC, with(RAY_CLUSTER, "\"name\":\"hostile-rc\"",
                "\"name\":\"hostile-rc\",\"namespace\":\"kube-system\""), 400);
        post("Pod into a namespace that does not exist", "/api/v1/namespaces/ghost/pods", POD, 404);
        post("RayCluster into a namespace named in capitals", "/apis/ray.io/v1/namespaces/UPPER/rayclusters", RAY_CLUSTER,
                404);
        add("PUT with another name than the URL", "PUT", PODS + "/hostile-existing-pod", JSON, POD, 400);
        add("PUT of a RayCluster without resourceVersion", "PUT", RC + "/hostile-existing",
                JSON, with(RAY_CLUSTER, "\"name\":\"hostile-rc\"", "\"name\":\"hostile-existing\""), 422);
        add("PUT with a stale resourceVersion", "PUT", RC + "/hostile-existing", JSON, with(RAY_CLUSTER,
                "\"name\":\"hostile-rc\"", "\"name\":\"hostile-existing\",\"resourceVersion\":\"1\""), 409);
        post("duplicate create", RC, with(RAY_CLUSTER, "\"name\":\"hostile-rc\"", "\"name\":\"hostile-existing\""), 409);
    }

    static void listOptions() {
        for (String path : List.of(PODS, RC)) {
            for (String selector : List.of("a%20in%20(", "!", "%3Db", "a%20notin", "a,,b", "a%20in%20b",
                    "a%3Ex", "a%3D" + "x".repeat(64), "bad%20key!%3Dv", "a%3Db%20c")) {
                add("labelSelector " + selector + " on " + path, "GET", path + "?labelSelector=" + selector, null, null,
                        400);
            }
        }
        for (String selector : List.of("spec.foo%3Dx", "abc", "metadata.name~x", "status.phase%3DRunning,spec.bogus%3D1")) {
            add("fieldSelector " + selector, "GET", PODS + "?fieldSelector=" + selector, null, null, 400);
        }
        add("fieldSelector on a field RayClusters lack", "GET", RC + "?fieldSelector=spec.nodeName%3Dx", null, null, 400);
        for (String query : List.of("limit=ten", "limit=1.5", "timeoutSeconds=x", "watch=maybe",
                "allowWatchBookmarks=x", "watch=1&resourceVersion=abc", "watch=true&timeoutSeconds=x",
                "continue=not-a-token", "sendInitialEvents=perhaps")) {
            add("list with " + query, "GET", PODS + "?" + query, null, null, 400);
        }
        add("create with fieldValidation Maybe", "POST", PODS + "?fieldValidation=Maybe", JSON, POD, 400);
        add("create with dryRun Some", "POST", PODS + "?dryRun=Some", JSON, POD, 400);
        add("create with dryRun empty", "POST", CM + "?dryRun=", JSON, "{\"metadata\":{\"name\":\"d\"}}", 400);
        add("strict create with an unknown field", "POST", RC + "?fieldValidation=Strict", JSON,
                with(RAY_CLUSTER, "\"spec\":{", "\"spec\":{\"bogus\":1,"), 400);
        add("strict create with a duplicate field", "POST", CM + "?fieldValidation=Strict", JSON,
                "{\"metadata\":{\"name\":\"d\",\"name\":\"d\"}}", 400);
        add("strict create with an unknown metadata field", "POST", CM + "?fieldValidation=Strict", JSON,
                "{\"metadata\":{\"name\":\"d\",\"bogus\":1}}", 400);
        add("strict YAML create with a duplicate key", "POST", CM + "?fieldValidation=Strict", YAML,
                "metadata:\n  name: d\n  name: d\n", 400);
    }

    static void patches() {
        String rc = RC + "/hostile-existing";
        String pod = PODS + "/hostile-existing-pod";
        String cm = CM + "/hostile-existing-cm";
        String[][] jsonPatches = {
                {"{}", "400"}, {"\"x\"", "400"}, {"[5]", "400"},
                {"[{\"op\":\"explode\",\"path\":\"/spec\"}]", "422"},
                {"[{\"op\":\"add\"}]", "422"},
                {"[{\"op\":\"remove\",\"path\":\"/spec/nothing\"}]", "422"},
                {"[{\"op\":\"replace\",\"path\":\"/spec/nothing\",\"value\":1}]", "422"},
                {"[{\"op\":\"move\",\"from\":\"/spec/nothing\",\"path\":\"/spec/x\"}]", "422"},
                {"[{\"op\":\"copy\",\"from\":\"/spec/nothing\",\"path\":\"/spec/x\"}]", "422"},
                {"[{\"op\":\"test\",\"path\":\"/spec/rayVersion\",\"value\":\"9\"}]", "422"},
                {"[{\"op\":\"add\",\"path\":\"spec/x\",\"value\":1}]", "422"},
                {"[{\"op\":\"replace\",\"path\":\"/apiVersion\",\"value\":\"ray.io/v2\"}]", "422"},
                {"[{\"op\":\"remove\",\"path\":\"/kind\"}]", "422"},
                {"[{\"op\":\"replace\",\"path\":\"/spec/workerGroupSpecs/0/replicas\",\"value\":\"x\"}]", "422"},
                {"[{\"op\":\"replace\",\"path\":\"/spec/workerGroupSpecs/0/replicas\",\"value\":2147483648}]", "422"},
                {"[{\"op\":\"replace\",\"path\":\"/metadata/name\",\"value\":\"other\"}]", "400"},
                {"[{\"op\":\"replace\",\"path\":\"/metadata/namespace\",\"value\":\"kube-system\"}]", "400"},
                {"[{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{\"a\":5}}]", "422"},
                {"[{\"op\":\"remove\",\"path\":\"/spec/headGroupSpec\"}]", "422"},
                {"[{\"op\":\"replace\",\"path\":\"/spec/workerGroupSpecs/9/replicas\",\"value\":1}]", "422"},
        };
        for (String[] p : jsonPatches) {
            add("JSON patch " + p[0], "PATCH", rc, JSON_PATCH, p[0], Integer.parseInt(p[1]));
        }
        String[][] mergePatches = {
                {"[]", "400"}, {"\"x\"", "400"}, {"5", "400"}, {"null", "400"}, {"{", "400"},
                {"{\"spec\":{\"headGroupSpec\":null}}", "422"},
                {"{\"spec\":5}", "422"},
                {"{\"metadata\":{\"labels\":{\"a\":5}}}", "422"},
                {"{\"metadata\":{\"name\":\"other\"}}", "400"},
                {"{\"apiVersion\":\"ray.io/v2\"}", "422"},
                {"{\"kind\":null}", "422"},
                {"{\"metadata\":{\"finalizers\":[\"a b\"]}}", "422"},
                {"{\"metadata\":{\"ownerReferences\":[{}]}}", "422"},
                {"{\"spec\":{\"workerGroupSpecs\":[{\"groupName\":\"g\",\"replicas\":1e30,\"template\":{}}]}}", "422"},
        };
        for (String[] p : mergePatches) {
            add("merge patch " + p[0], "PATCH", rc, MERGE, p[0], Integer.parseInt(p[1]));
        }
        add("merge patch of a Pod's cpu to many", "PATCH", pod, MERGE,
                "{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\",\"resources\":{\"limits\":{\"cpu\":\"many\"}}}]}}", 422);
        add("merge patch of a Pod's grace period to soon", "PATCH", pod, MERGE,
                "{\"spec\":{\"terminationGracePeriodSeconds\":\"soon\"}}", 422);
        add("merge patch changing a Pod's kind", "PATCH", pod, MERGE, "{\"kind\":\"Service\"}", 422);
        add("merge patch of a ConfigMap's data to a list", "PATCH", cm, MERGE, "{\"data\":[1]}", 400);
        add("strategic merge patch on a RayCluster", "PATCH", rc, SMP, "{}", 415);
        add("strategic merge patch that is a list", "PATCH", pod, SMP, "[]", 400);
        add("strategic merge patch with a wrong type", "PATCH", pod, SMP, "{\"spec\":{\"nodeSelector\":[]}}", 422);
        add("strategic merge patch changing the image to a number", "PATCH", pod, SMP,
                "{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":5}]}}", 422);
        add("apply without fieldManager", "PATCH", rc, APPLY, "{}", 422);
        add("apply with malformed YAML", "PATCH", rc + "?fieldManager=t", APPLY, "a: [", 400);
        add("apply of a list", "PATCH", rc + "?fieldManager=t", APPLY, "- a\n", 400);
        add("apply that breaks the schema", "PATCH", rc + "?fieldManager=t", APPLY,
                "apiVersion: ray.io/v1\nkind: RayCluster\nmetadata: {name: hostile-existing}\nspec: {headGroupSpec: []}\n", 422);
        add("force on a merge patch", "PATCH", rc + "?force=true", MERGE, "{}", 422);
        add("status patch with wrong types", "PATCH", rc + "/status", MERGE, "{\"status\":{\"state\":5,\"conditions\":\"x\"}}", 422);
        add("status patch with a desiredCPU number", "PATCH", rc + "/status", MERGE, "{\"status\":{\"desiredWorkerReplicas\":\"2\"}}", 422);
        add("Pod status patch with phase 5", "PATCH", pod + "/status", MERGE, "{\"status\":{\"phase\":5}}", 422);
        add("patch of a collection", "PATCH", RC, MERGE, "{}", 405);
        add("patch of a missing object", "PATCH", RC + "/ghost", MERGE, "{}", 404);
        add("patch with text/plain", "PATCH", rc, "text/plain", "{}", 415);
        add("patch without Content-Type", "PATCH", rc, null, "{}", 415);
        add("patch with an empty body", "PATCH", rc, MERGE, "", 400);
        add("patch of the log subresource", "PATCH", pod + "/log", MERGE, "{}", 405);
        add("strict merge patch with a duplicate field", "PATCH", rc + "?fieldValidation=Strict", MERGE,
                "{\"spec\":{\"suspend\":false,\"suspend\":false}}", 400);
    }

    static void deleteOptions() {
        String rc = RC + "/hostile-existing";
        String[][] bodies = {
                {"{\"dryRun\":\"All\"}", "400"}, {"{\"dryRun\":[\"Nope\"]}", "400"}, {"{\"dryRun\":[5]}", "400"},
                {"{\"preconditions\":\"x\"}", "400"}, {"{\"preconditions\":{\"uid\":5}}", "400"},
                {"{\"preconditions\":{\"resourceVersion\":5}}", "400"}, {"{\"preconditions\":{\"uid\":\"nope\"}}", "409"},
                {"{\"preconditions\":{\"resourceVersion\":\"1\"}}", "409"}, {"{\"propagationPolicy\":\"Sideways\"}", "422"},
                {"{\"propagationPolicy\":5}", "400"}, {"{\"gracePeriodSeconds\":\"0\"}", "400"},
                {"{\"gracePeriodSeconds\":1.5}", "400"}, {"{\"orphanDependents\":\"yes\"}", "400"},
                {"{\"kind\":\"Pod\",\"apiVersion\":\"v1\"}", "400"}, {"{\"kind\":5}", "400"}, {"[]", "400"}, {"{", "400"},
                {"\"x\"", "400"},
        };
        for (String[] b : bodies) {
            add("DELETE with " + b[0], "DELETE", rc, JSON, b[0], Integer.parseInt(b[1]));
        }
        add("DELETE with a YAML body of the wrong type", "DELETE", rc, YAML, "dryRun: All\n", 400);
        add("DELETE of a Pod with dryRun a string", "DELETE", PODS + "/hostile-existing-pod", JSON, "{\"dryRun\":\"All\"}", 400);
        for (String query : List.of("gracePeriodSeconds=x", "propagationPolicy=Sideways", "dryRun=Some",
                "orphanDependents=maybe")) {
            add("DELETE with " + query, "DELETE", rc + "?" + query, null, null,
                    query.startsWith("propagationPolicy") ? 422 : 400);
        }
        add("DELETE of the status subresource", "DELETE", rc + "/status", null, null, 405);
        add("DELETE of a missing object", "DELETE", RC + "/ghost", null, null, 404);
        add("DELETE of a collection with a bad selector", "DELETE", PODS + "?labelSelector=a%20in%20(", null, null, 400);
    }

    static void methodsPathsAndHeaders() {
        add("PUT on a collection", "PUT", RC, JSON, RAY_CLUSTER, 405);
        add("POST on an object", "POST", RC + "/hostile-existing", JSON, RAY_CLUSTER, 405);
        add("POST on a status subresource", "POST", RC + "/hostile-existing/status", JSON, RAY_CLUSTER, 405);
        add("PUT on the log subresource", "PUT", PODS + "/hostile-existing-pod/log", JSON, POD, 405);
        add("TRACE", "TRACE", RC, null, null, 405);
        add("an unknown method", "FOO", RC, null, null, 405);
        add("POST of a cluster-scoped kind without a namespace segment", "POST", "/api/v1/pods", JSON, POD, 405);
        for (String path : List.of("/apis/ray.io/v2/namespaces/default/rayclusters", "/apis/nope.io/v1/things",
                "/api/v2/pods", NS + "/pods/x/y/z", NS + "/foos", RC + "/hostile-existing/bogus",
                CM + "/hostile-existing-cm/status", NS + "/nodes", "/apis/batch/v2/jobs", "/api/v1/namespaces/ghost/pods/x",
                RC + "/ghost", "/apis/ray.io/v1/rayclusters/x", NODES + "/ghost/status")) {
            add("GET " + path, "GET", path, null, null, 404);
        }
        for (String type : List.of("text/plain", "application/xml", "multipart/form-data; boundary=x", JSON_PATCH,
                "*/*", "application/*", "garbage")) {
            add("POST with Content-Type " + type, "POST", RC, type, RAY_CLUSTER, 415);
        }
        CASES.add(new Case("GET with Accept application/xml", "GET", RC, null, "application/xml", null, 406));
        CASES.add(new Case("GET with Accept text/html", "GET", PODS + "/hostile-existing-pod", null, "text/html", null, 406));
        CASES.add(new Case("GET with Accept image/png", "GET", NODES, null, "image/png", null, 406));
    }

    static Stream<Case> cases() {
        return CASES.stream();
    }

    @BeforeAll
    void fixtures() throws Exception {
        send(new Case("fixture", "POST", RC, JSON, null, with(RAY_CLUSTER, "\"name\":\"hostile-rc\"",
                "\"name\":\"hostile-existing\"").getBytes(StandardCharsets.UTF_8), 201));
        send(new Case("fixture", "POST", PODS, JSON, null, with(POD, "\"name\":\"hostile-pod\"",
                "\"name\":\"hostile-existing-pod\"").getBytes(StandardCharsets.UTF_8), 201));
        send(new Case("fixture", "POST", CM, JSON, null,
                "{\"metadata\":{\"name\":\"hostile-existing-cm\"},\"data\":{\"a\":\"b\"}}".getBytes(StandardCharsets.UTF_8), 201));
    }

    RawHttp.Response send(Case c) throws Exception {
        StringBuilder head = new StringBuilder(c.method()).append(' ').append(c.path()).append(" HTTP/1.1\r\n")
                .append("Host: localhost\r\nConnection: close\r\n");
        if (c.contentType() != null) {
            head.append("Content-Type: ").append(c.contentType()).append("\r\n");
        }
        if (c.accept() != null) {
            head.append("Accept: ").append(c.accept()).append("\r\n");
        }
        head.append("Content-Length: ").append(c.body() == null ? 0 : c.body().length).append("\r\n\r\n");
        return RawHttp.exchange(port, head.toString(), c.body(), Duration.ofSeconds(10));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    @DisplayName("a hostile request gets a Status with the expected code, quickly, and the store holds what was acknowledged")
    void hostileRequest(Case c) throws Exception {
        long before = registry.store().revision();
        RawHttp.Response r = send(c);
        assertThat(r.code()).as(c.name() + ": " + r.text()).isEqualTo(c.code()).isLessThan(500);
        assertThat(r.header("Content-Type")).as(c.name()).startsWith("application/json");
        JsonNode status = r.json();
        assertThat(status.path("kind").asString()).as(c.name() + ": " + status).isEqualTo("Status");
        assertThat(status.path("status").asString()).isEqualTo("Failure");
        assertThat(status.path("code").asInt()).isEqualTo(c.code());
        assertThat(status.path("reason").asString()).isNotBlank();
        assertThat(status.path("message").asString()).isNotBlank().doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(registry.store().revision()).as(c.name() + ": a refused request wrote nothing").isEqualTo(before);
    }

    @Test
    @DisplayName("the suite has at least 300 distinct requests")
    void enoughDistinctRequests() {
        Set<String> distinct = new HashSet<>();
        for (Case c : CASES) {
            assertThat(distinct.add(c.identity())).as("duplicate case: " + c.name()).isTrue();
        }
        assertThat(distinct).hasSizeGreaterThanOrEqualTo(300);
    }

    @Test
    @DisplayName("accepted odd requests: what the answer says is exactly what is stored")
    void acceptedRequestsAreStoredAsAnswered() throws Exception {
        List<Case> accepted = List.of(
                new Case("YAML with anchors", "POST", CM, YAML, null,
                        "metadata: {name: &n hostile-anchors, labels: {app: *n}}\ndata: {a: *n}\n".getBytes(StandardCharsets.UTF_8), 201),
                new Case("unknown fields under Warn", "POST", RC + "?fieldValidation=Warn", JSON, null,
                        with(RAY_CLUSTER, "\"spec\":{", "\"spec\":{\"bogus\":1,").replace("hostile-rc", "hostile-warned")
                                .getBytes(StandardCharsets.UTF_8), 201),
                new Case("duplicate keys under Warn", "POST", CM + "?fieldValidation=Warn", JSON, null,
                        "{\"metadata\":{\"name\":\"hostile-dup\"},\"data\":{\"a\":\"1\",\"a\":\"2\"}}".getBytes(StandardCharsets.UTF_8), 201),
                new Case("negative grace period", "POST", PODS, JSON, null, with(POD, "\"terminationGracePeriodSeconds\":30",
                        "\"terminationGracePeriodSeconds\":-5").replace("hostile-pod", "hostile-negative")
                        .getBytes(StandardCharsets.UTF_8), 201),
                new Case("merge patch with a status field on the main resource", "PATCH", RC + "/hostile-existing", MERGE,
                        null, "{\"status\":{\"state\":\"ready\"}}".getBytes(StandardCharsets.UTF_8), 200));
        for (Case c : accepted) {
            RawHttp.Response r = send(c);
            assertThat(r.code()).as(c.name() + ": " + r.text()).isEqualTo(c.code());
            JsonNode answered = r.json();
            String self = (c.path().contains("?") ? c.path().substring(0, c.path().indexOf('?')) : c.path());
            if (c.method().equals("POST")) {
                self = self + "/" + answered.at("/metadata/name").asString();
            }
            RawHttp.Response stored = send(new Case("get", "GET", self, null, null, null, 200));
            assertThat(stored.json()).as(c.name()).isEqualTo(answered);
        }
        assertThat(send(new Case("get", "GET", CM + "/hostile-dup", null, null, null, 200)).json()
                .at("/data/a").asString()).isEqualTo("2");
        assertThat(Json.MAPPER.readTree(send(new Case("get", "GET", CM + "/hostile-anchors", null, null, null, 200))
                .body()).at("/data/a").asString()).isEqualTo("hostile-anchors");
    }
}
