package io.kuberaysim.apiserver.http;

import io.kuberaysim.api.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * What a DELETE answers, as @kubernetes/client-node sends it (an empty body with {@code Content-Type:
 * application/json}): kube-apiserver's stores for Pods, Services, Namespaces and ServiceAccounts return the deleted
 * object (ReturnDeletedObject); every other store answers a Success Status whose details name the object, with
 * the resource as kind, which the client reads as its {@code V1Status}. A batch/v1 Job deleted without a
 * propagation policy is orphaning its Pods, and says so in a Warning header.
 */
@SpringBootTest(properties = "kuberay-sim.controllers=false")
@AutoConfigureMockMvc
class DeleteResponseHttpIT {
    static final String JOB_WARNING = "299 - \"child pods are preserved by default when jobs are deleted; set "
            + "propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning\"";

    @Autowired
    MockMvc mvc;

    JsonNode create(String collection, String body) throws Exception {
        MvcResult r = mvc.perform(post(collection).contentType("application/json").content(body)).andReturn();
        assertThat(r.getResponse().getStatus()).as(r.getResponse().getContentAsString()).isEqualTo(201);
        return Json.MAPPER.readTree(r.getResponse().getContentAsString());
    }

    MvcResult deleteAsTheJsClient(String path) throws Exception {
        MvcResult r = mvc.perform(delete(path).contentType("application/json")).andReturn();
        assertThat(r.getResponse().getStatus()).as(r.getResponse().getContentAsString()).isEqualTo(200);
        return r;
    }

    static JsonNode body(MvcResult r) throws Exception {
        return Json.MAPPER.readTree(r.getResponse().getContentAsString());
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', textBlock = """
            /api/v1/namespaces/default/configmaps                              | configmaps  |                        | {"metadata":{"name":"gone-cm"},"data":{"a":"1"}}
            /api/v1/namespaces/default/secrets                                 | secrets     |                        | {"metadata":{"name":"gone-secret"},"stringData":{"a":"1"}}
            /api/v1/nodes                                                      | nodes       |                        | {"metadata":{"name":"gone-node"}}
            /apis/coordination.k8s.io/v1/namespaces/default/leases             | leases      | coordination.k8s.io    | {"metadata":{"name":"gone-lease"}}
            /apis/rbac.authorization.k8s.io/v1/namespaces/default/roles        | roles       | rbac.authorization.k8s.io | {"metadata":{"name":"gone-role"},"rules":[]}
            /api/v1/namespaces/default/events                                  | events      |                        | {"metadata":{"name":"gone-event"},"involvedObject":{"kind":"Pod","namespace":"default","name":"p"},"reason":"Started","type":"Normal"}
            """)
    void aStoreWithoutReturnDeletedObjectAnswersASuccessStatus(String collection, String resource, String group,
                                                               String object) throws Exception {
        JsonNode created = create(collection, object);
        String name = created.at("/metadata/name").asString();

        JsonNode status = body(deleteAsTheJsClient(collection + "/" + name));

        assertThat(status.get("kind").asString()).isEqualTo("Status");
        assertThat(status.get("apiVersion").asString()).isEqualTo("v1");
        assertThat(status.get("status").asString()).isEqualTo("Success");
        assertThat(status.at("/details/name").asString()).isEqualTo(name);
        assertThat(status.at("/details/kind").asString()).isEqualTo(resource);
        assertThat(status.at("/details/group").asString("")).isEqualTo(group == null ? "" : group);
        assertThat(status.at("/details/uid").asString()).isEqualTo(created.at("/metadata/uid").asString());
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', textBlock = """
            /api/v1/namespaces/default/services                     | Service        | {"metadata":{"name":"kept-svc"},"spec":{"ports":[{"port":80}]}}
            /api/v1/namespaces/default/serviceaccounts              | ServiceAccount | {"metadata":{"name":"kept-sa"}}
            /api/v1/namespaces/default/pods                         | Pod            | {"metadata":{"name":"kept-pod"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}
            /api/v1/namespaces                                      | Namespace      | {"metadata":{"name":"kept-ns"}}
            """)
    void aStoreWithReturnDeletedObjectAnswersTheObject(String collection, String kind, String object)
            throws Exception {
        String name = create(collection, object).at("/metadata/name").asString();

        JsonNode answered = body(deleteAsTheJsClient(collection + "/" + name));

        assertThat(answered.get("kind").asString()).isEqualTo(kind);
        assertThat(answered.at("/metadata/name").asString()).isEqualTo(name);
    }

    @Test
    void aRayClusterDeleteAnswersASuccessStatusNamingItsGroup() throws Exception {
        String rc = "/apis/ray.io/v1/namespaces/default/rayclusters";
        create(rc, """
                {"apiVersion":"ray.io/v1","kind":"RayCluster","metadata":{"name":"gone-rc"},
                 "spec":{"headGroupSpec":{"template":{"spec":{"containers":[{"name":"ray-head","image":"r"}]}}}}}""");

        JsonNode status = body(deleteAsTheJsClient(rc + "/gone-rc"));

        assertThat(status.get("status").asString()).isEqualTo("Success");
        assertThat(status.at("/details/group").asString()).isEqualTo("ray.io");
        assertThat(status.at("/details/kind").asString()).isEqualTo("rayclusters");
    }

    @Test
    void aJobDeletedWithoutAPolicyWarnsThatItsPodsAreKept() throws Exception {
        String jobs = "/apis/batch/v1/namespaces/default/jobs";
        String job = """
                {"metadata":{"name":"%s"},"spec":{"template":{"spec":{"restartPolicy":"Never",
                 "containers":[{"name":"c","image":"busybox"}]}}}}""";
        create(jobs, job.formatted("orphaning"));
        create(jobs, job.formatted("background"));

        MvcResult orphaning = deleteAsTheJsClient(jobs + "/orphaning");
        MvcResult background = deleteAsTheJsClient(jobs + "/background?propagationPolicy=Background");

        assertThat(orphaning.getResponse().getHeaders("Warning")).containsExactly(JOB_WARNING);
        assertThat(body(orphaning).at("/metadata/finalizers/0").asString()).isEqualTo("orphan");
        assertThat(background.getResponse().getHeaders("Warning")).isEmpty();
        assertThat(body(background).get("status").asString()).isEqualTo("Success");
        assertThat(body(background).at("/details/kind").asString()).isEqualTo("jobs");
        MvcResult collection = mvc.perform(delete(jobs).param("labelSelector", "none=x")).andReturn();
        assertThat(collection.getResponse().getStatus()).isEqualTo(200);
        assertThat(collection.getResponse().getHeaders("Warning")).containsExactly(JOB_WARNING);
    }
}
