package io.kuberaysim.apiserver.http;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.kuberaysim.api.Json;
import io.kuberaysim.testing.Kubectl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * In its own namespace: the Spring context (and its store) is shared with other tests of the same properties.
 * {@code POST pods/{name}/binding} and {@code POST bindings} over a real port, as a custom scheduler sends them with
 * fabric8, with a python-client-style raw request and with kubectl: the Pod is bound in one write and the answer is
 * kube-apiserver's Status Success with code 201; bad Bindings get Statuses and leave the Pod as it was.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "kuberay-sim.controllers=false")
class PodBindingHttpIT {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String NS = "binding-it";

    @LocalServerPort
    int port;
    @TempDir
    Path dir;
    KubernetesClient client;

    @BeforeEach
    void connect() {
        Config config = new ConfigBuilder().withMasterUrl("http://127.0.0.1:" + port).withNamespace(NS)
                .withRequestRetryBackoffLimit(0).build();
        client = new KubernetesClientBuilder().withConfig(config).build();
        if (client.namespaces().withName(NS).get() == null) {
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build())
                    .create();
        }
    }

    @AfterEach
    void disconnect() {
        client.close();
    }

    private void pending(String name) {
        client.pods().resource(new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec()
                .addNewContainer().withName("c").withImage("busybox").endContainer().endSpec().build()).create();
    }

    private record Answer(int code, JsonNode body) {
    }

    /** As the python client's create_namespaced_pod_binding / create_namespaced_binding send it. */
    private Answer post(String path, String body) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .header("User-Agent", "OpenAPI-Generator/31.0.0/python")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), Json.MAPPER.readTree(r.body()));
    }

    private static String binding(String name, String targetKind, String node) {
        return """
                {"apiVersion":"v1","kind":"Binding","metadata":{"name":"%s"},
                 "target":{"apiVersion":"v1","kind":"%s","name":"%s"}}""".formatted(name, targetKind, node);
    }

    @Test
    void fabric8BindsThroughTheBindingsCollection() {
        pending("scheduled-by-fabric8");
        Binding b = new BindingBuilder().withNewMetadata().withName("scheduled-by-fabric8")
                .addToAnnotations("scheduler.example/decided", "yes").endMetadata()
                .withNewTarget().withApiVersion("v1").withKind("Node").withName("sim-node-2").endTarget().build();
        client.bindings().inNamespace(NS).resource(b).create();

        Pod pod = client.pods().withName("scheduled-by-fabric8").get();
        assertThat(pod.getSpec().getNodeName()).isEqualTo("sim-node-2");
        assertThat(pod.getMetadata().getAnnotations()).containsEntry("scheduler.example/decided", "yes");
        assertThat(pod.getStatus().getConditions()).anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("PodScheduled");
            assertThat(c.getStatus()).isEqualTo("True");
        });

        KubernetesClientException again = catchThrowableOfType(KubernetesClientException.class,
                () -> client.bindings().inNamespace(NS).resource(b).create());
        assertThat(again.getCode()).isEqualTo(409);
        assertThat(again.getStatus().getMessage()).isEqualTo("Operation cannot be fulfilled on pods/binding "
                + "\"scheduled-by-fabric8\": pod scheduled-by-fabric8 is already assigned to node \"sim-node-2\"");
    }

    @Test
    void theSubresourceAnswersStatusSuccessWith201() throws Exception {
        pending("p1");
        Answer a = post("/api/v1/namespaces/" + NS + "/pods/p1/binding", binding("p1", "Node", "sim-node-1"));
        assertThat(a.code()).isEqualTo(201);
        assertThat(a.body().toString()).isEqualTo(
                "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Success\",\"code\":201}");
        assertThat(client.pods().withName("p1").get().getSpec().getNodeName()).isEqualTo("sim-node-1");

        Answer missing = post("/api/v1/namespaces/" + NS + "/pods/absent/binding", binding("absent", "Node", "n"));
        assertThat(missing.code()).isEqualTo(404);
        assertThat(missing.body().get("message").asString()).isEqualTo("pods \"absent\" not found");
    }

    @Test
    void badBindingsAreStatusesAndBindNothing() throws Exception {
        pending("p2");
        Answer wrongKind = post("/api/v1/namespaces/" + NS + "/pods/p2/binding", binding("p2", "Pod", ""));
        assertThat(wrongKind.code()).isEqualTo(422);
        assertThat(wrongKind.body().get("reason").asString()).isEqualTo("Invalid");
        assertThat(wrongKind.body().get("message").asString()).isEqualTo("Binding \"p2\" is invalid: ["
                + "target.kind: Unsupported value: \"Pod\": supported values: \"Node\", \"<empty>\", "
                + "target.name: Required value]");
        List<String> fields = new ArrayList<>();
        wrongKind.body().get("details").get("causes").forEach(c -> fields.add(c.get("field").asString()));
        assertThat(fields).containsExactly("target.kind", "target.name");

        Answer mismatch = post("/api/v1/namespaces/" + NS + "/pods/p2/binding", binding("other", "Node", "n"));
        assertThat(mismatch.code()).isEqualTo(400);
        assertThat(mismatch.body().get("message").asString())
                .isEqualTo("name in URL does not match name in Binding object");

        Answer notABinding = post("/api/v1/namespaces/" + NS + "/bindings",
                "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p2\"}}");
        assertThat(notABinding.code()).isEqualTo(400);

        Answer wrongType = post("/api/v1/namespaces/" + NS + "/bindings",
                "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"p2\"},\"target\":\"n\"}");
        assertThat(wrongType.code()).isEqualTo(400);
        assertThat(wrongType.body().get("message").asString()).startsWith("Binding in version \"v1\" cannot be "
                + "handled as a Binding: json: cannot unmarshal string");

        Answer precondition = post("/api/v1/namespaces/" + NS + "/bindings", """
                {"apiVersion":"v1","kind":"Binding","metadata":{"name":"p2","uid":"not-the-pods"},
                 "target":{"kind":"Node","name":"n"}}""");
        assertThat(precondition.code()).isEqualTo(409);
        assertThat(precondition.body().get("message").asString()).contains("Precondition failed: UID in precondition:"
                + " not-the-pods");

        Answer dryRun = post("/api/v1/namespaces/" + NS + "/pods/p2/binding?dryRun=All", binding("p2", "", "n"));
        assertThat(dryRun.code()).isEqualTo(201);

        assertThat(client.pods().withName("p2").get().getSpec().getNodeName()).isNull();
    }

    @Test
    void onlyCreateIsServedOnBindings() throws Exception {
        HttpResponse<String> get = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/api/v1/namespaces/" + NS + "/bindings")).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(get.statusCode()).isEqualTo(405);
        assertThat(Json.MAPPER.readTree(get.body()).get("reason").asString()).isEqualTo("MethodNotAllowed");
    }

    @Test
    void discoveryListsBindingsAndThePodsSubresourceForCreate() {
        var resources = client.getApiResources("v1").getResources();
        assertThat(resources).anySatisfy(r -> {
            assertThat(r.getName()).isEqualTo("bindings");
            assertThat(r.getKind()).isEqualTo("Binding");
            assertThat(r.getNamespaced()).isTrue();
            assertThat(r.getVerbs()).containsExactly("create");
        });
        assertThat(resources).anySatisfy(r -> {
            assertThat(r.getName()).isEqualTo("pods/binding");
            assertThat(r.getKind()).isEqualTo("Binding");
            assertThat(r.getVerbs()).containsExactly("create");
        });
    }

    @Test
    void kubectlCreatesABinding() throws Exception {
        assumeTrue(Kubectl.installed(), "kubectl is not on PATH");
        pending("p3");
        Kubectl kubectl = new Kubectl(port, dir);
        // kubectl's validation finds no PATCH of the kind in OpenAPI v3, downloads OpenAPI v2 and skips the check
        Kubectl.Result created = kubectl.runWithInput("""
                apiVersion: v1
                kind: Binding
                metadata: {name: p3}
                target: {kind: Node, name: sim-node-3}
                """, "create", "-n", NS, "-f", "-");
        assertThat(created.exit()).as(created.all()).isZero();
        assertThat(client.pods().withName("p3").get().getSpec().getNodeName()).isEqualTo("sim-node-3");
        Kubectl.Result resources = kubectl.run("api-resources", "--api-group=", "-o", "wide");
        assertThat(resources.out()).as(resources.all()).containsPattern("bindings\\s+v1\\s+true\\s+Binding\\s+create");
    }
}
