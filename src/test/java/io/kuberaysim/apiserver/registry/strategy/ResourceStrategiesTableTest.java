package io.kuberaysim.apiserver.registry.strategy;

import io.kuberaysim.api.ResourceType;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.apiserver.errors.ApiException;
import io.kuberaysim.apiserver.errors.StatusCause;
import io.kuberaysim.apiserver.registry.WriteOptions;
import io.kuberaysim.testing.TestCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * One row per resource strategy: what a user sees when creating an object through the registry, as kube-apiserver's
 * strategy for that resource decides it: fields the server fills in ({@code PrepareForCreate} and defaults), and the
 * field a 422 Invalid names for a body its {@code Validate} refuses.
 */
class ResourceStrategiesTableTest {
    private final TestCluster cluster = new TestCluster();

    @AfterEach
    void close() {
        cluster.close();
    }

    @ParameterizedTest(name = "{0} {1}: {2} = {3}")
    @CsvSource(delimiter = '|', textBlock = """
            # resource  | body (YAML flow)                                                                      | JSON pointer in the created object  | value
            pods        | {metadata: {name: p}, spec: {containers: [{name: c, image: busybox}]}}                | /status/phase                       | Pending
            pods        | {metadata: {name: p}, spec: {containers: [{name: c, image: busybox}]}}                | /spec/restartPolicy                 | Always
            pods        | {metadata: {name: p}, spec: {containers: [{name: c, image: busybox}]}}                | /spec/containers/0/imagePullPolicy  | Always
            pods        | {metadata: {name: p}, spec: {containers: [{name: c, image: 'busybox:1.36'}]}}         | /spec/containers/0/imagePullPolicy  | IfNotPresent
            services    | {metadata: {name: s}, spec: {ports: [{port: 80}]}}                                    | /spec/type                          | ClusterIP
            services    | {metadata: {name: s}, spec: {ports: [{port: 80}]}}                                    | /spec/ports/0/protocol              | TCP
            services    | {metadata: {name: s}, spec: {ports: [{port: 80}]}}                                    | /spec/ports/0/targetPort            | 80
            jobs        | {metadata: {name: j}, spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}} | /spec/backoffLimit | 6
            namespaces  | {metadata: {name: team-a}}                                                            | /metadata/labels/kubernetes.io~1metadata.name | team-a
            namespaces  | {metadata: {name: team-a}}                                                            | /status/phase                       | Active
            configmaps  | {metadata: {name: cm}, data: {k: v}}                                                  | /data/k                             | v
            """)
    void createFillsInWhatKubeApiserverFillsIn(String resource, String body, String pointer, String value) {
        JsonNode created = cluster.registry.create(type(resource), "default", body(resource, body),
                WriteOptions.DEFAULT).object().object();

        assertThat(created.at(pointer).asString()).isEqualTo(value);
    }

    @ParameterizedTest(name = "{0} {1}: 422 on {2}")
    @CsvSource(delimiter = '|', textBlock = """
            # resource  | body (YAML flow)                                                                           | field named by the 422
            pods        | {metadata: {name: p}, spec: {containers: []}}                                              | spec.containers
            pods        | {metadata: {name: p}, spec: {containers: [{name: c}]}}                                     | spec.containers[0].image
            services    | {metadata: {name: s}, spec: {ports: [{port: 0}]}}                                          | spec.ports[0].port
            jobs        | {metadata: {name: j}, spec: {template: {spec: {restartPolicy: Always, containers: [{name: c, image: busybox}]}}}} | spec.template.spec.restartPolicy
            namespaces  | {metadata: {name: Team_A}}                                                                 | metadata.name
            """)
    void invalidBodiesAre422NamingTheField(String resource, String body, String field) {
        ApiException e = catchThrowableOfType(ApiException.class, () -> cluster.registry.create(type(resource),
                "default", body(resource, body), WriteOptions.DEFAULT));

        assertThat(e).as("a 422 for %s", body).isNotNull();
        assertThat(e.code()).isEqualTo(422);
        assertThat(e.details().causes()).extracting(StatusCause::field).contains(field);
    }

    private static ResourceType type(String resource) {
        return switch (resource) {
            case "pods" -> ResourceTypes.PODS;
            case "services" -> ResourceTypes.SERVICES;
            case "jobs" -> ResourceTypes.JOBS;
            case "namespaces" -> ResourceTypes.NAMESPACES;
            case "configmaps" -> ResourceTypes.CONFIGMAPS;
            default -> throw new IllegalArgumentException(resource);
        };
    }

    private static ObjectNode body(String resource, String flow) {
        ResourceType t = type(resource);
        ObjectNode o = TestCluster.yaml(flow);
        o.put("apiVersion", t.group().isEmpty() ? t.version() : t.group() + "/" + t.version());
        o.put("kind", t.kind());
        return o;
    }
}
