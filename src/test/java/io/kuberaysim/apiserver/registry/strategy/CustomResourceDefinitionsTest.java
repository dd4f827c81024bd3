package io.kuberaysim.apiserver.registry.strategy;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ray.RayJob;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.registry.DeleteOptions;
import io.kuberaysim.apiserver.registry.ListOptions;
import io.kuberaysim.apiserver.registry.PatchType;
import io.kuberaysim.apiserver.registry.WriteOptions;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.testing.TestCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;

import static io.kuberaysim.api.ResourceTypes.CUSTOMRESOURCEDEFINITIONS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The definitions of the served custom resources as a fresh control plane holds them, and the registry's refusal of
 * every write of them (in process too: a scenario's apply of a CRD manifest is refused as over HTTP).
 */
class CustomResourceDefinitionsTest {
    private final TestCluster cluster = new TestCluster();

    @AfterEach
    void close() {
        cluster.close();
    }

    private StoredObject crd(String name) {
        return cluster.registry.reader().get(CUSTOMRESOURCEDEFINITIONS, null, name);
    }

    @Test
    void aFreshControlPlaneHoldsOneEstablishedDefinitionPerCustomResource() {
        List<StoredObject> items = cluster.registry.reader().list(CUSTOMRESOURCEDEFINITIONS, null, ListOptions.ALL)
                .items();
        assertThat(items).extracting(StoredObject::name).containsExactly("faultschedules.sim.kuberay.io",
                "nodelifecyclerules.sim.kuberay.io", "podlifecyclerules.sim.kuberay.io", "rayclusters.ray.io",
                "rayjobs.ray.io", "rayservices.ray.io");
        for (StoredObject crd : items) {
            JsonNode o = crd.object();
            assertThat(o.at("/metadata/generation").asLong()).as(crd.name()).isEqualTo(1);
            assertThat(o.at("/metadata/uid").asString()).as(crd.name()).isNotEmpty();
            assertThat(o.at("/status/conditions/1/type").asString()).isEqualTo("Established");
            assertThat(o.at("/status/conditions/1/status").asString()).isEqualTo("True");
            assertThat(o.at("/status/acceptedNames")).isEqualTo(o.at("/spec/names"));
        }
    }

    @Test
    void theRayJobDefinitionCarriesTheSchemaTheServerValidatesRayJobsWith() {
        JsonNode version = crd("rayjobs.ray.io").object().at("/spec/versions/0");
        assertThat(version.at("/schema/openAPIV3Schema")).isEqualTo(RayJob.schema().toOpenApi(Json.MAPPER));
        assertThat(version.at("/subresources/status").isObject()).isTrue();
        assertThat(version.at("/additionalPrinterColumns/0/jsonPath").asString()).isEqualTo(".status.jobStatus");
    }

    @Test
    void everyWriteThroughTheRegistryIsRefusedWith405() {
        long revision = crd("rayclusters.ray.io").resourceVersion();
        ObjectNode copy = crd("rayclusters.ray.io").copy();
        ObjectNode widget = Json.object();
        widget.put("apiVersion", "apiextensions.k8s.io/v1").put("kind", "CustomResourceDefinition")
                .putObject("metadata").put("name", "widgets.example.com");
        var registry = cluster.registry;
        List<Executable> writes = List.of(
                () -> registry.create(CUSTOMRESOURCEDEFINITIONS, null, widget, WriteOptions.DEFAULT),
                () -> registry.update(CUSTOMRESOURCEDEFINITIONS, null, "rayclusters.ray.io", copy, false,
                        WriteOptions.DEFAULT),
                () -> registry.patch(CUSTOMRESOURCEDEFINITIONS, null, "rayclusters.ray.io", PatchType.MERGE,
                        Json.MAPPER.readTree("{\"metadata\":{\"labels\":{\"a\":\"b\"}}}"), false, WriteOptions.DEFAULT),
                () -> registry.delete(CUSTOMRESOURCEDEFINITIONS, null, "rayclusters.ray.io", DeleteOptions.DEFAULT),
                () -> registry.deleteCollection(CUSTOMRESOURCEDEFINITIONS, null,
                        ListOptions.fields("metadata.name=nothing"), DeleteOptions.DEFAULT));
        for (Executable write : writes) {
            ApiException e = catchThrowableOfType(ApiException.class, write::execute);
            assertThat(e.code()).isEqualTo(405);
            assertThat(e.reason()).isEqualTo("MethodNotAllowed");
        }
        assertThat(crd("rayclusters.ray.io").resourceVersion()).isEqualTo(revision);
        assertThat(crd("rayclusters.ray.io").object().at("/metadata/labels").isMissingNode()).isTrue();
        assertThat(cluster.registry.store().get(CUSTOMRESOURCEDEFINITIONS, null, "widgets.example.com")).isNull();
    }
}
