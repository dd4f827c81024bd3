package io.kuberaysim.e2e;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
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
import java.util.List;
import java.util.stream.StreamSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The CustomResourceDefinitions of the served custom resources, read as CI scripts and clients read them on a cluster
 * with KubeRay installed ({@code kubectl get crd}, {@code kubectl wait --for condition=established}, fabric8's
 * apiextensions client), and refused as kube-apiserver refuses a verb a resource does not serve when written.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "kuberay-sim.controllers=false")
class CustomResourceDefinitionsE2EIT {
    static final List<String> NAMES = List.of("faultschedules.sim.kuberay.io", "nodelifecyclerules.sim.kuberay.io",
            "podlifecyclerules.sim.kuberay.io", "rayclusters.ray.io", "rayjobs.ray.io", "rayservices.ray.io");
    static final String REFUSED = "Error from server (MethodNotAllowed)";
    static final String NOT_ALLOWED = "the server does not allow this method on the requested resource";
    static final String CRD_MANIFEST = """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata:
              name: %s.%s
            spec:
              group: %s
              names: {kind: %s, listKind: %sList, plural: %s, singular: %s}
              scope: Namespaced
              versions:
              - name: v1
                served: true
                storage: true
                schema:
                  openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
                subresources: {status: {}}
            """;

    @LocalServerPort
    int port;
    @TempDir
    static Path dir;
    Kubectl kubectl;
    KubernetesClient client;

    @BeforeEach
    void connect() {
        kubectl = new Kubectl(port, dir);
        Config config = new ConfigBuilder().withMasterUrl("http://127.0.0.1:" + port).withRequestRetryBackoffLimit(0)
                .build();
        client = new KubernetesClientBuilder().withConfig(config).build();
    }

    @AfterEach
    void disconnect() {
        client.close();
    }

    static String manifest(String plural, String group, String kind) {
        return CRD_MANIFEST.formatted(plural, group, group, kind, kind, plural, plural.substring(0,
                plural.length() - 1));
    }

    @Test
    void kubectlGetCrdListsEveryServedCustomResourceWithKubesDefaultColumns() throws Exception {
        assumeTrue(Kubectl.installed(), "kubectl is not on PATH");
        Kubectl.Result listed = kubectl.run("get", "crd");
        assertThat(listed.exit()).as(listed.all()).isZero();
        List<String> lines = listed.out().lines().toList();
        assertThat(lines.get(0)).matches("NAME\\s+CREATED AT");
        assertThat(lines.subList(1, lines.size())).extracting(l -> l.split("\\s+")[0]).containsExactlyElementsOf(NAMES);
        assertThat(lines.get(1)).matches("\\S+\\s+\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");

        Kubectl.Result selected = kubectl.run("get", "crds", "--field-selector", "metadata.name=rayjobs.ray.io",
                "-o", "name");
        assertThat(selected.out().strip()).isEqualTo("customresourcedefinition.apiextensions.k8s.io/rayjobs.ray.io");

        Kubectl.Result explained = kubectl.run("explain", "crd");
        assertThat(explained.exit()).as(explained.all()).isZero();
        assertThat(explained.out()).contains("GROUP:      apiextensions.k8s.io", "KIND:       CustomResourceDefinition");
    }

    @Test
    void kubectlReadsTheRayClusterDefinitionAndWaitsForItToBeEstablished() throws Exception {
        assumeTrue(Kubectl.installed(), "kubectl is not on PATH");
        Kubectl.Result established = kubectl.run("get", "crd", "rayclusters.ray.io", "-o",
                "jsonpath={.status.conditions[?(@.type==\"Established\")].status} {.spec.names.kind} {.spec.scope} "
                        + "{.spec.versions[0].name} {.status.storedVersions[0]} "
                        + "{.spec.versions[0].additionalPrinterColumns[*].name}");
        assertThat(established.out()).as(established.all()).isEqualTo("True RayCluster Namespaced v1 v1 "
                + "desired workers available workers cpus memory gpus tpus status age head pod IP head service IP");

        Kubectl.Result waited = kubectl.run("wait", "--for", "condition=established", "crd/rayclusters.ray.io",
                "--timeout=30s");
        assertThat(waited.exit()).as(waited.all()).isZero();
        assertThat(waited.out()).contains(
                "customresourcedefinition.apiextensions.k8s.io/rayclusters.ray.io condition met");
    }

    @Test
    void applyingCreatingOrDeletingADefinitionIsRefusedWith405AndChangesNothing() throws Exception {
        assumeTrue(Kubectl.installed(), "kubectl is not on PATH");
        Kubectl.Result applied = kubectl.runWithInput(manifest("rayclusters", "ray.io", "RayCluster"), "apply", "-f",
                "-");
        assertThat(applied.exit()).isNotZero();
        assertThat(applied.err()).as(applied.all()).contains(REFUSED, NOT_ALLOWED);

        Kubectl.Result created = kubectl.runWithInput(manifest("widgets", "example.com", "Widget"), "apply", "-f",
                "-");
        assertThat(created.err()).as(created.all()).contains(REFUSED, "error when creating", NOT_ALLOWED);

        Kubectl.Result deleted = kubectl.run("delete", "crd", "rayclusters.ray.io");
        assertThat(deleted.err()).as(deleted.all()).contains(REFUSED, NOT_ALLOWED);

        Kubectl.Result after = kubectl.run("get", "crd", "-o", "name");
        assertThat(after.out().lines()).hasSize(NAMES.size()).noneMatch(l -> l.contains("widgets"));
        assertThat(kubectl.run("get", "crd", "rayclusters.ray.io", "-o", "jsonpath={.metadata.generation}").out())
                .isEqualTo("1");
    }

    @Test
    void fabric8ReadsTheDefinitionWithTheSchemaTheServerValidatesRayClustersWith() {
        CustomResourceDefinition crd = client.apiextensions().v1().customResourceDefinitions()
                .withName("rayclusters.ray.io").get();
        assertThat(crd.getSpec().getGroup()).isEqualTo("ray.io");
        assertThat(crd.getSpec().getNames().getListKind()).isEqualTo("RayClusterList");
        assertThat(crd.getSpec().getNames().getCategories()).containsExactly("all");
        CustomResourceDefinitionVersion v1 = crd.getSpec().getVersions().get(0);
        assertThat(v1.getServed()).isTrue();
        assertThat(v1.getStorage()).isTrue();
        assertThat(v1.getSubresources().getStatus()).isNotNull();
        JSONSchemaProps spec = v1.getSchema().getOpenAPIV3Schema().getProperties().get("spec");
        assertThat(spec.getProperties()).containsKeys("headGroupSpec", "workerGroupSpecs", "rayVersion");
        assertThat(spec.getProperties().get("workerGroupSpecs").getItems().getSchema().getProperties())
                .containsKeys("groupName", "replicas", "minReplicas", "maxReplicas");
        assertThat(crd.getStatus().getConditions()).extracting(c -> c.getType() + "=" + c.getStatus() + " "
                + c.getReason() + ": " + c.getMessage()).containsExactly(
                "NamesAccepted=True NoConflicts: no conflicts found",
                "Established=True InitialNamesAccepted: the initial names have been accepted");
        assertThat(crd.getStatus().getAcceptedNames().getKind()).isEqualTo("RayCluster");
        assertThat(crd.getMetadata().getUid()).isNotEmpty();
        assertThat(crd.getMetadata().getResourceVersion()).isNotEmpty();

        CustomResourceDefinition nodeRules = client.apiextensions().v1().customResourceDefinitions()
                .withName("nodelifecyclerules.sim.kuberay.io").get();
        assertThat(nodeRules.getSpec().getScope()).isEqualTo("Cluster");
        assertThat(nodeRules.getSpec().getNames().getShortNames()).containsExactly("nlr");
        assertThat(nodeRules.getSpec().getVersions().get(0).getName()).isEqualTo("v1alpha1");
        assertThat(nodeRules.getSpec().getVersions().get(0).getSubresources()).isNull();

        assertThat(client.apiextensions().v1().customResourceDefinitions().list().getItems())
                .extracting(c -> c.getMetadata().getName()).containsExactlyElementsOf(NAMES);
    }

    @Test
    void fabric8WritesAreRefusedWith405() {
        var crds = client.apiextensions().v1().customResourceDefinitions();
        KubernetesClientException deleted = catchThrowableOfType(KubernetesClientException.class,
                () -> crds.withName("rayjobs.ray.io").delete());
        assertThat(deleted.getCode()).isEqualTo(405);
        assertThat(deleted.getStatus().getReason()).isEqualTo("MethodNotAllowed");

        CustomResourceDefinition widget = new CustomResourceDefinitionBuilder().withNewMetadata()
                .withName("widgets.example.com").endMetadata().withNewSpec().withGroup("example.com")
                .withScope("Namespaced").withNewNames().withKind("Widget").withPlural("widgets").endNames()
                .endSpec().build();
        KubernetesClientException created = catchThrowableOfType(KubernetesClientException.class,
                () -> crds.resource(widget).create());
        assertThat(created.getCode()).isEqualTo(405);
        assertThat(crds.withName("widgets.example.com").get()).isNull();
        assertThat(crds.withName("rayjobs.ray.io").get()).isNotNull();
    }

    @Test
    void discoveryListsTheDefinitionsWithReadVerbsOnlyAsKubeApiserverNamesThem() throws Exception {
        JsonNode legacy = Json.MAPPER.readTree(get("/apis/apiextensions.k8s.io/v1", "application/json").body());
        JsonNode resource = legacy.get("resources").get(0);
        assertThat(legacy.get("resources")).hasSize(1);
        assertThat(resource.get("name").asString()).isEqualTo("customresourcedefinitions");
        assertThat(resource.get("namespaced").asBoolean()).isFalse();
        assertThat(texts(resource.get("verbs"))).containsExactly("get", "list", "watch");
        assertThat(texts(resource.get("shortNames"))).containsExactly("crd", "crds");
        assertThat(texts(resource.get("categories"))).containsExactly("api-extensions");

        JsonNode aggregated = Json.MAPPER.readTree(get("/apis",
                "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList").body());
        JsonNode group = StreamSupport.stream(aggregated.get("items").spliterator(), false)
                .filter(g -> g.at("/metadata/name").asString().equals("apiextensions.k8s.io")).findFirst()
                .orElseThrow();
        JsonNode r = group.at("/versions/0/resources/0");
        assertThat(r.get("scope").asString()).isEqualTo("Cluster");
        assertThat(texts(r.get("verbs"))).containsExactly("get", "list", "watch");
    }

    @Test
    void aWriteAnswersKubesMethodNotAllowedStatusBeforeReadingTheBody() throws Exception {
        HttpResponse<String> posted = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("not json"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(posted.statusCode()).isEqualTo(405);
        assertThat(Json.MAPPER.readTree(posted.body())).isEqualTo(Json.MAPPER.readTree("""
                {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
                 "message":"the server does not allow this method on the requested resource",
                 "reason":"MethodNotAllowed","details":{},"code":405}"""));
    }

    @Test
    void aWatchSelectingOneDefinitionByNameStartsWithItAlone() throws Exception {
        HttpResponse<String> watched = get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions?watch=true"
                + "&timeoutSeconds=1&fieldSelector=metadata.name%3Drayservices.ray.io", "application/json");
        List<String> events = watched.body().lines().toList();
        assertThat(events).hasSize(1);
        JsonNode event = Json.MAPPER.readTree(events.get(0));
        assertThat(event.get("type").asString()).isEqualTo("ADDED");
        assertThat(event.at("/object/metadata/name").asString()).isEqualTo("rayservices.ray.io");
    }

    private HttpResponse<String> get(String path, String accept) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("Accept", accept).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static List<String> texts(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false).map(JsonNode::asString).toList();
    }
}
