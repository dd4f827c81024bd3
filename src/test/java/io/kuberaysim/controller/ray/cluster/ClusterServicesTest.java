package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.storage.StoredObject;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/** Pins KubeRay's common/service.go BuildServiceForHeadPod and BuildServeService (for a RayCluster). */
class ClusterServicesTest {
    static StoredObject cluster(String headService) {
        return StoredObject.unstored(ResourceTypes.RAYCLUSTERS, (ObjectNode) Json.YAML.readTree("""
                apiVersion: ray.io/v1
                kind: RayCluster
                metadata: {name: demo, namespace: default, uid: u}
                spec:
                  headGroupSpec:
                    serviceType: NodePort
                    %s
                    template:
                      spec:
                        containers:
                        - name: ray-head
                          image: ray
                          ports: [{name: dashboard, containerPort: 8265}, {name: serve, containerPort: 8000}]
                """.formatted(headService)));
    }

    // a user headService is used as given (not headless); serviceType only fills a missing type
    @Test
    void userHeadServiceKeepsItsSpec() {
        StoredObject c = cluster("headService: {metadata: {name: my-head}, spec: {type: ClusterIP}}");
        JsonNode svc = ClusterServices.headService(c, RayPodFactoryTest.typed(c).spec());
        assertThat(svc.at("/metadata/name").asString()).isEqualTo("my-head");
        assertThat(svc.at("/spec/type").asString()).isEqualTo("ClusterIP");
        assertThat(svc.at("/spec/clusterIP").isMissingNode()).isTrue();
        StoredObject noType = cluster("headService: {metadata: {name: my-head}}");
        assertThat(ClusterServices.headService(noType, RayPodFactoryTest.typed(noType).spec()).at("/spec/type")
                .asString()).isEqualTo("NodePort");
    }

    @Test
    void generatedHeadServiceTakesServiceTypeAndIsHeadlessOnlyForClusterIP() {
        StoredObject c = cluster("");
        JsonNode svc = ClusterServices.headService(c, RayPodFactoryTest.typed(c).spec());
        assertThat(svc.at("/spec/type").asString()).isEqualTo("NodePort");
        assertThat(svc.at("/spec/clusterIP").isMissingNode()).isTrue();
        assertThat(svc.at("/spec/ports/0/appProtocol").asString()).isEqualTo("tcp");
    }

    // BuildServeService: originated-from labels, ray.io/serve=<name>-serve, serve ports without appProtocol
    @Test
    void serveServiceAsBuildServeService() {
        StoredObject c = cluster("");
        JsonNode svc = ClusterServices.serveService(c, RayPodFactoryTest.typed(c).spec());
        assertThat(svc.at("/metadata/labels").toString()).isEqualTo("{\"ray.io/originated-from-cr-name\":\"demo\","
                + "\"ray.io/originated-from-crd\":\"RayCluster\",\"ray.io/serve\":\"demo-serve\"}");
        assertThat(svc.at("/spec/ports").toString()).isEqualTo("[{\"name\":\"serve\",\"port\":8000}]");
        assertThat(svc.at("/spec/type").asString()).isEqualTo("NodePort");
    }
}
