package io.kuberaysim.controller.ray.job;

import io.kuberaysim.api.Json;
import io.kuberaysim.api.ResourceTypes;
import io.kuberaysim.api.ray.RayJob;
import io.kuberaysim.api.ray.RayJobStatus;
import io.kuberaysim.apiserver.storage.StoredObject;
import io.kuberaysim.client.KubeClient;
import io.kuberaysim.controller.ray.dashboard.ClusterKey;
import io.kuberaysim.sim.ray.RayDashboard;
import io.kuberaysim.testing.SimulationHarness;
import io.kuberaysim.testing.TestCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The RayJob state machine on the whole operator and simulated cluster with default timings: a RayCluster is ready
 * 2 s after creation, the submitter Pod runs 2 s later, a Ray job runs 1 s (so K8sJobMode completes at +5 s).
 * Timelines and cleanup are asserted in {@code e2e.RayJobEndToEndTest}.
 */
class RayJobReconcilerTest {
    private final SimulationHarness h = SimulationHarness.withOperator();
    private final RayDashboard dashboard = h.dashboard();

    @AfterEach
    void close() {
        h.close();
    }

    static String manifest(String name, String annotations, String extraSpec) {
        return """
                apiVersion: ray.io/v1
                kind: RayJob
                metadata:
                  name: %s
                  namespace: default
                  annotations:
                    note: x
                %s
                spec:
                  entrypoint: python -c "print(1)"
                %s
                  rayClusterSpec:
                    headGroupSpec:
                      rayStartParams: {}
                      template:
                        spec:
                          containers:
                          - name: ray-head
                            image: rayproject/ray:2.46.0
                    workerGroupSpecs:
                    - groupName: small
                      replicas: 1
                      minReplicas: 1
                      maxReplicas: 1
                      rayStartParams: {}
                      template:
                        spec:
                          containers:
                          - name: ray-worker
                            image: rayproject/ray:2.46.0
                """.formatted(name, indent(annotations, 4), indent(extraSpec, 2));
    }

    private static String indent(String s, int n) {
        if (s == null || s.isBlank()) {
            return "";
        }
        String pad = " ".repeat(n);
        return s.lines().map(l -> pad + l).reduce((a, b) -> a + "\n" + b).orElse("");
    }

    StoredObject create(String name, String annotations, String extraSpec) {
        return h.create(ResourceTypes.RAYJOBS, "default", manifest(name, annotations, extraSpec));
    }

    RayJobStatus status(String name) {
        StoredObject o = h.client().get(ResourceTypes.RAYJOBS, "default", name);
        return o == null ? null : KubeClient.read(o.object(), RayJob.class).status();
    }

    StoredObject cluster(String name) {
        return h.client().get(ResourceTypes.RAYCLUSTERS, "default", name);
    }

    List<String> events(String reason) {
        List<String> out = new ArrayList<>();
        for (StoredObject e : h.client().list(ResourceTypes.EVENTS, "default", null)) {
            if (reason.equals(Json.text(e.object(), "reason"))) {
                out.add(Json.text(e.object(), "type") + " " + Json.text(e.object(), "message"));
            }
        }
        return out;
    }

    @Test
    void k8sJobModeSucceedsAndDeletesTheClusterButKeepsTheSubmitter() {
        create("demo", null, "shutdownAfterJobFinishes: true");
        RayJobStatus st = status("demo");
        assertThat(st.jobDeploymentStatus()).isEqualTo("Initializing");
        String clusterName = st.rayClusterName();
        // KubeRay utils/util.go GenerateRayClusterName and GenerateRayJobId: <rayjob>-rand.String(5)
        assertThat(clusterName).matches("demo-[bcdfghjklmnpqrstvwxz2456789]{5}");
        assertThat(st.jobId()).matches("demo-[bcdfghjklmnpqrstvwxz2456789]{5}").isNotEqualTo(clusterName);
        StoredObject rc = cluster(clusterName);
        assertThat(rc.labels()).containsEntry("ray.io/originated-from-cr-name", "demo")
                .containsEntry("ray.io/originated-from-crd", "RayJob")
                .containsEntry("ray.io/job-submission-mode", "K8sJobMode");
        assertThat(Json.text(rc.object(), "metadata", "annotations", "note")).isEqualTo("x");
        assertThat(Json.at(rc.object(), "metadata", "ownerReferences").get(0).get("controller").asBoolean()).isTrue();
        assertThat(Json.at(h.client().get(ResourceTypes.RAYJOBS, "default", "demo").object(), "metadata",
                "finalizers").toString()).contains(RayJobReconciler.FINALIZER);

        h.advance(Duration.ofSeconds(2));
        st = status("demo");
        assertThat(st.jobDeploymentStatus()).isEqualTo("Running");
        assertThat(st.dashboardURL()).isEqualTo(clusterName + "-head-svc.default.svc.cluster.local:8265");
        StoredObject submitter = h.client().get(ResourceTypes.JOBS, "default", "demo");
        assertThat(submitter).isNotNull();
        assertThat(Json.at(submitter.object(), "spec", "backoffLimit").asInt()).isEqualTo(2);

        // the submitter Pod starts 2 s after the cluster is ready, the Ray job runs 1 s
        h.advance(Duration.ofSeconds(3));
        st = status("demo");
        assertThat(st.jobDeploymentStatus()).isEqualTo("Complete");
        assertThat(st.jobStatus()).isEqualTo("SUCCEEDED");
        assertThat(st.succeeded()).isEqualTo(1);
        assertThat(st.failed()).isZero();
        assertThat(st.startTime()).isEqualTo(h.clock().startTime());
        assertThat(st.endTime()).isEqualTo(h.clock().startTime().plusSeconds(5));
        assertThat(st.rayJobInfo().startTime()).isNotNull();
        assertThat(cluster(clusterName)).isNull();
        assertThat(h.client().get(ResourceTypes.JOBS, "default", "demo")).isNotNull();
        assertThat(h.client().get(ResourceTypes.SERVICES, "default", "demo-head-svc")).isNotNull();
        assertThat(events("CreatedRayCluster")).containsExactly("Normal Created RayCluster default/" + clusterName);
        assertThat(events("CreatedRayJobSubmitter")).containsExactly("Normal Created Kubernetes Job default/demo");
        assertThat(events("DeletedRayCluster")).containsExactly("Normal Deleted cluster default/" + clusterName);
    }

    @Test
    void failedJobIsRetriedOnNewClustersUntilTheBackoffLimit() {
        create("flaky", RayDashboard.RESULT_ANNOTATION + ": FAILED",
                "backoffLimit: 2\nshutdownAfterJobFinishes: true");
        List<String> clusters = new ArrayList<>();
        List<String> jobIds = new ArrayList<>();
        for (int i = 0; i < 30 && !"Failed".equals(status("flaky").jobDeploymentStatus()); i++) {
            RayJobStatus st = status("flaky");
            if (st.rayClusterName() != null && !clusters.contains(st.rayClusterName())) {
                clusters.add(st.rayClusterName());
                jobIds.add(st.jobId());
            }
            h.advance(Duration.ofSeconds(1));
        }
        RayJobStatus st = status("flaky");
        assertThat(st.jobDeploymentStatus()).isEqualTo("Failed");
        assertThat(st.reason()).isEqualTo("AppFailed");
        assertThat(st.jobStatus()).isEqualTo("FAILED");
        assertThat(st.failed()).isEqualTo(3);
        assertThat(st.succeeded()).isZero();
        assertThat(clusters).hasSize(3).doesNotHaveDuplicates();
        assertThat(jobIds).doesNotHaveDuplicates();
        h.advance(Duration.ofSeconds(1));
        assertThat(h.client().list(ResourceTypes.RAYCLUSTERS, "default", null)).isEmpty();
    }

    @Test
    void activeDeadlineFailsTheJobWithoutRetry() {
        create("slow", RayDashboard.DURATION_ANNOTATION + ": \"100\"",
                "activeDeadlineSeconds: 5\nbackoffLimit: 3\nshutdownAfterJobFinishes: true");
        h.advance(Duration.ofSeconds(4));
        assertThat(status("slow").jobDeploymentStatus()).isEqualTo("Running");
        h.advance(Duration.ofSeconds(1));
        RayJobStatus st = status("slow");
        assertThat(st.jobDeploymentStatus()).isEqualTo("Failed");
        assertThat(st.reason()).isEqualTo("DeadlineExceeded");
        assertThat(st.message()).contains("activeDeadlineSeconds");
        assertThat(st.failed()).isEqualTo(1);
        assertThat(cluster(st.rayClusterName())).isNull();
    }

    @Test
    void preRunningDeadlineFailsAJobThatNeverStarts() {
        create("stuck", null, "preRunningDeadlineSeconds: 1");
        h.advance(Duration.ofSeconds(1));
        RayJobStatus st = status("stuck");
        assertThat(st.jobDeploymentStatus()).isEqualTo("Failed");
        assertThat(st.reason()).isEqualTo("PreRunningDeadlineExceeded");
    }

    @Test
    void ttlDelaysTheClusterDeletion() {
        create("ttl", null, "shutdownAfterJobFinishes: true\nttlSecondsAfterFinished: 10");
        h.advance(Duration.ofSeconds(5));
        RayJobStatus st = status("ttl");
        assertThat(st.jobDeploymentStatus()).isEqualTo("Complete");
        h.advance(Duration.ofSeconds(10));
        assertThat(cluster(st.rayClusterName())).isNotNull();
        h.advance(Duration.ofSeconds(2)); // KubeRay requeues 2 s after the TTL
        assertThat(cluster(st.rayClusterName())).isNull();
    }

    @Test
    void withoutShutdownTheClusterStays() {
        create("keep", null, "");
        h.advance(Duration.ofSeconds(30));
        RayJobStatus st = status("keep");
        assertThat(st.jobDeploymentStatus()).isEqualTo("Complete");
        assertThat(cluster(st.rayClusterName())).isNotNull();
    }

    @Test
    void clusterSelectorUsesAnExistingClusterAndNeverDeletesIt() {
        ObjectNode rc = TestCluster.yaml(manifest("x", null, "")).deepCopy();
        ObjectNode existing = Json.object();
        existing.put("apiVersion", "ray.io/v1").put("kind", "RayCluster");
        existing.putObject("metadata").put("name", "shared").put("namespace", "default");
        existing.set("spec", rc.get("spec").get("rayClusterSpec"));
        h.client().create(ResourceTypes.RAYCLUSTERS, "default", existing);
        h.advance(Duration.ofSeconds(2));
        h.create(ResourceTypes.RAYJOBS, "default", """
                apiVersion: ray.io/v1
                kind: RayJob
                metadata: {name: sel, namespace: default}
                spec:
                  entrypoint: echo hi
                  clusterSelector:
                    ray.io/cluster: shared
                """);
        h.advance(Duration.ofSeconds(5));
        RayJobStatus st = status("sel");
        assertThat(st.jobDeploymentStatus()).isEqualTo("Complete");
        assertThat(st.rayClusterName()).isEqualTo("shared");
        assertThat(h.client().list(ResourceTypes.RAYCLUSTERS, "default", null)).extracting(StoredObject::name)
                .containsExactly("shared");
        assertThat(h.client().get(ResourceTypes.SERVICES, "default", "sel-head-svc")).isNull();
    }

    @Test
    void missingSelectedClusterWarnsAndWaits() {
        h.create(ResourceTypes.RAYJOBS, "default", """
                apiVersion: ray.io/v1
                kind: RayJob
                metadata: {name: lost, namespace: default}
                spec:
                  entrypoint: echo hi
                  clusterSelector:
                    ray.io/cluster: nowhere
                """);
        h.advance(Duration.ofSeconds(6));
        assertThat(status("lost").jobDeploymentStatus()).isEqualTo("Initializing");
        assertThat(events("RayClusterNotFound")).isNotEmpty().allMatch(e -> e.equals("Warning RayCluster "
                + "default/nowhere set in the clusterSelector is not found. It must be created manually"));
    }

    // rayjob_controller.go: Running calls getOrCreateRayClusterInstance, which creates a deleted cluster again
    @Test
    void aClusterDeletedWhileRunningIsCreatedAgain() {
        create("again", "sim.kuberay.io/job-duration-seconds: \"600\"", null);
        h.advance(Duration.ofSeconds(5));
        RayJobStatus st = status("again");
        assertThat(st.jobDeploymentStatus()).isEqualTo("Running");
        h.client().delete(ResourceTypes.RAYCLUSTERS, "default", st.rayClusterName());
        h.advance(Duration.ofSeconds(10));
        assertThat(cluster(st.rayClusterName())).isNotNull();
        assertThat(events("CreatedRayCluster")).hasSize(2);
        assertThat(status("again").jobDeploymentStatus()).isNotEqualTo("Failed");
    }

    // common/job.go BuildJobSubmitCommand with utils.BasePythonHealthCommand; GetSubmitterTemplate
    @Test
    void submitterCommandAsKubeRayWritesIt() {
        create("cmd", null, "entrypoint: \"  python main.py  \"");
        h.advance(Duration.ofSeconds(2));
        RayJobStatus st = status("cmd");
        StoredObject submitter = h.client().get(ResourceTypes.JOBS, "default", "cmd");
        String args = Json.at(submitter.object(), "spec", "template", "spec", "containers").get(0).path("args").get(0)
                .asString();
        String address = "http://" + st.dashboardURL();
        assertThat(args).startsWith("until python -c \"import urllib.request; r=urllib.request.urlopen('" + address
                + "/api/gcs_healthz', timeout=10); exit(0 if b'success' in r.read() else 1)\" >/dev/null 2>&1 ;")
                .contains("--submission-id " + st.jobId() + " -- python main.py ; fi ;");
        assertThat(Json.text(submitter.object(), "spec", "template", "spec", "restartPolicy")).isEqualTo("Never");
    }

    @Test
    void httpModeSubmitsThroughTheDashboardWithoutASubmitterJob() {
        create("http", RayDashboard.DURATION_ANNOTATION + ": \"4\"",
                "submissionMode: HTTPMode\nshutdownAfterJobFinishes: true");
        h.advance(Duration.ofSeconds(2));
        RayJobStatus st = status("http");
        assertThat(st.jobDeploymentStatus()).isEqualTo("Running");
        h.advance(Duration.ofSeconds(3));
        RayJobStatus running = status("http");
        assertThat(running.jobStatus()).isEqualTo("RUNNING");
        var job = dashboard.jobs(new ClusterKey("default", running.rayClusterName()));
        assertThat(job).singleElement().satisfies(j -> {
            assertThat(j.submissionId()).isEqualTo(running.jobId());
            assertThat(j.metadata()).containsEntry(RayDashboard.DURATION_ANNOTATION, "4");
        });
        h.advance(Duration.ofSeconds(3));
        RayJobStatus done = status("http");
        assertThat(done.jobDeploymentStatus()).isEqualTo("Complete");
        assertThat(done.jobStatus()).isEqualTo("SUCCEEDED");
        assertThat(h.client().get(ResourceTypes.JOBS, "default", "http")).isNull();
        assertThat(cluster(done.rayClusterName())).isNull();
    }

    @Test
    void interactiveModeWaitsForTheUsersJobId() {
        create("inter", null, "submissionMode: InteractiveMode");
        h.advance(Duration.ofSeconds(5));
        RayJobStatus st = status("inter");
        assertThat(st.jobDeploymentStatus()).isEqualTo("Waiting");
        assertThat(st.jobId()).isNull();
        dashboard.submit(new ClusterKey("default", st.rayClusterName()), "mine", "python a.py", null,
                null);
        StoredObject o = h.client().get(ResourceTypes.RAYJOBS, "default", "inter");
        ObjectNode copy = o.copy();
        ((ObjectNode) copy.get("spec")).put("jobId", "mine");
        h.client().update(ResourceTypes.RAYJOBS, copy);
        h.settle();
        assertThat(status("inter").jobDeploymentStatus()).isEqualTo("Running");
        assertThat(status("inter").jobId()).isEqualTo("mine");
        h.advance(Duration.ofSeconds(1));
        assertThat(status("inter").jobDeploymentStatus()).isEqualTo("Complete");
    }

    @Test
    void suspendDeletesTheClusterAndResumeStartsOver() {
        create("sus", RayDashboard.DURATION_ANNOTATION + ": \"100\"", "shutdownAfterJobFinishes: true");
        h.advance(Duration.ofSeconds(3));
        String first = status("sus").rayClusterName();
        assertThat(status("sus").jobDeploymentStatus()).isEqualTo("Running");
        setSuspend("sus", true);
        RayJobStatus st = status("sus");
        assertThat(st.jobDeploymentStatus()).isEqualTo("Suspended");
        assertThat(st.rayClusterName()).isNull();
        assertThat(st.jobId()).isNull();
        assertThat(cluster(first)).isNull();
        assertThat(h.client().get(ResourceTypes.JOBS, "default", "sus")).isNull();
        assertThat(events("DeletedRayJobSubmitter")).hasSize(1);
        h.advance(Duration.ofSeconds(10));
        assertThat(status("sus").jobDeploymentStatus()).isEqualTo("Suspended");

        setSuspend("sus", false);
        st = status("sus");
        assertThat(st.jobDeploymentStatus()).isEqualTo("Initializing");
        assertThat(st.rayClusterName()).isNotNull().isNotEqualTo(first);
        assertThat(cluster(st.rayClusterName())).isNotNull();
    }

    @Test
    void createdSuspendedNeverCreatesACluster() {
        create("kueue", null, "suspend: true\nshutdownAfterJobFinishes: true");
        h.advance(Duration.ofSeconds(5));
        assertThat(status("kueue").jobDeploymentStatus()).isEqualTo("Suspended");
        assertThat(h.client().list(ResourceTypes.RAYCLUSTERS, "default", null)).isEmpty();
    }

    private void setSuspend(String name, boolean suspend) {
        StoredObject o = h.client().get(ResourceTypes.RAYJOBS, "default", name);
        ObjectNode copy = o.copy();
        ((ObjectNode) copy.get("spec")).put("suspend", suspend);
        h.client().update(ResourceTypes.RAYJOBS, copy);
        h.settle();
    }

    @Test
    void deleteWorkersRuleSuspendsEveryWorkerGroup() {
        create("dw", null, """
                deletionStrategy:
                  deletionRules:
                  - policy: DeleteWorkers
                    condition: {jobStatus: SUCCEEDED, ttlSeconds: 0}
                  - policy: DeleteCluster
                    condition: {jobStatus: SUCCEEDED, ttlSeconds: 20}""");
        h.advance(Duration.ofSeconds(6)); // Complete at +5, workers deleted, 1 s to terminate
        String name = status("dw").rayClusterName();
        StoredObject rc = cluster(name);
        assertThat(rc).isNotNull();
        assertThat(Json.at(rc.object(), "spec", "workerGroupSpecs").get(0).get("suspend").asBoolean()).isTrue();
        assertThat(h.client().list(ResourceTypes.PODS, "default", "ray.io/cluster=" + name + ",ray.io/node-type=worker"))
                .isEmpty();
        // rayjob_controller.go suspendWorkerGroups
        assertThat(events("UpdatedRayCluster")).singleElement().asString().startsWith(
                "Normal Set the `suspend` field to true for all worker groups in cluster default/");
        h.advance(Duration.ofSeconds(18));
        assertThat(cluster(name)).isNotNull();
        h.advance(Duration.ofSeconds(3)); // end + 20 s TTL + KubeRay's 2 s

        assertThat(cluster(name)).isNull();
    }

    @Test
    void deleteSelfRuleDeletesTheRayJobAndEverythingItOwns() {
        create("ds", null, """
                deletionStrategy:
                  deletionRules:
                  - policy: DeleteSelf
                    condition: {jobStatus: SUCCEEDED, ttlSeconds: 5}""");
        h.advance(Duration.ofSeconds(5));
        assertThat(status("ds").jobDeploymentStatus()).isEqualTo("Complete");
        String name = status("ds").rayClusterName();
        h.advance(Duration.ofSeconds(10));
        assertThat(h.client().get(ResourceTypes.RAYJOBS, "default", "ds")).isNull();
        assertThat(cluster(name)).isNull();
        assertThat(h.client().get(ResourceTypes.JOBS, "default", "ds")).isNull();
    }

    @Test
    void deleteNoneAndUnmatchedRulesKeepEverything() {
        create("dn", null, """
                deletionStrategy:
                  deletionRules:
                  - policy: DeleteNone
                    condition: {jobStatus: SUCCEEDED}
                  - policy: DeleteCluster
                    condition: {jobStatus: FAILED}""");
        h.advance(Duration.ofSeconds(30));
        assertThat(status("dn").jobDeploymentStatus()).isEqualTo("Complete");
        assertThat(cluster(status("dn").rayClusterName())).isNotNull();
    }

    @Test
    void legacyOnFailurePolicyDeletesTheClusterOfAFailedJob() {
        create("legacy", RayDashboard.RESULT_ANNOTATION + ": FAILED", """
                deletionStrategy:
                  onSuccess: {policy: DeleteNone}
                  onFailure: {policy: DeleteCluster}""");
        h.advance(Duration.ofSeconds(5));
        RayJobStatus st = status("legacy");
        assertThat(st.jobDeploymentStatus()).isEqualTo("Failed");
        assertThat(cluster(st.rayClusterName())).isNull();
    }

    @Test
    void invalidSpecIsRejectedWithAWarning() {
        create("bad", null, "ttlSecondsAfterFinished: 10");
        RayJobStatus st = status("bad");
        assertThat(st.jobDeploymentStatus()).isEqualTo("ValidationFailed");
        assertThat(st.reason()).isEqualTo("ValidationFailed");
        assertThat(st.message()).isEqualTo("The RayJob spec is invalid: a RayJob with shutdownAfterJobFinishes set "
                + "to false cannot have TTLSecondsAfterFinished");
        assertThat(events("InvalidRayJobSpec")).isNotEmpty().allMatch(e -> e.startsWith("Warning default/bad: "));
        h.advance(Duration.ofSeconds(10));
        assertThat(h.client().list(ResourceTypes.RAYCLUSTERS, "default", null)).isEmpty();
    }

    @Test
    void suspendWithoutShutdownIsInvalid() {
        create("bad2", null, "suspend: true");
        assertThat(status("bad2").message()).contains("not allowed to be suspended");
    }

    // The API stores any DNS-1123 subdomain as a custom resource's name; the RayJob controller refuses the rest.
    @Test
    void aNameKubeRayRefusesIsStoredAndFailsValidationWithoutACluster() {
        create("1job", null, "");
        RayJobStatus st = status("1job");
        assertThat(st.jobDeploymentStatus()).isEqualTo("ValidationFailed");
        assertThat(st.message()).startsWith("The RayJob metadata is invalid: RayJob name should be a valid DNS1035 label");
        assertThat(events("InvalidRayJobMetadata")).isNotEmpty().allMatch(e -> e.startsWith("Warning default/1job: "));
        h.advance(Duration.ofSeconds(10));
        assertThat(h.client().list(ResourceTypes.RAYCLUSTERS, "default", null)).isEmpty();
    }

    @Test
    void nameChecksFollowKubeRay() {
        assertThat(RayJobValidation.metadata("a".repeat(48))).isEqualTo(
                "The RayJob metadata is invalid: RayJob name should be no more than 47 characters");
        assertThat(RayJobValidation.metadata("1abc")).startsWith(
                "The RayJob metadata is invalid: RayJob name should be a valid DNS1035 label");
        assertThat(RayJobValidation.metadata("ok-name")).isNull();
    }

    @Test
    void deletingARunningRayJobStopsTheRayJobAndRemovesTheFinalizer() {
        create("del", RayDashboard.DURATION_ANNOTATION + ": \"100\"", "");
        h.advance(Duration.ofSeconds(4));
        RayJobStatus st = status("del");
        assertThat(st.jobStatus()).isEqualTo("RUNNING");
        var key = new ClusterKey("default", st.rayClusterName());
        List<String> seen = new ArrayList<>();
        dashboard.addListener((k, j) -> seen.add(j.submissionId() + ":" + j.status()));
        h.client().delete(ResourceTypes.RAYJOBS, "default", "del");
        h.settle();
        assertThat(seen).contains(st.jobId() + ":STOPPED");
        assertThat(h.client().get(ResourceTypes.RAYJOBS, "default", "del")).isNull();
        h.settle();
        assertThat(cluster(st.rayClusterName())).isNull();
        assertThat(dashboard.jobs(key)).isEmpty();
    }

    @Test
    void twoRunsGiveTheSameNames() {
        create("same", null, "");
        RayJobStatus a = status("same");
        try (SimulationHarness other = SimulationHarness.withOperator()) {
            other.create(ResourceTypes.RAYJOBS, "default", manifest("same", null, ""));
            RayJobStatus b = KubeClient.read(other.client().get(ResourceTypes.RAYJOBS, "default", "same").object(),
                    RayJob.class).status();
            assertThat(b.rayClusterName()).isEqualTo(a.rayClusterName());
            assertThat(b.jobId()).isEqualTo(a.jobId());
        }
    }
}
