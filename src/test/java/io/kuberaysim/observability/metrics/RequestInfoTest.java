package io.kuberaysim.observability.metrics;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.mock.web.MockHttpServletRequest;

import static org.assertj.core.api.Assertions.assertThat;

/** The labels kube-apiserver would give each request: verb, group, version, resource, subresource, scope, dry_run. */
class RequestInfoTest {

    @ParameterizedTest(name = "{0} {1}?{2}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            GET    | /apis/ray.io/v1/namespaces/default/rayclusters/demo        | -                   | GET    | ray.io | rayclusters | -      | resource  | -
            GET    | /apis/ray.io/v1/namespaces/default/rayclusters             | labelSelector=a%3Db | LIST   | ray.io | rayclusters | -      | namespace | -
            GET    | /apis/ray.io/v1/rayclusters                                | -                   | LIST   | ray.io | rayclusters | -      | cluster   | -
            GET    | /apis/ray.io/v1/namespaces/default/rayclusters             | watch=true          | WATCH  | ray.io | rayclusters | -      | namespace | -
            GET    | /api/v1/pods                                               | watch=1             | WATCH  | -      | pods        | -      | cluster   | -
            GET    | /api/v1/pods                                               | watch=false         | LIST   | -      | pods        | -      | cluster   | -
            POST   | /apis/ray.io/v1/namespaces/default/rayclusters             | -                   | POST   | ray.io | rayclusters | -      | resource  | -
            POST   | /apis/ray.io/v1/namespaces/default/rayclusters             | dryRun=All          | POST   | ray.io | rayclusters | -      | resource  | All
            PUT    | /apis/ray.io/v1/namespaces/default/rayclusters/demo/status | dryRun=Nope         | PUT    | ray.io | rayclusters | status | resource  | invalid
            DELETE | /api/v1/namespaces/default/pods                            | -                   | DELETE | -      | pods        | -      | namespace | -
            GET    | /api/v1/namespaces/default                                 | -                   | GET    | -      | namespaces  | -      | resource  | -
            PUT    | /api/v1/namespaces/default/finalize                        | -                   | PUT    | -      | namespaces  | finalize | resource | -
            GET    | /api/v1/namespaces                                         | -                   | LIST   | -      | namespaces  | -      | cluster   | -
            GET    | /api/v1/namespaces/default/pods/p/log                      | -                   | GET    | -      | pods        | log    | resource  | -
            """)
    void resourceRequests(String method, String path, String query, String verb, String group, String resource,
                          String subresource, String scope, String dryRun) {
        MockHttpServletRequest req = new MockHttpServletRequest(method, path);
        req.setQueryString(query);
        RequestInfo info = RequestInfo.of(req);
        assertThat(info.resourceRequest()).isTrue();
        assertThat(info.verb()).isEqualTo(verb);
        assertThat(info.group()).isEqualTo(group == null ? "" : group);
        assertThat(info.resource()).isEqualTo(resource);
        assertThat(info.subresource()).isEqualTo(subresource == null ? "" : subresource);
        assertThat(info.scope()).isEqualTo(scope);
        assertThat(info.dryRun()).isEqualTo(dryRun == null ? "" : dryRun);
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', textBlock = """
            GET     | /version                              | GET
            GET     | /apis/ray.io/v1                       | GET
            GET     | /apis/example.com/v1/namespaces/x/foos | GET
            POST    | /sim/v1/clock/advance                 | POST
            OPTIONS | /metrics                              | other
            """)
    void nonResourceRequestsUseTheMethodAsVerbAndHaveNoScope(String method, String path, String verb) {
        RequestInfo info = RequestInfo.of(new MockHttpServletRequest(method, path));
        assertThat(info.resourceRequest()).isFalse();
        assertThat(info.verb()).isEqualTo(verb);
        assertThat(info.scope()).isEmpty();
        assertThat(info.forPath("/version").subresource()).isEqualTo("/version");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            application/apply-patch+yaml                  | APPLY
            application/apply-patch+yaml; charset=utf-8   | APPLY
            application/merge-patch+json                  | PATCH
            application/strategic-merge-patch+json        | PATCH
            """)
    void serverSideApplyIsReportedAsApply(String contentType, String verb) {
        MockHttpServletRequest req = new MockHttpServletRequest("PATCH", "/apis/ray.io/v1/namespaces/default/rayclusters/demo");
        req.setContentType(contentType);
        assertThat(RequestInfo.of(req).verb()).isEqualTo(verb);
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', textBlock = """
            GET    | /api/v1/pods           | watch=true | true  | false
            GET    | /api/v1/namespaces/d/pods/p/log | -  | true  | false
            GET    | /api/v1/pods           | -          | false | false
            POST   | /api/v1/namespaces/d/pods | -       | false | true
            DELETE | /api/v1/namespaces/d/pods/p | -     | false | true
            """)
    void watchesAndLogsAreLongRunningWritesAreMutating(String method, String path, String query, boolean longRunning,
                                                       boolean mutating) {
        MockHttpServletRequest req = new MockHttpServletRequest(method, path);
        req.setQueryString("-".equals(query) ? null : query);
        RequestInfo info = RequestInfo.of(req);
        assertThat(info.longRunning()).isEqualTo(longRunning);
        assertThat(info.mutating()).isEqualTo(mutating);
    }
}
