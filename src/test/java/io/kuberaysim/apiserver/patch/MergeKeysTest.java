package io.kuberaysim.apiserver.patch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MergeKeysTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "spec.containers                                  | name",
        "spec.initContainers                              | name",
        "spec.ephemeralContainers                         | name",
        "spec.volumes                                     | name",
        "spec.imagePullSecrets                            | name",
        "spec.hostAliases                                 | ip",
        "spec.containers.env                              | name",
        "spec.initContainers.env                          | name",
        "spec.containers.ports                            | containerPort",
        "spec.containers.volumeMounts                     | mountPath",
        "spec.containers.volumeDevices                    | devicePath",
        "status.conditions                                | type",
        "metadata.ownerReferences                         | uid",
        "spec.template.metadata.ownerReferences           | uid",
        "spec.ports                                       | port",
        "spec.template.spec.containers                    | name",
        "spec.template.spec.containers.env                | name",
        "spec.template.spec.volumes                       | name",
        "spec.jobTemplate.spec.template.spec.containers   | name",
        "spec.containers.args                             | ",
        "spec.tolerations                                 | ",
        "spec.template                                    | ",
        "spec.headGroupSpec.template.spec.containers      | ",
        "metadata.finalizers                              | ",
    })
    void builtins(String path, String expected) {
        List<String> fieldPath = Arrays.asList(path.split("\\."));
        assertThat(MergeKeys.builtins().mergeKey(fieldPath).orElse(null)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "metadata.finalizers                 | true",
        "spec.template.metadata.finalizers   | true",
        "spec.finalizers                     | false",
        "spec.containers.args                | false",
    })
    void primitiveMergeLists(String path, boolean expected) {
        assertThat(MergeKeys.builtins().mergesPrimitives(Arrays.asList(path.split("\\.")))).isEqualTo(expected);
    }
}
