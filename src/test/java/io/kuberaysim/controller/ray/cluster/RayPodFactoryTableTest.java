package io.kuberaysim.controller.ray.cluster;

import io.kuberaysim.api.ray.RayCluster;
import io.kuberaysim.apiserver.storage.StoredObject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What {@code kubectl get pod <name> -o yaml} shows for the Pods of {@link RayPodFactoryTest#CLUSTER}, one row per
 * field, as KubeRay's common/pod.go builds them: names lower-cased ({@code utils.PodName}), the system labels of
 * {@code labelPod} over the group's labels (not overridable: {@code ray.io/node-type}, {@code ray.io/group},
 * {@code ray.io/cluster}), the container command of {@code BuildPod} and the {@code wait-gcs-ready} init container of
 * {@code DefaultWorkerPodTemplate} on workers only.
 */
class RayPodFactoryTableTest {

    @ParameterizedTest(name = "{0} Pod: {1} = {2}")
    @CsvSource(delimiter = '|', textBlock = """
            # pod    | JSON pointer                                         | value
            head     | /metadata/name                                       | demo-head
            worker   | /metadata/name                                       | demo-worker-biggroup-0
            head     | /metadata/labels/ray.io~1node-type                   | head
            worker   | /metadata/labels/ray.io~1node-type                   | worker
            head     | /metadata/labels/ray.io~1group                       | headgroup
            worker   | /metadata/labels/ray.io~1group                       | BigGroup
            worker   | /metadata/labels/ray.io~1cluster                     | demo
            worker   | /metadata/labels/ray.io~1is-ray-node                 | yes
            worker   | /metadata/labels/app.kubernetes.io~1created-by       | kuberay-operator
            worker   | /metadata/labels/zone                                | a
            head     | /metadata/labels/tier                                | head-tier
            head     | /spec/containers/0/command/0                         | /bin/bash
            worker   | /spec/initContainers/0/name                          | wait-gcs-ready
            head     | /spec/initContainers/0/name                          | setup
            head     | /metadata/ownerReferences/0/kind                     | RayCluster
            head     | /metadata/ownerReferences/0/controller               | true
            """)
    void podAsKubeRayBuildsIt(String pod, String pointer, String value) {
        StoredObject c = RayPodFactoryTest.cluster("{}", false);
        RayCluster rc = RayPodFactoryTest.typed(c);
        JsonNode built = pod.equals("head") ? RayPodFactory.headPod(c, rc.spec())
                : RayPodFactory.workerPod(c, rc.spec(), rc.spec().workerGroupSpecs().get(0), 0);

        assertThat(built.at(pointer).asString()).isEqualTo(value);
    }
}
